"""axe-core beyond the desktop boards of tests/e2e/test_accessibility.py (issue 18): every
page and board at phone size (390x844), finished boards and their history (replay) pages
at both sizes, and the sign-up page logged out. 0 serious or critical violations."""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.e2e.players import DEFAULT_TIMEOUT, VIEWPORT, Player, sign_up
from tests.e2e.test_accessibility import GAMES, PAGES, axe_violations, open_ai_match, readable

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
SIZES = {"desktop": VIEWPORT, "phone": PHONE}
FINISH_TIMEOUT = 20_000  # ms


def _player(browser: Browser, base_url: str, viewport: dict, *, signed_up: bool) -> Player:
    context = browser.new_context(base_url=base_url, viewport=viewport, bypass_csp=True)
    context.set_default_timeout(DEFAULT_TIMEOUT)
    player = Player(f"a11y_{secrets.token_hex(3)}", context, context.new_page())
    player.page.on("pageerror", lambda error: player.page_errors.append(str(error)))
    player.page.on("dialog", lambda dialog: dialog.accept())  # the resign confirmation
    if signed_up:
        sign_up(player)
    return player


@pytest.fixture(scope="module", params=list(SIZES))
def sized_player(request, chromium_browser: Browser, live_server_url: str) -> Iterator[Player]:
    player = _player(chromium_browser, live_server_url, SIZES[request.param], signed_up=True)
    player.size = request.param
    yield player
    player.context.close()


@pytest.fixture(scope="module")
def phone_player(chromium_browser: Browser, live_server_url: str) -> Iterator[Player]:
    player = _player(chromium_browser, live_server_url, PHONE, signed_up=True)
    yield player
    player.context.close()


@pytest.mark.parametrize("name", list(PAGES))
def test_phone_page_has_no_serious_axe_violations(phone_player: Player, name: str) -> None:
    phone_player.page.goto(PAGES[name])
    violations = axe_violations(phone_player)
    assert not violations, readable(f"{name} ({PAGES[name]}) at 390x844", violations)


@pytest.mark.parametrize("game", GAMES)
def test_phone_board_has_no_serious_axe_violations(phone_player: Player, game: str) -> None:
    match_id = open_ai_match(phone_player, game)
    violations = axe_violations(phone_player)
    assert not violations, readable(f"the {game} board at 390x844 (match {match_id})", violations)


@pytest.mark.parametrize("game", GAMES)
def test_finished_board_and_its_history_have_no_serious_axe_violations(
    sized_player: Player, game: str
) -> None:
    player = sized_player
    match_id = open_ai_match(player, game)
    _finish(player)
    player.page.goto(f"/matches/{match_id}/")
    expect(player.board).to_have_attribute("data-status", "finished")
    violations = axe_violations(player)
    where = f"the finished {game} board, {player.size} (match {match_id})"
    assert not violations, readable(where, violations)
    response = player.page.goto(f"/matches/{match_id}/history/")
    assert response is not None and response.status == 200
    expect(player.testid("replay-board")).to_be_visible()
    violations = axe_violations(player)
    assert not violations, readable(f"the {game} history page, {player.size}", violations)


def _finish(player: Player) -> None:
    """Resign, unless the match ends on its own first: the AI moves as the page opens, and
    a Grimhand match can end on its first moves, taking the resign button with it."""
    if player.board.get_attribute("data-status") != "finished":
        # No button to click: the match must have ended meanwhile (checked below).
        with contextlib.suppress(PlaywrightTimeoutError):
            player.testid("resign").click(timeout=FINISH_TIMEOUT)
    expect(player.board).to_have_attribute("data-status", "finished", timeout=FINISH_TIMEOUT)


@pytest.mark.parametrize("size", list(SIZES))
def test_signup_page_has_no_serious_axe_violations(
    chromium_browser: Browser, live_server_url: str, size: str
) -> None:
    visitor = _player(chromium_browser, live_server_url, SIZES[size], signed_up=False)
    try:
        visitor.page.goto("/accounts/signup/")
        expect(visitor.page.locator("form")).not_to_have_count(0)
        violations = axe_violations(visitor)
        assert not violations, readable(f"the sign-up page, {size}", violations)
    finally:
        visitor.context.close()
