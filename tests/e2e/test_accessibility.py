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
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from games.boards.haymaker.tutorial import TUTORIAL as HAYMAKER_TUTORIAL
from tests.live import LiveServer

pytestmark = pytest.mark.e2e

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
GAMES = ("banira", "dogblade", "grimhand", "haymaker", "shield")
MATCHES = 3  # Arcana deals tried for one in which an ability card is played
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


SERVER: list[LiveServer] = []  # the session's server, for its log when a board is stuck


@pytest.fixture(scope="module")
def player(
    chromium_browser: Browser, live_server_url: str, e2e_server: LiveServer
) -> Iterator[Player]:
    SERVER[:] = [e2e_server]
    context = chromium_browser.new_context(
        base_url=live_server_url, viewport=VIEWPORT, bypass_csp=True
    )
    context.set_default_timeout(DEFAULT_TIMEOUT)
    player = Player(f"a11y_{secrets.token_hex(3)}", context, context.new_page())
    player.page.on("pageerror", lambda error: player.page_errors.append(str(error)))
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


# A Dog Blade match is at most about 160 plies, 80 attacks of one seat (1,000 dealt matches
# of forced moves: median 111 plies, 10% over 129, the longest 160); 60 attacks cut one
# match in ten short.
MOST_DOGBLADE_ATTACKS = 100


def open_ai_match(player: Player, game: str, *, variant: str = "") -> int:
    """From the lobby, a match of `game` against the AI; Banira, solo, is a practice run.
    `variant`: Grimhand's mode ("arcana": the house's archetype deck)."""
    page = player.page
    if game == "banira":
        page.goto("/banira/")
        page.get_by_test_id("start-practice-classic").click()
        page.wait_for_url(MATCH_URL)
        expect(player.board).to_have_attribute("data-status", re.compile(r"^(active|finished)$"))
        return int(MATCH_URL.search(page.url).group(1))
    page.goto("/play/")
    page.locator("select[name=game]").select_option(game)
    if variant:
        page.locator("select[name=variant]").select_option(variant)
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


# Does the live summary carry the board's newest log line, as the page stands right now?
SUMMARY_FOLLOWS_JS = """() => {
  const squash = (text) => (text || "").split(/\\s+/).join(" ").trim();
  const newest = document.querySelector("#board .log-list li");
  const summary = document.querySelector("[data-testid='board-summary']");
  return !!newest && !!summary && squash(summary.innerText).includes(squash(newest.innerText));
}"""


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
        # The AI's reply may swap the board again at any moment: the summary and the board's
        # newest log line are read together, in one look at the page, until they agree.
        page.wait_for_function(SUMMARY_FOLLOWS_JS, timeout=5_000)
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


# Every game with the keyboard alone (issue 18): each move reached with Tab or Shift+Tab,
# made with Enter or Space, the control showing a focus ring on the way. Where a board
# offers choices the tests pick the first one they can reach; the AI answers inside the
# move's request or by push, and each step waits for the board to move on.

MOVE_TIMEOUT = 20_000  # ms: the move's answer, then the AI's reply
RING_WAIT = 2_000  # ms: focus put back after a board swap

FOCUS_JS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  return {testid: el.dataset.testid || null, tag: el.tagName.toLowerCase(),
          name: el.getAttribute("name"), value: el.getAttribute("value"),
          type: el.getAttribute("type"), inBoard: !!el.closest("#board")};
}"""
# A visible ring on the focused control, or (for a visually hidden checkbox or radio) on
# the card its label draws: an outline or a box-shadow, under :focus-visible.
RING_JS = """() => {
  const el = document.activeElement;
  if (!el || !el.matches(":focus-visible")) return "not :focus-visible";
  const shown = (node) => {
    const style = getComputedStyle(node);
    return (style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0)
      || style.boxShadow !== "none";
  };
  const label = el.closest("label");
  const drawn = label ? [label, ...label.querySelectorAll("*")] : [el];
  return drawn.some(shown) ? "ok" : "no outline or shadow on " + el.outerHTML.slice(0, 120);
}"""
# Resolves once the board has moved past `ply` and waits on me again, or is over. While a
# swapped-in board settles (`htmx-settling`), htmx leaves the replaced board's classes on it:
# an "is-my-turn" then is the old board's (the move's answer comes before the AI's reply).
READY_JS = """(ply) => {
  const board = document.getElementById("board");
  if (!board || Number(board.dataset.ply) <= ply) return false;
  if (board.dataset.status === "finished") return true;
  return board.classList.contains("is-my-turn") && !board.classList.contains("htmx-settling");
}"""
MY_TURN_JS = """() => {
  const board = document.getElementById("board");
  if (!board) return false;
  if (board.dataset.status === "finished") return true;
  return board.classList.contains("is-my-turn") && !board.classList.contains("htmx-settling");
}"""


def focused(player: Player) -> dict | None:
    return player.page.evaluate(FOCUS_JS)


def assert_ring(player: Player) -> None:
    """The focused control shows its ring. A push may swap the board just then: focus falls
    to <body> and cardhall.js puts it back on the same control a tick later, so the ring
    is given RING_WAIT to be there again."""
    try:
        player.page.wait_for_function(f"() => ({RING_JS})() === 'ok'", timeout=RING_WAIT)
    except PlaywrightTimeoutError:
        found = player.page.evaluate(RING_JS)
        raise AssertionError(f"focus ring on {focused(player)}: {found}") from None


def tab_until(player: Player, wanted, *, back: bool = False, what: str = "") -> int:
    """Press Tab (Shift+Tab with `back`) until `wanted(focused)` holds; returns the presses."""
    key = "Shift+Tab" if back else "Tab"
    for presses in range(1, TAB_LIMIT + 1):
        player.page.keyboard.press(key)
        now = focused(player)
        if now and now["inBoard"] and wanted(now):
            assert_ring(player)
            return presses
    raise AssertionError(f"{TAB_LIMIT} presses of {key} never reached {what or wanted}")


def has_testid(testid: str):
    return lambda now: now["testid"] == testid


def wait_ready(player: Player, ply: int) -> None:
    """The board has moved past `ply` and waits on me (or is over). The AI's reply comes by
    push; a push is a hint (at most once), and one lost under a loaded CI left the board
    at the move before it. Players get it back from the page's poll (MATCH_POLL_SECONDS,
    600 s on the test server, so the push tests prove pushes): these keyboard tests, which
    are about the keyboard, then ask the page once as the poll would, and say so."""
    try:
        player.page.wait_for_function(READY_JS, arg=ply, timeout=MOVE_TIMEOUT)
    except PlaywrightTimeoutError:
        print(f"no board past ply {ply} after {MOVE_TIMEOUT} ms: the page asks, as its poll does")
        player.page.evaluate("document.dispatchEvent(new CustomEvent('page-visible'))")
        try:
            player.page.wait_for_function(READY_JS, arg=ply, timeout=MOVE_TIMEOUT)
        except PlaywrightTimeoutError:
            raise AssertionError(stuck(player, ply)) from None


STUCK_JS = """async () => {
  const board = document.getElementById("board");
  const shown = board ? {ply: board.dataset.ply, status: board.dataset.status,
                         mine: board.classList.contains("is-my-turn")} : null;
  let served = null;
  const url = board && (board.getAttribute("hx-get") || "").split("?")[0];
  if (url) {
    const answer = await fetch(url, {headers: {"HX-Request": "true"}});
    const html = await answer.text();
    const found = /data-ply="(\\d+)"[^>]*data-status="(\\w+)"/.exec(html);
    served = {status: answer.status, ply: found && found[1], match: found && found[2],
              mine: html.includes("is-my-turn"),
              error: (/data-testid="board-error"[^>]*>([^<]*)/.exec(html) || [])[1] || null};
  }
  return {shown, served};
}"""


def stuck(player: Player, ply: int) -> str:
    """What a board that never moved past `ply` says, on the page and on the server, with the
    server's log: which of the move, the AI's reply or the push went missing."""
    try:
        found = player.page.evaluate(STUCK_JS)
    except Exception as error:  # the page itself may be what broke
        found = f"(could not ask the page: {error})"
    log = SERVER[0].log_tail(lines=60) if SERVER else "(no server log)"
    return f"board never moved past ply {ply}: {found}\nserver log:\n{log}"


def my_turn(player: Player) -> None:
    player.page.wait_for_function(MY_TURN_JS, timeout=MOVE_TIMEOUT)


def from_the_top(player: Player) -> None:
    """Focus from the start of the page, as a keyboard player arriving on it."""
    player.page.evaluate("document.activeElement?.blur()")


# No preview of the action bar asked for, being swapped in or settling (htmx's classes).
PREVIEW_SETTLED_JS = """() => !document.querySelector(
  '#board .htmx-request, #board .htmx-swapping, #board .htmx-settling')"""


def keyboard_move(player: Player, testid: str, *, back: bool = False, key: str = "Enter") -> None:
    """Reach the control `testid` with Tab (Shift+Tab with `back`), press `key`, and wait
    until the board has moved on and it is my turn again (or the match is over)."""
    ply = player.ply()
    presses = tab_until(player, has_testid(testid), back=back, what=testid)
    player.page.keyboard.press(key)
    wait_ready(player, ply)
    print(f"{testid}: {'Shift+' if back else ''}Tab x{presses}, {key}: {ply} -> {player.ply()}")


def visible_testids(player: Player, selector: str) -> list[str]:
    """The data-testid of each visible, enabled control matching `selector` in the board."""
    return player.board.locator(selector).evaluate_all(
        """nodes => nodes.filter(n => !n.disabled && n.getClientRects().length)
                        .map(n => n.dataset.testid)"""
    )


def is_over(player: Player) -> bool:
    return player.board.get_attribute("data-status") == "finished"


def test_grimhand_classic_with_the_keyboard_alone(player: Player) -> None:
    """Draws from both decks (the Defense deck reached with Shift+Tab from the Attack deck)
    and an attack as soon as there is one, against the AI."""
    open_ai_match(player, "grimhand")
    page = player.page
    attacked = drew_defense = False
    for _turn in range(8):
        my_turn(player)
        if is_over(player) or (attacked and drew_defense):
            break
        from_the_top(player)
        if player.testid("move-attack").count():
            keyboard_move(player, "move-attack", key="Space")
            attacked = True
        elif not drew_defense and player.testid("draw-defense").count():
            # Tab to the Attack deck, then back with Shift+Tab? The Defense deck comes after
            # it: reach it with Tab, then come back to it from the next control.
            tab_until(player, has_testid("draw-attack"), what="draw-attack")
            tab_until(player, has_testid("draw-defense"), what="draw-defense")
            page.keyboard.press("Tab")
            keyboard_move(player, "draw-defense", back=True)
            drew_defense = True
        else:
            keyboard_move(player, "draw-attack")
    assert drew_defense or is_over(player)
    assert not player.page_errors, player.page_errors


def test_grimhand_arcana_with_the_keyboard_alone(player: Player) -> None:
    """Arcana against the AI: ability cards played from the keyboard (a target chosen with
    the arrow keys where the card asks for one), choices the engine asks for, draws and an
    attack. A deal can end (a Death card) before any ability card could be played: then
    another match, up to MATCHES of them."""
    played = 0
    for _match in range(MATCHES):
        played = _arcana_by_keyboard(player)
        if played:
            break
    assert played, f"no ability card was played in {MATCHES} matches"
    assert not player.page_errors, player.page_errors


def _arcana_by_keyboard(player: Player) -> int:
    """One Arcana match against the AI, from the keyboard; how many ability cards I played."""
    open_ai_match(player, "grimhand", variant="arcana")
    page = player.page
    played = 0
    for _step in range(12):
        my_turn(player)
        if is_over(player):
            break
        from_the_top(player)
        plays = visible_testids(player, "[data-testid^='play-']")
        choices = visible_testids(player, ".ga-choice button[data-testid]")
        if choices:
            keyboard_move(player, choices[0])
        elif plays and played < 3:
            card = plays[0].removeprefix("play-")
            target = player.testid(f"target-{card}")
            if target.count():
                tab_until(player, has_testid(f"target-{card}"), what=f"target-{card}")
                before = target.input_value()
                page.keyboard.press("ArrowDown")
                if target.locator("option").count() > 1:
                    assert target.input_value() != before, "the arrow keys pick the target"
            keyboard_move(player, plays[0])
            played += 1
        elif player.testid("move-attack").count():
            keyboard_move(player, "move-attack")
        else:
            draws = visible_testids(player, "[data-testid^='draw-']")
            assert draws, "no move reachable on my turn"
            keyboard_move(player, draws[0])
    return played


def test_haymaker_with_the_keyboard_alone(player: Player) -> None:
    """Every Haymaker move from the keyboard, in the tutorial's fixed bout against its AI
    tutor: cards picked with Space (Enter only picks or unpicks: it never submits) on their
    (visually hidden) checkboxes, then an attack, a haymaker, an exact block and a pass,
    each made with Enter; then, against the AI, the hit taken when I defend."""
    page = player.page
    page.goto("/games/haymaker/tutorial/")
    page.get_by_test_id("tutorial-begin").click()
    page.wait_for_url(MATCH_URL)
    for ply, step in sorted(HAYMAKER_TUTORIAL.steps.items()):
        if step.move is None:
            continue
        page.wait_for_function(
            "(ply) => Number(document.getElementById('board').dataset.ply) === ply", arg=ply
        )
        my_turn(player)
        for card in step.move.get("cards", []):
            from_the_top(player)
            tab_until(
                player, lambda now, card=card: now["value"] == card and now["name"] == "cards"
            )
            page.keyboard.press("Space")
            checkbox = page.locator(f"input[name=cards][value='{card}']")
            expect(checkbox).to_be_checked()
            # Enter on a card unpicks it (and picks it again): it never submits the form.
            ply_now = player.ply()
            page.keyboard.press("Enter")
            expect(checkbox).not_to_be_checked()
            page.keyboard.press("Enter")
            expect(checkbox).to_be_checked()
            expect(player.board).to_have_attribute("data-ply", str(ply_now))
        action = player.testid(f"action-{step.move['type']}")
        expect(action).to_be_enabled()  # the preview agrees: a legal move
        # The last pick's preview may still be swapping the action bar in: a button focused
        # before that swap is gone from the page, and Enter on it would do nothing.
        page.wait_for_function(PREVIEW_SETTLED_JS)
        keyboard_move(player, f"action-{step.move['type']}")
    for _step in range(8):  # off the script: the AI plays on; take a hit when I defend
        my_turn(player)
        if is_over(player):
            break
        from_the_top(player)
        if player.testid("action-take_hit").count():
            keyboard_move(player, "action-take_hit")
            break
        tab_until(player, lambda now: now["name"] == "cards", what="a card in my hand")
        page.keyboard.press("Space")
        if player.testid("action-pass").is_enabled():
            keyboard_move(player, "action-pass")
        else:
            expect(player.testid("action-attack")).to_be_enabled()
            keyboard_move(player, "action-attack")
    assert not player.page_errors, player.page_errors


def test_shield_with_the_keyboard_alone(player: Player) -> None:
    """The shield picked and confirmed, then actions (an attack first) and their follow-ups,
    each with Tab and Enter."""
    open_ai_match(player, "shield")
    acted = 0
    for _step in range(10):
        my_turn(player)
        if is_over(player) or acted >= 4:
            break
        from_the_top(player)
        moves = visible_testids(player, "button[name=move][data-testid]")
        assert moves, "no move reachable on my turn"
        attacks = [testid for testid in moves if testid.startswith("attack-")]
        choose = [testid for testid in moves if testid.startswith("choose-")]
        if choose and "confirm" in moves:
            keyboard_move(player, "confirm")
        elif choose:
            keyboard_move(player, choose[-1])
        else:
            keyboard_move(player, (attacks or moves)[0])
            acted += 1
    assert acted, "never took an action"
    assert not player.page_errors, player.page_errors


def test_banira_with_the_keyboard_alone(player: Player) -> None:
    """A slot unlocked with Enter; a hand card chosen on its radio (Space, then the arrow
    keys within the hand, as a radio group is; Enter only picks it) and played onto a legal
    slot, reached back with Shift+Tab, with Enter; a boost with Enter."""
    open_ai_match(player, "banira")
    page = player.page
    from_the_top(player)
    keyboard_move(player, "unlock-flex")
    played = 0
    for _step in range(4):
        if is_over(player):
            break
        from_the_top(player)
        cards = page.get_by_test_id("hand-card")
        slots = [cards.nth(i).get_attribute("data-legal-slots") or "" for i in range(cards.count())]
        legal = [i for i, fits in enumerate(slots) if fits.split()]
        if not legal:
            keyboard_move(player, "boost")
            continue
        index = legal[0]
        slot = cards.nth(index).get_attribute("data-legal-slots").split()[0]
        tab_until(player, lambda now: now["name"] == "card", what="the hand")
        page.keyboard.press("Space")
        for _ in range(index):
            page.keyboard.press("ArrowRight")
        wanted = cards.nth(index).get_attribute("data-card")
        assert focused(player)["value"] == wanted
        expect(cards.nth(index).locator("input.bn-pick")).to_be_checked()
        assert_ring(player)
        # Enter on a hand card picks it: it does not submit the form by its first slot.
        ply = player.ply()
        page.keyboard.press("Enter")
        expect(cards.nth(index).locator("input.bn-pick")).to_be_checked()
        expect(player.board).to_have_attribute("data-ply", str(ply))
        expect(player.testid("board-error")).to_have_count(0)
        keyboard_move(player, f"slot-{slot}", back=True)
        played += 1
    assert played, "no card was played"
    assert not player.page_errors, player.page_errors


def test_focus_follows_the_board_across_swaps(player: Player) -> None:
    """Dog Blade against the AI, from the keyboard. After Enter on Attack! the board is
    swapped (the move's answer, then the AI's reply by push): focus is back on Attack!, so
    the next Enter, with no Tab, attacks again. Focus outside the board (the header) is
    never taken by a swap. When the match ends and no move is left, focus goes to the
    board's heading, not to <body>."""
    open_ai_match(player, "dogblade")
    page = player.page
    my_turn(player)
    from_the_top(player)
    keyboard_move(player, "move-attack")
    for _attack in range(2):
        if is_over(player):
            break
        assert focused(player) == {**focused(player), "testid": "move-attack", "inBoard": True}
        ply = player.ply()
        page.keyboard.press("Enter")  # no Tab: focus stayed on the attack
        wait_ready(player, ply)
        print(f"Enter alone: {ply} -> {player.ply()}")

    if not is_over(player):
        # Focus in the header; the move is made by a script's click, which does not move
        # focus (as a push swaps the board): focus stays in the header.
        header = page.locator("header a.user-chip, .site-header a").first
        header.focus()
        outside = focused(player)
        ply = player.ply()
        page.evaluate("() => document.querySelector('[data-testid=move-attack]').click()")
        wait_ready(player, ply)
        assert focused(player) == outside, "a board swap took focus from the header"

    # Play out from the keyboard, Enter alone each time; the end leaves no move.
    from_the_top(player)
    if not is_over(player):
        tab_until(player, has_testid("move-attack"), what="move-attack")
    for _attack in range(MOST_DOGBLADE_ATTACKS):
        if is_over(player):
            break
        ply = player.ply()
        assert focused(player)["testid"] == "move-attack"
        page.keyboard.press("Enter")
        wait_ready(player, ply)
    assert is_over(player), f"the match did not end in {MOST_DOGBLADE_ATTACKS} attacks"
    expect(page.locator("#board h1")).to_be_focused()
    assert not player.page_errors, player.page_errors
