"""The Content-Security-Policy and the rate limits in a real browser (docs/security.md).

Two people play Dog Blade and Haymaker under the enforced policy: every page carries it,
moves, previews and pushes work, the inline style attributes the boards position their
cards with take effect, and Chromium reports no violation (`players.new_player` records
any as a page error). Screenshots of the boards are kept. Then, on a server of its own
with a low preview limit, a player who clicks too fast gets the "slow down" notice at the
top of the page while the board stays as it was.
"""

from __future__ import annotations

import contextlib
import secrets
from pathlib import Path

import pytest
from players import PUSH_TIMEOUT, Player, new_player, report_failure, start_duel
from playwright.sync_api import Browser, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.live import fresh_database, live_server, prepare_database, server_env

pytestmark = pytest.mark.e2e


def _policy_of(player: Player, match_id: int) -> str:
    """Reload the match page; the policy its response carries."""
    response = player.page.goto(f"/matches/{match_id}/")
    assert response is not None and response.ok
    return response.headers.get("content-security-policy", "")


def _turn_order(alice: Player, bob: Player) -> tuple[Player, Player]:
    expect(alice.banner).to_be_visible()
    return (alice, bob) if "Your turn!" in alice.banner.inner_text() else (bob, alice)


def _custom_properties_applied(player: Player, selector: str, name: str) -> list[list[str]]:
    """[the style attribute's value, the computed value] of CSS variable `name` for every
    element matching `selector`: equal only if the browser applied the attribute."""
    return player.page.locator(selector).evaluate_all(
        """(nodes, name) => nodes.map(node => [
            node.style.getPropertyValue(name).trim(),
            getComputedStyle(node).getPropertyValue(name).trim(),
        ])""",
        name,
    )


# Each health bar's [width in its style attribute, width shown] in percent of its parent,
# and whether every bar shows the width its attribute gives.
BARS_JS = """() => {
  const widths = [...document.querySelectorAll("#board .hp-fill")].map(node => [
    parseFloat(node.style.width),
    100 * node.getBoundingClientRect().width / node.parentElement.getBoundingClientRect().width,
  ]);
  return {widths, ok: widths.length > 0 && widths.every(([a, b]) => Math.abs(a - b) < 2)};
}"""


def _screenshot(player: Player, directory: Path, name: str) -> None:
    path = directory / f"{name}.png"
    player.board.screenshot(path=str(path))
    print(f"screenshot: {path}")


def test_boards_play_under_the_policy_without_a_violation(
    chromium_browser: Browser, e2e_server, live_server_url: str, tmp_path_factory
) -> None:
    shots = tmp_path_factory.mktemp("csp-boards")
    tag = secrets.token_hex(3)
    players: tuple[Player, ...] = ()
    try:
        # Dog Blade: a move, pushed to the other page.
        alice = new_player(chromium_browser, live_server_url, f"alice_{tag}")
        bob = new_player(chromium_browser, live_server_url, f"bob_{tag}")
        players = (alice, bob)
        match_id = start_duel(alice, bob, "dogblade", timeout=PUSH_TIMEOUT)
        for player in players:
            policy = _policy_of(player, match_id)
            assert "script-src 'self'" in policy and "unsafe-eval" not in policy
        actor, watcher = _turn_order(alice, bob)
        actor.testid("move-attack").click()
        for player in players:
            expect(player.board).to_have_attribute("data-ply", "1", timeout=PUSH_TIMEOUT)
        # The style attribute set each bar's width: not blocked. Measured once the board is
        # laid out (a push swapping it just then measured a bar in a parent 0 px wide).
        with contextlib.suppress(PlaywrightTimeoutError):  # the assertion says what was seen
            watcher.page.wait_for_function(f"() => ({BARS_JS})().ok", timeout=PUSH_TIMEOUT)
        widths = watcher.page.evaluate(f"() => ({BARS_JS})().widths")
        assert widths, "no health bar on the board"
        for given, shown in widths:
            assert abs(given - shown) < 2, widths
        _screenshot(watcher, shots, "dogblade")
        # A tab shown again re-checks its board, without eval (no htmx trigger filter).
        with watcher.page.expect_request(lambda request: "/board/?have=" in request.url):
            watcher.page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")

        # Haymaker: card clicks ask the server's preview (htmx GETs), then an attack.
        carol = new_player(chromium_browser, live_server_url, f"carol_{tag}")
        dave = new_player(chromium_browser, live_server_url, f"dave_{tag}")
        players = (alice, bob, carol, dave)
        match_id = start_duel(carol, dave, "haymaker", timeout=PUSH_TIMEOUT)
        attacker = carol if carol.seat == _attacker_seat(carol) else dave
        defender = dave if attacker is carol else carol
        positions = _custom_properties_applied(attacker, "[data-testid=my-hand] .hm-pick", "--i")
        assert len(positions) >= 5
        assert all(given == shown != "" for given, shown in positions), positions
        card = attacker.testid("my-hand").locator("input[name=cards]").first
        attacker.page.locator("label.hm-pick").first.click()
        expect(card).to_be_checked()
        expect(attacker.testid("action-attack")).to_be_enabled()
        _screenshot(attacker, shots, "haymaker-picked")
        attacker.testid("action-attack").click()
        expect(defender.testid("table-attack")).to_be_visible(timeout=PUSH_TIMEOUT)
        _screenshot(defender, shots, "haymaker-attacked")

        for player in players:
            assert not player.page_errors, f"{player.username}: {player.page_errors}"
    except BaseException:
        report_failure(players, e2e_server, tmp_path_factory)
        raise
    finally:
        for player in players:
            player.context.close()


def _attacker_seat(player: Player) -> int:
    return int(player.testid("haymaker-ring").get_attribute("data-attacker"))


@pytest.fixture(scope="module")
def limited_server(tmp_path_factory):
    """A server of its own with the limits on and a preview limit a fast clicker meets."""
    directory = tmp_path_factory.mktemp("e2e-limited")
    with fresh_database(directory) as database_url:
        env = server_env(database_url, RATELIMIT_ENABLE="1", RATE_LIMIT_PREVIEW_USER="2/m")
        prepare_database(env)
        with live_server(env, directory / "server.log") as server:
            yield server


def test_a_fast_clicker_gets_a_notice_and_keeps_the_board(
    chromium_browser: Browser, limited_server, tmp_path_factory
) -> None:
    tag = secrets.token_hex(3)
    erin = new_player(chromium_browser, limited_server.url, f"erin_{tag}")
    finn = new_player(chromium_browser, limited_server.url, f"finn_{tag}")
    players = (erin, finn)
    try:
        start_duel(erin, finn, "haymaker", timeout=PUSH_TIMEOUT)
        attacker = erin if erin.seat == _attacker_seat(erin) else finn
        picks = attacker.page.locator("label.hm-pick")
        for index in range(3):  # three previews: the third is one too many
            picks.nth(index).click()
        notice = attacker.page.locator("#site-notices [data-testid=rate-limited]")
        expect(notice).to_be_visible()
        expect(notice).to_contain_text("Wait")
        expect(attacker.board).to_be_visible()  # the board is still there, not replaced
        expect(attacker.testid("my-hand")).to_be_visible()
        shots = tmp_path_factory.mktemp("csp-limited")
        attacker.page.screenshot(path=str(shots / "haymaker-slow-down.png"))
        print(f"screenshot: {shots / 'haymaker-slow-down.png'}")
        for player in players:
            assert not player.page_errors, f"{player.username}: {player.page_errors}"
    except BaseException:
        report_failure(players, limited_server, tmp_path_factory)
        raise
    finally:
        for player in players:
            player.context.close()
