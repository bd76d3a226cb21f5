"""Grimhand Arcana in a real browser, on a real server: a new player builds a deck, learns
with the tutorial, then beats their first boss on the PvE path (/arcana/path/).

1. On /arcana/decks/ the player builds a named deck from the starter cards they own (the
   builder's live check says the deck is legal) and sees it listed.
2. From the Grimhand rules page they start the Arcana tutorial (a fixed deal against the
   Bone Warden) and follow the coach: their first ability card (Piercing Strike, which
   Exposes the boss), a draw from the arcana deck, Blood Pact, and the attack that beats
   the boss. Along the way: energy pips, status badges with their turns, tooltips on tap
   or hover, the opponent's ability hand as backs only, and no horizontal scrolling on a
   phone. Screenshots at 1280x800 and 390x844 go to a temporary folder (printed).

3. On /arcana/path/ (the Raider and the Warden marked cleared in the server's database
   through `manage.py shell`, so the first boss is open) they pick the deck they built and
   fight the Bone Warden, a real match: the house's boss policy, a fresh seed. To win it
   for sure, the test reads the fight's seed from the server's database and plays the
   match out here first, on the engine, with the oracle (Hard's search on the true state:
   a test may peek) in my seat and the boss's own level answering from the server's own
   chance (`ai/<seat>/<ply>`). The oracle tries each deal with a few of its own chance
   streams (one wins about 65% of deals, one of three about 88%); a fight none of them
   wins is resigned and fought again; a won one is then clicked move by move. The path
   page then shows the stage cleared and its reward.

The AI answers inside the move's request (eager Celery); each click waits until the
board's data-ply has moved on and it is my turn again (or the match is over).
"""

from __future__ import annotations

import json
import re
import secrets

import pytest
from players import MATCH_URL, new_player, sign_up
from playwright.sync_api import Browser, expect

from games.ai import levels
from games.ai.oracle import Revealed
from games.engine import registry
from games.engine.core import Chance

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
  if (board.dataset.status === "finished") return true;
  return board.classList.contains("is-my-turn") && !board.classList.contains("htmx-settling");
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


GAME = registry.get("grimhand")
FIGHTS = 6  # fights started at most: a deal no oracle line wins is resigned first
ORACLE_TRIES = 3  # the oracle's own chance streams tried on each deal
CLEAR_FIRST_STAGES = """
from django.contrib.auth import get_user_model
from django.utils import timezone
from arcana.models import PathStageRecord
user = get_user_model().objects.get(username=%r)
for stage in ("raider", "warden"):
    PathStageRecord.objects.update_or_create(
        user=user, stage=stage, defaults={"wins": 1, "cleared": timezone.now()})
"""
FIGHT_DEAL = """
import json
from games.models import Match
match = Match.objects.get(pk=%d)
moves = [[m.seat, m.payload] for m in match.moves.order_by("ply")]
print("DEAL " + json.dumps({"seed": bytes(match.seed).hex(), "options": match.options,
                            "moves": moves, "level": match.seats.get(index=1).ai_level}))
"""


def _fight_deal(server, match_id: int) -> dict:
    """The fight's seed, options, logged moves and house level, from the server's database."""
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", FIGHT_DEAL % match_id],
        env=server.env,
        capture_output=True,
        text=True,
        check=True,
    )
    line = next(line for line in result.stdout.splitlines() if line.startswith("DEAL "))
    return json.loads(line[5:])


def _won_line(deal: dict) -> list[dict] | None:
    """My moves (seat 0) of the whole fight from the first of the oracle's chance streams
    that wins it against the house's level answering as the server would (None: the
    oracle would lose with each). One stream alone lost 35% of 40 fresh deals; with CI's
    six fights that failed the test about once in 500 runs, and it did."""
    for attempt in range(ORACLE_TRIES):
        line = _oracle_line(deal, attempt)
        if line is not None:
            return line
    return None


def _oracle_line(deal: dict, attempt: int) -> list[dict] | None:
    """My moves of the whole fight if the oracle, on its chance stream `attempt`, wins it."""
    seed = bytes.fromhex(deal["seed"])
    state = GAME.new(2, seed, deal["options"])
    for seat, move in deal["moves"]:
        state, _events = GAME.apply(state, seat, move)
    oracle, house = levels.ORACLE.bot("grimhand"), levels.get(deal["level"]).bot("grimhand")
    mine = []
    while GAME.outcome(state) is None and state.ply < 400:
        seat = GAME.to_act(state)[0]
        view, legal = GAME.view(state, seat), GAME.legal_moves(state, seat)
        if seat == 0:
            chance = Chance(seed, f"test/oracle/{attempt}/{state.ply}")
            move = oracle.choose(GAME, view, legal, chance, truth=Revealed(state, seat))
            mine.append(move)
        else:
            move = house.choose(GAME, view, legal, Chance(seed, f"ai/1/{state.ply}"))
        state, _events = GAME.apply(state, seat, move)
    outcome = GAME.outcome(state)
    return mine if outcome is not None and outcome.winners == (0,) else None


def _testid(move: dict) -> str:
    """The board button of one of my moves (the Defensive cards need no target)."""
    if move["type"] == "play":
        return f"play-{move['card']}"
    if move["type"] == "draw":
        return f"draw-{move['deck']}"
    assert move["type"] == "attack", move
    return "move-attack"


def test_build_a_deck_then_beat_the_first_boss(
    chromium_browser: Browser, e2e_server, live_server_url, tmp_path_factory
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
        page.emulate_media(reduced_motion="no-preference")

        # 3. The first boss on the PvE path, a real match, with the deck I built.
        e2e_server.manage("shell", "-c", CLEAR_FIRST_STAGES % player.username)
        page.on("dialog", lambda dialog: dialog.accept())  # the resign confirmation
        for _fight in range(FIGHTS):
            page.goto("/arcana/path/")
            stage = page.get_by_test_id("stage-bone_warden")
            expect(stage).to_have_attribute("data-state", "open")
            page.get_by_test_id("path-deck").select_option(label="Bone breaker")
            page.get_by_test_id("fight-bone_warden").click()
            page.wait_for_url(MATCH_URL)
            expect(page.get_by_test_id("boss")).to_contain_text("The Bone Warden")
            expect(board).to_have_class(re.compile("is-my-turn"))  # the boss moved first?
            match_id = int(MATCH_URL.search(page.url).group(1))
            line = _won_line(_fight_deal(e2e_server, match_id))
            if line is not None:
                break
            page.get_by_test_id("resign").click()
            expect(board).to_have_attribute("data-status", "finished")
        else:
            pytest.fail(f"the oracle would lose {FIGHTS} fights of the Bone Warden in a row")
        for move in line:  # two copies of a card in hand: two buttons, either plays it
            ply = _ply(page)
            page.get_by_test_id(_testid(move)).first.click()
            _wait_ready(page, ply)
        expect(board).to_have_attribute("data-status", "finished")
        expect(page.get_by_test_id("outcome")).to_contain_text("Victory!")
        _shoot(page, shots, "4-path-boss-beaten")
        page.goto("/arcana/path/")
        expect(page.get_by_test_id("stage-bone_warden")).to_have_attribute("data-state", "cleared")
        assert not player.page_errors, player.page_errors
    except Exception:
        page.screenshot(path=str(shots / "failure.png"), full_page=True)
        raise
    finally:
        player.context.close()
