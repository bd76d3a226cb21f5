"""The tutorial boards highlight the control the coach is talking about (issue 18), in Dog
Blade, Shield and BaniraCards as in Grimhand and Haymaker: at each coached step the board's
`.is-coached` elements are exactly the controls of the move the step names (for a
BaniraCards play, the hand card and the slot; for a discard, the card and Discard), and
pressing them plays on. The expected controls come from the tutorial's own data."""

from __future__ import annotations

import secrets

import pytest
from players import MATCH_URL, new_player, sign_up
from playwright.sync_api import Browser, expect

from games.boards import tutorial_for

pytestmark = pytest.mark.e2e

PLY_TIMEOUT = 15_000  # ms
BANIRA_STEPS = 14  # unlock, play, draw and (at ply 12) the first discard
NEXT_PLY_JS = """
(ply) => {
  const board = document.getElementById("board");
  return board && Number(board.dataset.ply) > ply;
}
"""
COACHED_JS = """
() => Array.from(document.querySelectorAll("#board .is-coached")).map(
  (el) => el.dataset.testid === "hand-card" ? "card:" + el.dataset.card : el.dataset.testid
).sort()
"""


def _controls(game: str, move: dict) -> list[str]:
    """The board controls (test ids; a BaniraCards hand card as card:<id>) of `move`."""
    kind = move["type"]
    if game == "dogblade":
        return [f"move-{kind}"]
    if game == "shield":
        return {
            "store": ["store"],
            "end_turn": ["end-turn"],
            "attack": [f"attack-{move.get('target')}"],
            "boost": [f"boost-{move.get('count')}"],
        }[kind]
    # banira
    if kind == "unlock":
        return [f"unlock-{move['slot']}"]
    if kind == "play":
        return sorted([f"card:{move['card']}", f"slot-{move['slot']}"])
    if kind == "discard":
        return sorted([f"card:{move['card']}", "discard-button"])
    return [kind]


def _press(page, game: str, move: dict) -> None:
    """Play `move` with the highlighted controls, as a player would."""
    if game == "banira" and move["type"] in ("play", "discard"):
        page.locator(f'#board .bn-held[data-card="{move["card"]}"]').click()
        target = f"slot-{move['slot']}" if move["type"] == "play" else "discard-button"
        page.get_by_test_id(target).click()
        return
    (control,) = _controls(game, move)
    page.get_by_test_id(control).click()


@pytest.mark.parametrize("game", ["dogblade", "shield", "banira"])
def test_the_coached_control_is_highlighted(chromium_browser: Browser, live_server_url, game):
    player = new_player(chromium_browser, live_server_url, f"coach{secrets.token_hex(3)}")
    page = player.page
    sign_up(player)
    page.goto(f"/games/{game}/tutorial/")
    page.get_by_test_id("tutorial-begin").click()
    page.wait_for_url(MATCH_URL)
    board = page.locator("#board")
    tutorial = tutorial_for(game)

    checked = 0
    while board.get_attribute("data-status") == "active":
        ply = int(board.get_attribute("data-ply"))
        move = tutorial.expected_move(ply)
        if move is None or (game == "banira" and checked >= BANIRA_STEPS):
            break
        expect(page.get_by_test_id("coach")).to_contain_text(tutorial.steps[ply].text[:30])
        assert page.evaluate(COACHED_JS) == sorted(_controls(game, move)), (ply, move)
        _press(page, game, move)
        page.wait_for_function(NEXT_PLY_JS, arg=ply, timeout=PLY_TIMEOUT)
        page.wait_for_function(
            "() => { const b = document.getElementById('board');"
            " return b.dataset.status === 'finished'"
            " || (b.classList.contains('is-my-turn') && !b.classList.contains('htmx-settling')); }",
            timeout=PLY_TIMEOUT,
        )
        checked += 1
    assert checked >= 4
    assert player.page_errors == []
    player.context.close()
