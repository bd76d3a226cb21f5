"""Grimhand Arcana in a real browser, on a real server: a new player builds a deck, then
beats their first boss.

1. On /arcana/decks/ the player builds a named deck from the starter cards they own (the
   builder's live check says the deck is legal) and sees it listed.
2. From the Grimhand rules page they start the Arcana tutorial (a fixed deal against the
   Bone Warden) and follow the coach: their first ability card (Piercing Strike, which
   Exposes the boss), a draw from the arcana deck, Blood Pact, and the attack that beats
   the boss. Along the way: energy pips, status badges with their turns, tooltips on tap
   or hover, the opponent's ability hand as backs only, and no horizontal scrolling on a
   phone. Screenshots at 1280x800 and 390x844 go to a temporary folder (printed).

The AI answers inside the move's request (eager Celery); each click waits until the
board's data-ply has moved on and it is my turn again (or the match is over).
"""

from __future__ import annotations

import re
import secrets

import pytest
from players import MATCH_URL, new_player, sign_up
from playwright.sync_api import Browser, expect

pytestmark = pytest.mark.e2e

PLY_TIMEOUT = 15_000  # ms
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
# The starter set is the Defensive archetype deck (arcana.services.STARTER_ARCHETYPE).
DECK = {
    "iron_wall": 2,
    "counter_shield": 2,
    "mist_barrier": 2,
    "guardian_rune": 2,
    "blessing": 2,
    "mirror_shield": 1,
    "hex_of_weakness": 1,
}
READY_JS = """
(ply) => {
  const board = document.getElementById("board");
  if (!board || Number(board.dataset.ply) <= ply) return false;
  return board.dataset.status === "finished" || board.classList.contains("is-my-turn");
}
"""
ANIMATIONS_JS = """
() => document.getElementById("board").getAnimations({ subtree: true })
  .filter((animation) => animation.playState === "running").length
"""
OVERFLOW_JS = "() => document.documentElement.scrollWidth - window.innerWidth"


def _wait_ready(page, after_ply: int) -> None:
    page.wait_for_function(READY_JS, arg=after_ply, timeout=PLY_TIMEOUT)


def _ply(page) -> int:
    return int(page.locator("#board").get_attribute("data-ply"))


def _click(page, testid: str) -> None:
    ply = _ply(page)
    page.get_by_test_id(testid).click()
    _wait_ready(page, ply)


def _shoot(page, shots, name: str) -> None:
    for label, size in (("desktop", DESKTOP), ("phone", PHONE)):
        page.set_viewport_size(size)
        page.wait_for_timeout(1_300)  # let the last move's animations finish
        assert page.evaluate(OVERFLOW_JS) <= 0, f"{name}: the page scrolls sideways at {size}"
        page.screenshot(path=str(shots / f"{name}-{label}.png"), full_page=True)
    page.set_viewport_size(DESKTOP)


def test_build_a_deck_then_beat_the_first_boss(
    chromium_browser: Browser, live_server_url, tmp_path_factory
):
    shots = tmp_path_factory.mktemp("arcana-screenshots")
    print(f"Screenshots: {shots}")
    player = new_player(chromium_browser, live_server_url, f"arc{secrets.token_hex(3)}")
    page = player.page
    try:
        sign_up(player)

        # 1. A deck, built from the cards I own, checked live by the builder.
        page.goto("/arcana/decks/")
        page.get_by_test_id("deck-new").click()
        page.get_by_test_id("deck-name").fill("Bone breaker")
        for card_id, count in DECK.items():
            page.locator(f"input[name=n_{card_id}]").fill(str(count))
        page.locator(f"input[name=n_{next(iter(DECK))}]").dispatch_event("change")
        expect(page.get_by_test_id("deck-check")).not_to_contain_text("exactly")
        page.set_viewport_size(PHONE)
        page.screenshot(path=str(shots / "deck-builder-phone.png"), full_page=True)
        page.set_viewport_size(DESKTOP)
        page.get_by_test_id("deck-save").click()
        page.wait_for_url(re.compile(r"/arcana/decks/(\d+/)?$"))
        page.goto("/arcana/decks/")
        expect(page.get_by_test_id("decks")).to_contain_text("Bone breaker")

        # 2. The Arcana tutorial: from the first ability card to the first boss.
        page.goto("/games/grimhand/rules/")
        page.get_by_test_id("tutorial-grimhand-arcana").click()
        page.wait_for_url(MATCH_URL)
        board = page.locator("#board")
        expect(board).to_have_attribute("data-status", "active")
        coach = page.get_by_test_id("coach")
        expect(coach).to_contain_text("Welcome to Grimhand Arcana")
        expect(page.get_by_test_id("boss")).to_contain_text("The Bone Warden")
        expect(page.get_by_test_id("energy-0")).to_have_attribute("aria-valuenow", "1")
        # The boss's ability hand and deck: counts and backs only.
        expect(page.get_by_test_id("side-1").locator(".ga-card")).to_have_count(0)
        assert "counter_shield" not in page.content() and "iron_wall" not in page.content()
        # A tap or hover explains the card.
        card = page.get_by_test_id("ability-piercing_strike")
        card.hover()
        expect(card.locator(".gh-tip")).to_be_visible()
        expect(card.locator(".gh-tip")).to_contain_text("Expose")
        expect(page.get_by_test_id("play-piercing_strike")).to_have_class(re.compile("is-coached"))
        _shoot(page, shots, "1-first-card")

        _click(page, "play-piercing_strike")
        expect(page.get_by_test_id("status-1-expose")).to_contain_text("2")
        expect(page.get_by_test_id("line-0-attack")).to_contain_text("Piercing Strike")
        badge = page.get_by_test_id("status-1-expose")
        badge.hover()
        expect(badge.locator(".gh-tip")).to_contain_text("turns left")
        _click(page, "draw-arcana")  # ends my turn; the boss answers in the same request
        expect(board).to_have_attribute("data-ply", "3")
        expect(coach).to_contain_text("Expose ticked down")
        expect(page.get_by_test_id("status-1-expose")).to_contain_text("1")
        expect(page.get_by_test_id("energy-0")).to_have_attribute("aria-valuenow", "2")

        _click(page, "play-blood_pact")
        expect(page.get_by_test_id("status-0-pact")).to_be_visible()
        expect(page.get_by_test_id("preview")).to_contain_text("Your 20")
        _shoot(page, shots, "2-before-the-blow")

        _click(page, "move-attack")
        expect(board).to_have_attribute("data-status", "finished")
        expect(page.get_by_test_id("outcome")).to_contain_text("Victory!")
        expect(page.get_by_test_id("hp-1")).to_contain_text("0")
        _shoot(page, shots, "3-boss-beaten")

        # The last move's animations play on a fresh load, and none under reduced motion.
        page.reload()
        assert page.evaluate(ANIMATIONS_JS) > 0
        page.emulate_media(reduced_motion="reduce")
        page.reload()
        assert page.evaluate(ANIMATIONS_JS) == 0
        expect(page.get_by_test_id("outcome")).to_contain_text("Victory!")
        assert not player.page_errors, player.page_errors
    except Exception:
        page.screenshot(path=str(shots / "failure.png"), full_page=True)
        raise
    finally:
        player.context.close()
