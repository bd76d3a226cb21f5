"""axe-core on every page and every game's board, in a real browser against a real server.

Issue 18 asks for 0 serious or critical violations. axe-core is vendored for the tests only
(tests/e2e/vendor/) and injected into each page; the context bypasses the site's
Content-Security-Policy so that the injected script may run (the site itself is unchanged).

Also: only the turn and event summary is an aria-live region, never the whole board.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from players import DEFAULT_TIMEOUT, MATCH_URL, VIEWPORT, Player, sign_up
from playwright.sync_api import Browser, expect

pytestmark = pytest.mark.e2e

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
GAMES = ("banira", "dogblade", "grimhand", "haymaker", "shield")
BLOCKING = {"serious", "critical"}
PAGES = {
    "home": "/",
    "lobby": "/play/",
    "open tables": "/tables/",
    "my matches": "/matches/",
    "banira": "/banira/",
    "inbox": "/notifications/",
    "arcana decks": "/arcana/decks/",
    "arcana deck builder": "/arcana/decks/new/",
    **{f"{slug} rules": f"/games/{slug}/rules/" for slug in GAMES},
}

RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return {
    passes: result.passes.length,
    violations: result.violations.map(v => ({
      id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.map(n => ({target: n.target.join(" "), summary: n.failureSummary})),
    })),
  };
}"""


@pytest.fixture(scope="module")
def player(chromium_browser: Browser, live_server_url: str) -> Iterator[Player]:
    context = chromium_browser.new_context(
        base_url=live_server_url, viewport=VIEWPORT, bypass_csp=True
    )
    context.set_default_timeout(DEFAULT_TIMEOUT)
    player = Player(f"a11y_{secrets.token_hex(3)}", context, context.new_page())
    sign_up(player)
    yield player
    context.close()


def axe_violations(player: Player) -> list[dict]:
    """The serious and critical violations axe-core finds on the page as it stands."""
    player.page.add_script_tag(path=str(AXE))
    found = player.page.evaluate(RUN_AXE)
    assert found["passes"] > 0, "axe-core checked nothing on this page"
    minor = [
        f"{v['id']} ({v['impact']})" for v in found["violations"] if v["impact"] not in BLOCKING
    ]
    listed = ", ".join(minor) or "none"
    print(f"{player.page.url}: {found['passes']} axe rules passed; minor findings: {listed}")
    return [v for v in found["violations"] if v["impact"] in BLOCKING]


def readable(where: str, violations: list[dict]) -> str:
    lines = [f"{len(violations)} serious/critical axe violation(s) on {where}:"]
    for v in violations:
        lines.append(f"- [{v['impact']}] {v['id']}: {v['help']}")
        for node in v["nodes"][:8]:
            summary = " / ".join(node["summary"].splitlines()[1:3]).strip()
            lines.append(f"    {node['target']}  ({summary})")
    return "\n".join(lines)


def open_ai_match(player: Player, game: str) -> int:
    """From the lobby, a match of `game` against the AI; Banira, solo, is a practice run."""
    page = player.page
    if game == "banira":
        page.goto("/banira/")
        page.get_by_test_id("start-practice-classic").click()
        page.wait_for_url(MATCH_URL)
        expect(player.board).to_have_attribute("data-status", re.compile(r"^(active|finished)$"))
        return int(MATCH_URL.search(page.url).group(1))
    page.goto("/play/")
    page.locator("select[name=game]").select_option(game)
    against_ai = page.locator("input[name=opponent][value=ai]")
    if against_ai.is_visible():
        against_ai.check()
    page.get_by_test_id("create-match").click()
    page.wait_for_url(MATCH_URL)
    expect(player.board).to_have_attribute("data-status", re.compile(r"^(active|finished)$"))
    return int(MATCH_URL.search(page.url).group(1))


@pytest.mark.parametrize("name", list(PAGES))
def test_page_has_no_serious_axe_violations(player: Player, name: str) -> None:
    player.page.goto(PAGES[name])
    violations = axe_violations(player)
    assert not violations, readable(f"{name} ({PAGES[name]})", violations)


@pytest.mark.parametrize("game", GAMES)
def test_board_against_ai_has_no_serious_axe_violations(player: Player, game: str) -> None:
    match_id = open_ai_match(player, game)
    violations = axe_violations(player)
    assert not violations, readable(f"the {game} board (match {match_id})", violations)


def test_only_the_turn_summary_is_live_not_the_board(player: Player) -> None:
    open_ai_match(player, "dogblade")
    page = player.page
    expect(player.board).not_to_have_attribute("aria-live", re.compile(".*"))
    # No live region encloses the board: a live ancestor would read all of it out.
    expect(page.locator("[aria-live]").filter(has=player.board)).to_have_count(0)
    summary = player.testid("board-summary")
    expect(summary).to_have_attribute("aria-live", "polite")
    expect(player.board.locator("[data-testid='board-summary']")).to_have_count(0)
    banner = " ".join(player.banner.inner_text().split())
    expect(summary).to_contain_text(banner)
    # Once a move is made, the summary follows the board (the new turn, the new event).
    if player.testid("move-attack").count():
        ply = player.ply()
        player.testid("move-attack").click()
        expect(player.board).to_have_attribute("data-ply", re.compile(rf"^(?!{ply}$)\d+$"))
        newest = " ".join(page.locator(".log-list li").first.inner_text().split())
        expect(summary).to_contain_text(newest)
    # Live regions left inside a board are a short readout each, never a game area.
    inside = player.board.locator("[aria-live]")
    for i in range(inside.count()):
        assert len(inside.nth(i).inner_text()) < 300, inside.nth(i).evaluate("e => e.outerHTML")


TAB_LIMIT = 80  # presses of Tab before giving up on reaching a control


def tab_to(player: Player, testid: str) -> int:
    """Press Tab until the focused element is `testid`; returns how many presses it took."""
    page = player.page
    for presses in range(1, TAB_LIMIT + 1):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement?.dataset?.testid") == testid:
            return presses
    raise AssertionError(f"{TAB_LIMIT} presses of Tab never reached {testid!r}")


def test_dogblade_moves_with_the_keyboard_alone(player: Player) -> None:
    """Two Dog Blade attacks against the AI, each reached with Tab and made with Enter."""
    open_ai_match(player, "dogblade")
    page = player.page
    for attack in range(2):
        expect(player.board).to_have_attribute("data-status", "active")
        expect(player.banner).to_have_text("Your turn!", timeout=15_000)
        ply = player.ply()
        page.evaluate("document.activeElement?.blur()")  # from the top, as after a swap
        presses = tab_to(player, "move-attack")
        page.keyboard.press("Enter")
        expect(player.board).to_have_attribute("data-ply", re.compile(rf"^(?!{ply}$)\d+$"))
        print(f"attack {attack + 1}: Tab x{presses}, then Enter: ply {ply} -> {player.ply()}")
        if player.board.get_attribute("data-status") != "active":
            break
