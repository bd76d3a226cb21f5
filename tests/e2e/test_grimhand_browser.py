"""Grimhand Tactics in a real browser, against the AI, on a real server.

1. A new player takes the "Learn to play" tutorial from the home page: they follow the
   coach through the scripted opening (draw, the Lucky 7, the tutor's attack, the Death
   card saved), then play the match out against the tutor.
2. A player opens a match against the "Normal" (greedy) AI from the lobby and plays it out,
   and the opponent's hand is only ever drawn as card backs.

The AI answers inside the move's request (eager Celery), so each click is followed by an
explicit wait until the board's data-ply has moved on and it is my turn again (or the
match is over). Polling is set to 600 s: every board change comes from a swap of the
POST's answer or from the websocket, never from a reload.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import time
from dataclasses import dataclass, field

import pytest
from players import MATCH_URL, Player, new_player, sign_up
from playwright.sync_api import Browser, Locator, expect

pytestmark = pytest.mark.e2e

PLY_TIMEOUT = 15_000  # ms: my move plus the AI's answer, rendered and swapped in
MAX_MATCHES = 5  # against the Normal AI, see the test (3 failed about once in 1,000 runs)
MAX_TURNS = 400  # a bound, far above any real match: the loop must not run forever
ME = 0  # the creator (and the tutorial's player) sits in seat 0
OPPONENT = 1

DRAW_ATTACK = {"type": "draw", "deck": "attack"}
DRAW_DEFENSE = {"type": "draw", "deck": "defense"}
ATTACK = {"type": "attack"}

# The coach's line at each of my scripted plies (a phrase of it), and the move it asks for
# (games/tutorials/grimhand.py).
COACHED = [
    (0, "Start by drawing from the red Attack deck", DRAW_ATTACK),
    (2, "Now draw from the blue Defense deck", DRAW_DEFENSE),
    (4, "Draw from the Attack deck again", DRAW_ATTACK),
    (6, "Strike back: attack with your 5", ATTACK),
    (8, "Draw from the Attack deck once more", DRAW_ATTACK),
]
LAST_COACH = (10, "That was the Death card!")

# Resolves once the board has moved past `ply` and waits on me again, or the match is over.
READY_JS = """
(ply) => {
  const board = document.getElementById("board");
  if (!board || Number(board.dataset.ply) <= ply) return false;
  if (board.dataset.status === "finished") return true;
  return board.classList.contains("is-my-turn") && !board.classList.contains("htmx-settling");
}
"""

# As READY_JS, or "refused" when the board is still at `ply` with the tutorial coach's word
# that the move was taken back (games.boards.tutorial.LOSING_MOVE).
# `shown` is the board element on the page before the move: a refusal is a new board.
READY_OR_REFUSED_JS = """
([ply, shown]) => {
  const board = document.getElementById("board");
  if (!board) return false;
  if (Number(board.dataset.ply) > ply) {
    const settled = !board.classList.contains("htmx-settling");
    const mine = board.classList.contains("is-my-turn") && settled;
    return (board.dataset.status === "finished" || mine) && "ready";
  }
  return board !== shown && board.querySelector("[data-testid=board-error]") ? "refused" : false;
}
"""

# The hand fans of both sides, counted on one snapshot of the page.
HANDS_JS = """
() => [0, 1].map((seat) => {
  const side = document.querySelector(`[data-testid="side-${seat}"]`);
  if (!side) return null;
  const rows = {};
  for (const kind of ["attack", "defense"]) {
    const row = side.querySelector(`[data-testid="hand-${seat}-${kind}"]`);
    const fan = row && row.querySelector(".gh-fan");
    const count = (selector) => fan.querySelectorAll(selector).length;
    rows[kind] = fan && {
      count: Number(row.dataset.count),
      backs: count(".gh-card.is-back"),
      faceUp: count(".gh-card:not(.is-back)"),
      withValue: count("[data-card]"),
      faces: count(".gh-face:not(.gh-face-back)"),
      values: count(".gh-corner, .gh-value"),
    };
  }
  return { you: !!side.querySelector(".you-tag"), rows };
})
"""


def _move_value(move: dict) -> str:
    """A move as the board's buttons carry it (the `tojson` filter: compact, sorted keys)."""
    return json.dumps(move, separators=(",", ":"), sort_keys=True)


@dataclass
class GrimhandPlayer(Player):
    console_errors: list[str] = field(default_factory=list)

    @property
    def coach(self) -> Locator:
        return self.page.get_by_test_id("coach")

    def status(self) -> str:
        return self.board.get_attribute("data-status")

    def hp(self, seat: int) -> Locator:
        return self.testid(f"hp-{seat}").locator("strong")

    def move_button(self, move: dict) -> Locator:
        return self.board.locator(f"button[name=move][value='{_move_value(move)}']")


def _new_player(browser: Browser, base_url: str, username: str) -> GrimhandPlayer:
    player = new_player(browser, base_url, username, player_class=GrimhandPlayer)
    player.page.on(
        "console",
        lambda message: (
            player.console_errors.append(message.text) if message.type == "error" else None
        ),
    )
    return player


def _on_match_page(player: GrimhandPlayer, status: str | re.Pattern = "active") -> int:
    player.page.wait_for_url(MATCH_URL)
    match_id = int(MATCH_URL.search(player.page.url).group(1))
    expect(player.board).to_have_attribute("data-status", status)
    player.page.evaluate("window.__stayed = true")
    return match_id


def _wait_ready(player: GrimhandPlayer, after_ply: int) -> None:
    """Wait until the board is past `after_ply` and it is my turn, or the match is over."""
    player.page.wait_for_function(READY_JS, arg=after_ply, timeout=PLY_TIMEOUT)
    expect(player.testid("board-error")).to_have_count(0)
    assert player.stayed(), f"the page reloaded by itself (ply {player.ply()})"


def _click_and_wait(player: GrimhandPlayer, button: Locator) -> bool:
    """Make the move; True once the board has moved on, False when the tutorial's coach
    took it back (it would have lost the match: the board stays, with the coach's word)."""
    ply = player.ply()
    expect(player.banner).to_have_text("Your turn!")
    shown = player.board.element_handle()
    button.click()
    answer = player.page.wait_for_function(
        READY_OR_REFUSED_JS, arg=[ply, shown], timeout=PLY_TIMEOUT
    )
    if answer.json_value() == "refused":
        expect(player.testid("board-error")).to_contain_text("The coach took that move back")
        # The browser logs the refused move's 409; what a player reads is the coach's word.
        player.console_errors[:] = [text for text in player.console_errors if "409" not in text]
        print(f"ply {ply}: the coach took {button.get_attribute('data-testid')} back")
        return False
    _wait_ready(player, ply)
    return True


def _fate(player: GrimhandPlayer, kind: str) -> int:
    meter = player.testid(f"zone-{kind}").locator(".gh-fate[role=meter]")
    return int(meter.get_attribute("aria-valuenow"))


def _choose_move(player: GrimhandPlayer, refused: frozenset[str] = frozenset()) -> Locator:
    """Attack when I can; otherwise draw from the deck with the lower fate (the Attack deck
    on a tie); pass only if nothing else is possible. Never a move the tutorial's coach
    has just taken back (`refused`: their test ids)."""
    attack = player.testid("move-attack")
    if attack.count() and attack.is_enabled() and "move-attack" not in refused:
        return attack
    drawable = [
        kind
        for kind in ("attack", "defense")
        if player.testid(f"draw-{kind}").count() and f"draw-{kind}" not in refused
    ]
    if drawable:
        kind = min(drawable, key=lambda kind: (_fate(player, kind), kind != "attack"))
        return player.testid(f"draw-{kind}")
    passing = player.testid("move-pass")
    assert passing.count(), f"my turn at ply {player.ply()}, but no move is offered"
    return passing


def _assert_opponent_hand_hidden(player: GrimhandPlayer) -> int:
    """The opponent's hand fans hold card backs only, one per card they hold, while my own
    fans show my cards face up (so the same selectors do find faces when there are any).
    Returns how many cards the opponent holds."""
    sides = player.page.evaluate(HANDS_JS)  # one snapshot of the board, seat by seat
    mine, theirs = sides[ME], sides[OPPONENT]
    assert mine and mine["you"], f"my side is not seat {ME}: {sides}"
    assert theirs and not theirs["you"], f"no opponent's side in seat {OPPONENT}: {sides}"
    held = 0
    for kind in ("attack", "defense"):
        row = mine["rows"][kind]
        assert row and row["faceUp"] == row["withValue"] == row["count"], (kind, row)
        assert row["backs"] == 0, (kind, row)
        row = theirs["rows"][kind]
        assert row, f"no {kind} hand for the opponent: {theirs}"
        assert row["faceUp"] == 0, f"{kind}: a face-up card in the opponent's hand: {row}"
        assert row["withValue"] == 0, f"{kind}: a card with a value in their hand: {row}"
        assert row["faces"] == 0, f"{kind}: a card face in the opponent's hand: {row}"
        assert row["values"] == 0, f"{kind}: a card value in the opponent's hand: {row}"
        assert row["backs"] == row["count"], f"{kind}: one back per card held: {row}"
        held += row["count"]
    return held


def _play_to_the_end(player: GrimhandPlayer, on_my_turn=None) -> int:
    """Play my turns until the match is over; returns how many moves I made."""
    _wait_ready(player, -1)
    moves = 0
    while player.status() != "finished":
        assert moves < MAX_TURNS, f"the match is still running after {moves} of my moves"
        if on_my_turn is not None:
            on_my_turn(player)
        refused: frozenset[str] = frozenset()
        while not _click_and_wait(player, move := _choose_move(player, refused)):
            refused |= {move.get_attribute("data-testid") or ""}  # the tutor's: try another
            assert len(refused) <= 3, f"every move taken back at ply {player.ply()}: {refused}"
        moves += 1
    return moves


def _assert_finished_fairly(player: GrimhandPlayer) -> None:
    expect(player.board).to_have_attribute("data-status", "finished")
    expect(player.banner).to_have_text(re.compile(r"^\s*You (won|lost)\b"))
    expect(player.testid("outcome")).to_be_visible()
    expect(player.testid("move-attack")).to_have_count(0)
    expect(player.board.locator("button[name=move]")).to_have_count(0)
    expect(player.testid("seed")).to_be_visible()
    seed = player.testid("seed").inner_text().strip()
    commitment = player.testid("commitment").inner_text().split()[-1]
    assert re.fullmatch(r"[0-9a-f]{64}", seed), seed
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commitment
    assert player.stayed(), "the page reloaded by itself during the match"
    assert not player.page_errors, player.page_errors
    assert not player.console_errors, player.console_errors


def _on_failure(player: GrimhandPlayer, e2e_server, tmp_path_factory) -> None:
    shots = tmp_path_factory.mktemp("e2e-screenshots")
    try:
        player.page.screenshot(path=str(shots / f"{player.username}.png"), full_page=True)
        print(f"Screenshot: {shots / f'{player.username}.png'}")
    except Exception as error:  # the page may be gone; keep the original failure
        print(f"no screenshot of {player.username}: {error}")
    print(f"JavaScript errors: {player.page_errors} console: {player.console_errors}")
    print(f"Server log (tail):\n{e2e_server.log_tail()}")


def _follow_the_coach(player: GrimhandPlayer) -> None:
    """The scripted opening, one coached move at a time, and what each one shows."""
    page = player.page
    for ply, phrase, move in COACHED:
        expect(player.board).to_have_attribute("data-ply", str(ply))
        expect(player.coach).to_contain_text(phrase)
        coach_text = player.coach.inner_text()
        # The coached move is highlighted (is-coached) on boards that mark it; otherwise it
        # is the button carrying the move the coach names.
        highlighted = player.board.locator("button.is-coached")
        button = highlighted if highlighted.count() else player.move_button(move)
        expect(button).to_have_count(1)
        expect(button).to_have_attribute("value", _move_value(move))
        assert _click_and_wait(player, button), f"the coach took its own move back at {ply}"
        expect(player.board).to_have_attribute("data-ply", str(ply + 2))
        expect(player.board).to_have_attribute("data-status", "active")
        expect(player.coach).not_to_have_text(coach_text)

        if ply == 0:  # my 5 joins my attack hand; the tutor drew a hidden defense card
            expect(player.testid(f"hand-{ME}-attack").locator("[data-card]")).to_have_count(1)
            expect(
                player.testid(f"hand-{ME}-attack").locator("[data-card=attack-5]")
            ).to_be_visible()
            expect(player.testid(f"hand-{OPPONENT}-defense")).to_have_attribute("data-count", "1")
        elif ply == 2:  # my 4 guards me; the tutor drew an attack card
            expect(
                player.testid(f"hand-{ME}-defense").locator("[data-card=defense-4]")
            ).to_be_visible()
            expect(player.testid(f"hand-{OPPONENT}-attack")).to_have_attribute("data-count", "1")
        elif ply == 4:  # the third draw: a 7 in the Lucky slot; then the tutor's 8 hits my 4
            expect(player.testid(f"lucky-{ME}")).to_have_class(re.compile(r"\bis-filled\b"))
            expect(player.testid("protected")).to_have_count(2)  # under both fate meters
            expect(player.hp(ME)).to_have_text("46")
            expect(player.hp(OPPONENT)).to_have_text("50")
            expect(player.testid(f"hand-{ME}-defense")).to_have_attribute("data-count", "0")
            expect(page.locator(".log-list li.log-lucky_slotted")).to_have_count(1)
            expect(player.coach).to_contain_text("A Lucky 7!")
        elif ply == 6:  # my 5 against their 2: 3 damage
            expect(player.hp(OPPONENT)).to_have_text("47")
            expect(player.hp(ME)).to_have_text("46")
            expect(player.testid(f"hand-{ME}-attack")).to_have_attribute("data-count", "0")
            expect(player.coach).to_contain_text("Good hit")
        elif ply == 8:  # the fifth move: the Death card, and the Lucky 7 saves me
            expect(page.locator(".log-list li.log-death_card")).to_have_count(1)
            expect(page.locator(".log-list li.log-lucky_saved")).to_contain_text("cheats death")
            expect(page.locator(".log-list li.log-death")).to_have_count(0)
            expect(player.testid(f"lucky-{ME}")).not_to_have_class(re.compile(r"\bis-filled\b"))
            expect(player.hp(ME)).to_have_text("46")
            expect(player.banner).to_have_text("Your turn!")

    ply, phrase = LAST_COACH
    expect(player.board).to_have_attribute("data-ply", str(ply))
    expect(player.coach).to_contain_text(phrase)


def _coach_lets_go(player: GrimhandPlayer) -> None:
    """Past its last scripted line, the coach only wishes luck."""
    if player.ply() > LAST_COACH[0]:
        expect(player.coach).to_contain_text("You're on your own now")


def test_tutorial_then_play_out_against_the_tutor(
    chromium_browser: Browser, e2e_server, live_server_url: str, tmp_path_factory
) -> None:
    started = time.monotonic()
    player = _new_player(chromium_browser, live_server_url, f"novice_{secrets.token_hex(3)}")
    try:
        sign_up(player)
        player.page.goto("/")
        player.testid("tutorial-grimhand").click()
        _on_match_page(player)
        expect(player.board).to_have_attribute("data-ply", "0")
        expect(player.testid(f"side-{ME}").locator(".you-tag")).to_have_count(1)
        expect(player.testid("seed")).to_have_count(0)
        commitment = player.testid("commitment").inner_text().split()[-1]

        _follow_the_coach(player)

        moves = _play_to_the_end(player, on_my_turn=_coach_lets_go)
        _assert_finished_fairly(player)
        expect(player.coach).to_have_count(0)  # no coaching on a finished match
        assert player.testid("commitment").inner_text().split()[-1] == commitment
        print(
            f"tutorial: {len(COACHED)} coached + {moves} free moves, {player.ply()} plies, "
            f"{player.banner.inner_text().strip()!r}, {time.monotonic() - started:.1f} s"
        )
    except BaseException:
        _on_failure(player, e2e_server, tmp_path_factory)
        raise
    finally:
        player.context.close()


def _create_ai_match(player: GrimhandPlayer) -> int:
    page = player.page
    page.goto("/play/")
    page.locator("select[name=game]").select_option("grimhand")
    page.locator("input[name=opponent][value=ai]").check()
    level = page.locator("select[name=ai_level]")
    expect(level).to_be_visible()
    level.select_option(label="Normal")
    expect(level).to_have_value("normal")
    page.get_by_test_id("create-match").click()
    # The AI may move first, and its very first card may be the Death card.
    return _on_match_page(player, re.compile(r"^(active|finished)$"))


def test_lobby_match_against_normal_ai_hides_its_hand(
    chromium_browser: Browser, e2e_server, live_server_url: str, tmp_path_factory
) -> None:
    started = time.monotonic()
    player = _new_player(chromium_browser, live_server_url, f"gambler_{secrets.token_hex(3)}")
    try:
        sign_up(player)
        # A Death card can end a match before the AI ever holds a card (about one match in
        # ten), which would leave nothing to hide: such a match is checked all the same,
        # and another one is dealt, up to MAX_MATCHES.
        held: list[int] = []  # how many cards the AI held, at each check of this match

        def check_hidden(player: GrimhandPlayer) -> None:
            held.append(_assert_opponent_hand_hidden(player))

        for _ in range(MAX_MATCHES):
            held.clear()
            match_id = _create_ai_match(player)
            expect(player.testid(f"side-{ME}").locator(".you-tag")).to_have_count(1)
            expect(player.testid(f"side-{OPPONENT}")).to_contain_text("AI")
            expect(player.coach).to_have_count(0)
            if player.status() == "active":
                expect(player.testid("seed")).to_have_count(0)

            moves = _play_to_the_end(player, on_my_turn=check_hidden)
            check_hidden(player)
            _assert_finished_fairly(player)
            print(
                f"vs Normal AI, match {match_id}: {moves} moves, {player.ply()} plies, "
                f"the AI held up to {max(held)} cards, "
                f"{player.banner.inner_text().strip()!r}, {time.monotonic() - started:.1f} s"
            )
            if moves and max(held):
                break
        assert max(held) > 0, f"in {MAX_MATCHES} matches the AI never held a card to hide"
    except BaseException:
        _on_failure(player, e2e_server, tmp_path_factory)
        raise
    finally:
        player.context.close()


ANSWER_DELAY = 0.4  # s: how long each move's answer is held back in the test below


def test_a_moves_answer_that_comes_after_its_pushes_neither_rolls_back_nor_errs(
    chromium_browser: Browser, e2e_server, live_server_url: str, tmp_path_factory
) -> None:
    """Every move's answer is held back until the pushes of the move (and of the AI's
    reply) have replaced the board: the answer is then aimed at a board no longer on the
    page. It must not roll the board back, and the finished board's answer, which carries
    the header's level bar out of band, must not make htmx log an error (it did: htmx
    looked for the bar inside the replaced board)."""
    player = _new_player(chromium_browser, live_server_url, f"late_{secrets.token_hex(3)}")
    try:
        sign_up(player)

        def late_answer(route) -> None:
            response = route.fetch()
            time.sleep(ANSWER_DELAY)  # meanwhile the browser gets the pushes and swaps them
            route.fulfill(response=response)

        player.page.route("**/move/", late_answer)
        _create_ai_match(player)
        moves = _play_to_the_end(player)
        player.page.wait_for_timeout(ANSWER_DELAY * 1000 + 500)  # the last answer lands
        _assert_finished_fairly(player)  # no console error among its checks
        expect(player.testid("header-level-number")).to_be_visible()
        print(f"late answers: {moves} moves, {player.ply()} plies")
    except BaseException:
        _on_failure(player, e2e_server, tmp_path_factory)
        raise
    finally:
        player.context.close()
