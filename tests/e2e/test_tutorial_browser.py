"""A new player finishes the Dog Blade tutorial on a phone (390x844), from its page.

They sign up, open /games/dogblade/tutorial/ (the page that starts it), find the rules link
on the board, and press the coached Attack until their tutor's last monster falls: a win,
with no page error and nothing wider than the screen.
"""

from __future__ import annotations

import secrets

import pytest
from players import MATCH_URL, new_player, sign_up
from playwright.sync_api import Browser, expect

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
PLY_TIMEOUT = 15_000  # ms
READY_JS = """
(ply) => {
  const board = document.getElementById("board");
  if (!board || Number(board.dataset.ply) <= ply) return false;
  if (board.dataset.status === "finished") return true;
  return board.classList.contains("is-my-turn") && !board.classList.contains("htmx-settling");
}
"""
OVERFLOW_JS = "() => document.documentElement.scrollWidth - window.innerWidth"


def test_a_new_player_finishes_the_dog_blade_tutorial_on_a_phone(
    chromium_browser: Browser, live_server_url
):
    player = new_player(chromium_browser, live_server_url, f"tut{secrets.token_hex(3)}")
    page = player.page
    page.set_viewport_size(PHONE)
    sign_up(player)

    page.goto("/games/dogblade/tutorial/")
    expect(page.get_by_test_id("tutorial-start")).to_contain_text("Dog Blade")
    page.get_by_test_id("tutorial-begin").click()
    page.wait_for_url(MATCH_URL)
    board = page.locator("#board")
    expect(board).to_have_attribute("data-status", "active")
    rules = page.get_by_test_id("rules-link")
    expect(rules).to_be_visible()
    assert rules.get_attribute("href") == "/games/dogblade/rules/"
    coach = page.get_by_test_id("coach")
    expect(coach).to_contain_text("Welcome to Dog Blade")

    clicks = 0
    while board.get_attribute("data-status") != "finished":
        expect(coach).to_be_visible()
        ply = int(board.get_attribute("data-ply"))
        attack = page.get_by_test_id("move-attack")
        attack.scroll_into_view_if_needed()
        attack.click()
        page.wait_for_function(READY_JS, arg=ply, timeout=PLY_TIMEOUT)
        clicks += 1
        assert clicks <= 5, "the tutorial is five attacks long"
    assert clicks == 5
    expect(page.get_by_test_id("turn-banner")).to_contain_text("won")
    assert page.evaluate(OVERFLOW_JS) <= 0
    assert player.page_errors == []
    player.context.close()
