"""Haymaker, rule by rule, from fixed deals (decisions in docs/rules/haymaker.md)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

import pytest

from games.engine import registry
from games.engine.core import Chance, IllegalMove, InvalidOptions
from games.engine.haymaker.cards import NAMES, RANK
from games.engine.haymaker.rules import key_blocks
from games.engine.haymaker.state import HaymakerState

GAME = registry.get("haymaker")
SEED = bytes.fromhex("4a7b" * 16)
TAKE_HIT = {"type": "take_hit"}
PASS = {"type": "pass"}


def seed_for(index: int) -> bytes:
    return hashlib.sha256(f"haymaker-rules:{index}".encode()).digest()


def position(
    hand0: Sequence[str],
    hand1: Sequence[str],
    deck: Sequence[str] = (),
    first: int = 0,
    **options: Any,
) -> HaymakerState:
    """A fixed deal: these hands and draw pile; every other card is burned."""
    used = set(hand0) | set(hand1) | set(deck)
    burned = [name for name in NAMES if name not in used]
    deal = {
        "hands": [list(hand0), list(hand1)],
        "deck": list(deck),
        "burned": burned,
        "first": first,
    }
    return GAME.new(2, SEED, {"deal": deal, **options})


def play(state: HaymakerState, *moves: dict[str, Any]) -> tuple[HaymakerState, list[Any]]:
    """Each move by the seat to act; the events of the last one."""
    events: list[Any] = []
    for move in moves:
        (seat,) = GAME.to_act(state)
        state, events = GAME.apply(state, seat, move)
    return state, events


def attack(card: str) -> dict[str, Any]:
    return {"type": "attack", "cards": [card]}


def haymaker(*cards: str) -> dict[str, Any]:
    return {"type": "haymaker", "cards": list(cards)}


def block(*cards: str) -> dict[str, Any]:
    return {"type": "block", "cards": list(cards)}


def types(events: list[Any]) -> list[str]:
    return [event.type for event in events]


def hand(state: HaymakerState, seat: int) -> list[str]:
    return GAME.view(state, seat)["hand"]


def discard(state: HaymakerState, seat: int) -> list[str]:
    return GAME.view(state, None)["players"][seat]["discard"]


def outcome_of(state: HaymakerState) -> tuple[tuple[int, ...], str, Any]:
    outcome = GAME.outcome(state)
    assert outcome is not None
    return outcome.winners, outcome.reason, outcome.scores


# --- the deal --------------------------------------------------------------------------


@pytest.mark.parametrize("index", range(10))
def test_a_dealt_match_has_ten_cards_each_four_burned_and_sixteen_to_draw(index: int) -> None:
    state = GAME.new(2, seed_for(index))
    assert [len(cards) for cards in state.hands] == [10, 10]
    assert (len(state.burned), len(state.deck)) == (4, 16)
    everything = state.hands[0] + state.hands[1] + state.burned + state.deck
    assert sorted(everything) == list(range(40))
    assert GAME.to_act(state) == (state.attacker,)
    assert GAME.view(state, None)["step"] == "attack"


def test_the_deck_is_a_to_10_in_four_suits_with_ace_one() -> None:
    assert len(NAMES) == 40 and len(set(NAMES)) == 40
    assert NAMES[:10] == ("AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C")
    assert [name[-1] for name in NAMES[::10]] == ["C", "D", "H", "S"]
    assert sorted(RANK) == sorted(list(range(1, 11)) * 4)
    assert RANK[NAMES.index("AS")] == 1 and RANK[NAMES.index("10D")] == 10


def test_the_first_attacker_and_the_deal_come_from_the_seed() -> None:
    firsts = [GAME.to_act(GAME.new(2, seed_for(index))) for index in range(64)]
    assert set(firsts) == {(0,), (1,)}
    assert GAME.new(2, SEED) == GAME.new(2, SEED)
    assert GAME.new(2, SEED).hands != GAME.new(2, seed_for(0)).hands


def test_a_fixed_deck_is_dealt_ten_ten_four_and_sixteen() -> None:
    deck = list(reversed(NAMES))
    state = GAME.new(2, SEED, {"deal": {"deck": deck, "first": 1}})
    assert hand(state, 0) == sorted(deck[:10], key=NAMES.index)
    assert hand(state, 1) == sorted(deck[10:20], key=NAMES.index)
    assert [NAMES[card] for card in state.burned] == deck[20:24]
    assert [NAMES[card] for card in state.deck] == deck[24:]
    assert GAME.to_act(state) == (1,)
    # The same deal from any seed is the same position (only future hits depend on the seed).
    assert GAME.new(2, seed_for(1), {"deal": {"deck": deck, "first": 1}}).hands == state.hands


# --- attacks ---------------------------------------------------------------------------


def test_a_normal_attack_is_one_card_of_its_face_value() -> None:
    state = position(["AC", "7H"], ["5D"])
    state, events = play(state, attack("AC"))
    assert [event.to_json() for event in events] == [
        {"type": "attack", "seat": 0, "cards": ["AC"], "strength": 1}
    ]
    view = GAME.view(state, 1)
    assert view["attack"] == {"cards": ["AC"], "strength": 1, "is_haymaker": False, "seat": 0}
    assert view["block_needed"] == 1 and view["step"] == "defend"
    assert GAME.view(state, 0)["block_needed"] is None
    assert GAME.to_act(state) == (1,)
    assert hand(state, 0) == ["7H"]


def test_a_haymaker_is_any_number_of_cards_of_one_suit() -> None:
    state = position(["AH", "2H", "3H", "9H", "10H", "5C"], ["5D"])
    state, events = play(state, haymaker("10H", "AH", "2H", "3H", "9H"))
    assert events[0].to_json() == {
        "type": "haymaker",
        "seat": 0,
        "cards": ["AH", "2H", "3H", "9H", "10H"],
        "strength": 25,
    }
    assert GAME.view(state, None)["attack"]["is_haymaker"] is True
    assert hand(state, 0) == ["5C"]


# --- blocks and reversals --------------------------------------------------------------


def test_a_block_above_the_attack_keeps_the_attacker_attacking() -> None:
    state = position(["4C", "9S"], ["2D", "3D", "8D"], deck=["AH", "AS"])
    state, events = play(state, attack("4C"), block("2D", "3D"))
    assert types(events) == ["block", "discarded"]
    assert events[0].to_json()["strength"] == 5
    # All the played cards go to the attacker's pile; nobody draws; the roles stay.
    assert discard(state, 0) == ["4C", "2D", "3D"] and discard(state, 1) == []
    assert hand(state, 0) == ["9S"] and hand(state, 1) == ["8D"]
    assert GAME.to_act(state) == (0,) and state.attacker == 0
    assert GAME.view(state, 0)["can_pass"] is True
    assert GAME.view(state, None)["deck_count"] == 2


def test_a_block_equal_to_the_attack_is_a_reversal() -> None:
    state = position(["7C", "9S"], ["3D", "4D", "8D"], deck=["AH", "AS", "2S"])
    state, events = play(state, attack("7C"), block("3D", "4D"))
    assert types(events) == [
        "block",
        "reversal",
        "discarded",
        "card_drawn",
        "drew",
        "card_drawn",
        "drew",
        "roles_switched",
    ]
    assert events[1].to_json() == {"type": "reversal", "seat": 1, "reasons": ["equal"]}
    # The defender adds the played cards to their pile, both draw (attacker first), roles switch.
    assert discard(state, 1) == ["7C", "3D", "4D"] and discard(state, 0) == []
    assert hand(state, 0) == ["AH", "9S"] and hand(state, 1) == ["8D", "AS"]
    assert GAME.to_act(state) == (1,) and state.attacker == 1
    assert GAME.view(state, 1)["can_pass"] is False  # the new attacker did not attack last turn
    assert not GAME.is_legal(state, 1, PASS)
    assert state.deck == (NAMES.index("2S"),)


def test_any_block_against_a_haymaker_is_a_reversal() -> None:
    state = position(["2H", "3H", "9S"], ["10D", "AC"])
    state, events = play(state, haymaker("2H", "3H"), block("10D"))  # 10 > 5: still reversal
    assert events[1].to_json() == {"type": "reversal", "seat": 1, "reasons": ["haymaker"]}
    assert discard(state, 1) == ["2H", "3H", "10D"]
    assert state.attacker == 1


def test_a_block_when_the_attacker_has_no_cards_left_is_a_reversal() -> None:
    state = position(["4C"], ["9D", "AC"])
    state, events = play(state, attack("4C"), block("9D"))
    assert events[1].to_json()["reasons"] == ["attacker_empty"]
    assert discard(state, 1) == ["4C", "9D"]
    assert state.attacker == 1 and GAME.outcome(state) is None


def test_a_reversal_can_hold_every_reason_at_once() -> None:
    state = position(["2H", "3H"], ["5D", "AC"])
    state, events = play(state, haymaker("2H", "3H"), block("5D"))
    assert events[1].to_json()["reasons"] == ["equal", "haymaker", "attacker_empty"]


def test_a_reversal_with_an_empty_draw_pile_switches_roles_without_drawing() -> None:
    state = position(["7C", "9S"], ["7D", "8D"])
    state, events = play(state, attack("7C"), block("7D"))
    assert "card_drawn" not in types(events)
    assert state.attacker == 1 and hand(state, 0) == ["9S"] and hand(state, 1) == ["8D"]


# --- taking the hit --------------------------------------------------------------------


def expected_hit(state: HaymakerState, count: int) -> list[str]:
    """The cards the chance source takes from the defender's hand at this ply."""
    chance = Chance(SEED, f"haymaker/hit/{state.ply}")
    pool = list(state.hands[1 - state.attacker])
    return sorted(
        (NAMES[pool.pop(chance.randbelow(len(pool)))] for _ in range(count)), key=NAMES.index
    )


def test_taking_a_normal_hit_gives_one_random_card_to_the_attacker() -> None:
    state = position(["9C", "2S"], ["AD", "3D", "5H", "8S"])
    state, _events = play(state, attack("9C"))
    (taken,) = expected_hit(state, 1)
    state, events = play(state, TAKE_HIT)
    assert [event.to_json() for event in events] == [
        {"type": "hit", "seat": 1, "attacker": 0, "count": 1},
        {"type": "cards_taken", "from": 1, "to": 0, "cards": [taken]},
        {"type": "discarded", "seat": 0, "cards": ["9C"], "count": 1},
    ]
    assert taken in hand(state, 0) and taken not in hand(state, 1)
    assert len(hand(state, 1)) == 3
    # The attacker keeps attacking and may now pass; the attack goes to their pile.
    assert state.attacker == 0 and GAME.view(state, 0)["can_pass"] is True
    assert discard(state, 0) == ["9C"]


def test_taking_a_haymaker_gives_two_random_cards() -> None:
    state = position(["9C", "8C", "2S"], ["AD", "3D", "5H", "8S"])
    state, _events = play(state, haymaker("9C", "8C"))
    taken = expected_hit(state, 2)
    state, events = play(state, TAKE_HIT)
    assert events[0].to_json()["count"] == 2
    assert events[1].to_json()["cards"] == taken
    assert set(taken) <= set(hand(state, 0)) and len(hand(state, 1)) == 2


def test_only_the_two_players_learn_which_card_a_hit_took() -> None:
    state = position(["9C", "2S"], ["AD", "3D", "5H", "8S"])
    state, events = play(state, attack("9C"), TAKE_HIT)
    (taken,) = events[1].data["cards"]
    assert events[1].visible_to == (0, 1)
    public = [event for event in events if event.is_visible_to(None)]
    assert taken not in str([event.to_json() for event in public])
    assert taken not in str(GAME.view(state, None))
    for seat in (0, 1):
        assert GAME.view(state, seat)["last_turn"]["taken"] == [taken]
        assert GAME.view(state, seat)["players"][0]["revealed"] == [taken]
    assert "taken" not in GAME.view(state, None)["last_turn"]
    assert GAME.view(state, None)["last_turn"]["taken_count"] == 1


def test_the_hit_depends_on_the_seed() -> None:
    taken = set()
    for index in range(32):
        state = GAME.new(2, seed_for(index), position_options(first=0))
        state, events = play(state, attack("9C"), TAKE_HIT)
        taken.add(events[1].data["cards"][0])
    assert len(taken) > 2


def position_options(first: int) -> dict[str, Any]:
    hands = [["9C", "2S"], ["AD", "3D", "5H", "8S"]]
    burned = [name for name in NAMES if name not in hands[0] + hands[1]]
    return {"deal": {"hands": hands, "burned": burned, "deck": [], "first": first}}


# --- passing ---------------------------------------------------------------------------


def test_a_pass_after_attacking_draws_for_both_and_switches_roles() -> None:
    state = position(["9C", "2S"], ["AD", "8S"], deck=["5H", "6H", "7H"])
    state, _events = play(state, attack("9C"), TAKE_HIT)
    assert GAME.is_legal(state, 0, PASS)
    state, events = play(state, PASS)
    assert types(events) == ["pass", "card_drawn", "drew", "card_drawn", "drew", "roles_switched"]
    assert [event.data["card"] for event in events if event.type == "drew"] == ["5H", "6H"]
    assert [event.visible_to for event in events if event.type == "drew"] == [(0,), (1,)]
    assert "5H" in hand(state, 0) and "6H" in hand(state, 1)
    assert state.attacker == 1 and GAME.to_act(state) == (1,)
    assert not GAME.is_legal(state, 1, PASS)  # the new attacker did not attack last turn


def test_a_pass_with_an_empty_draw_pile_only_switches_roles() -> None:
    state = position(["9C", "2S"], ["AD", "8S"])
    state, _events = play(state, attack("9C"), TAKE_HIT)
    state, events = play(state, PASS)
    assert types(events) == ["pass", "roles_switched"]
    assert state.attacker == 1


def test_the_pass_is_allowed_after_a_block_without_reversal() -> None:
    state = position(["4C", "9S"], ["8D", "3D"])
    state, _events = play(state, attack("4C"), block("8D"))
    assert GAME.is_legal(state, 0, PASS)
    assert {"type": "pass"} in GAME.legal_moves(state, 0)


# --- endings ---------------------------------------------------------------------------


def test_knockout_when_the_defender_cannot_pay_for_a_haymaker() -> None:
    state = position(["9C", "8C", "2S"], ["AD"])
    state, events = play(state, haymaker("9C", "8C"))
    assert [block["type"] for block in GAME.legal_moves(state, 1)] == ["take_hit"]
    state, events = play(state, TAKE_HIT)
    assert types(events) == ["hit", "knockout"]
    assert events[1].to_json() == {"type": "knockout", "winner": 0, "loser": 1, "cards_left": 1}
    assert outcome_of(state) == ((0,), "knockout", None)
    assert GAME.to_act(state) == () and GAME.view(state, 1)["step"] == "over"
    assert hand(state, 1) == ["AD"]  # no card changes hands in a knockout


def test_a_defender_with_an_empty_hand_is_knocked_out_by_any_attack() -> None:
    state = position(["9C", "2S"], ["AD"])
    state, _events = play(state, attack("9C"), TAKE_HIT)  # the defender gives their last card
    assert GAME.outcome(state) is None and hand(state, 1) == []
    state, events = play(state, attack("2S"))  # no move is needed from the defender
    assert types(events) == ["attack", "hit", "knockout"]
    assert outcome_of(state) == ((0,), "knockout", None)


def test_a_defender_with_one_card_may_still_block_a_haymaker() -> None:
    state = position(["2C", "3C", "9S"], ["10D"], deck=["AH", "AS"])
    state, _events = play(state, haymaker("2C", "3C"))
    assert GAME.is_legal(state, 1, block("10D"))
    state, events = play(state, block("10D"))
    assert "reversal" in types(events) and GAME.outcome(state) is None
    assert hand(state, 1) == ["AS"] and GAME.to_act(state) == (1,)


def test_technical_knockout_when_the_attacker_has_no_cards_and_cannot_pass() -> None:
    # Seat 1 reverses with its last card and nothing is left to draw: it must attack with
    # an empty hand and cannot pass (it did not attack last turn), so seat 0 wins.
    state = position(["4C", "9S"], ["4D"])
    state, events = play(state, attack("4C"), block("4D"))
    assert types(events)[-1] == "technical_knockout"
    assert events[-1].to_json() == {"type": "technical_knockout", "winner": 0, "loser": 1}
    assert outcome_of(state) == ((0,), "technical_knockout", None)


def test_technical_knockout_after_a_pass_to_an_empty_handed_defender() -> None:
    state = position(["9C", "2S"], ["AD"])
    state, _events = play(state, attack("9C"), TAKE_HIT)
    state, events = play(state, PASS)  # seat 1 must now attack with nothing
    assert types(events) == ["pass", "roles_switched", "technical_knockout"]
    assert outcome_of(state) == ((0,), "technical_knockout", None)


def test_decision_when_both_hands_are_empty_goes_to_the_bigger_discard_pile() -> None:
    # Seat 0 attacks with its last card; seat 1 reverses with its last two: both are empty.
    state = position(["4C"], ["AD", "3D"])
    state, events = play(state, attack("4C"), block("AD", "3D"))
    assert types(events)[-1] == "decision"
    assert events[-1].to_json() == {"type": "decision", "discards": [0, 3], "winners": [1]}
    assert outcome_of(state) == ((1,), "decision", (0, 3))
    assert GAME.outcome(state).ranking == ((1,), (0,))  # type: ignore[union-attr]


def test_a_decision_with_equal_discard_piles_is_a_draw() -> None:
    # Seat 1 blocks above the attack (seat 0's pile: AC 2D), then reverses seat 0's last
    # card with its own last card (seat 1's pile: 5C 5D): both hands are empty at 2-2.
    state = position(["AC", "5C"], ["2D", "5D"])
    state, events = play(state, attack("AC"), block("2D"), attack("5C"), block("5D"))
    assert events[-1].to_json() == {"type": "decision", "discards": [2, 2], "winners": []}
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.is_draw
    assert (outcome.reason, outcome.scores, outcome.ranking) == ("draw", (2, 2), ((0, 1),))


def test_no_move_is_legal_after_the_end() -> None:
    state = position(["9C", "8C", "2S"], ["AD"])
    state, _events = play(state, haymaker("9C", "8C"), TAKE_HIT)
    for seat in (0, 1):
        assert GAME.legal_moves(state, seat) == []
        with pytest.raises(IllegalMove, match="The match is over."):
            GAME.apply(state, seat, attack("2S"))


# --- the discard-pile option -----------------------------------------------------------


def test_with_own_discards_each_player_keeps_their_played_cards() -> None:
    reversal = position(["7C", "9S"], ["3D", "4D", "8D"], discards="own")
    reversal, _events = play(reversal, attack("7C"), block("3D", "4D"))
    assert (discard(reversal, 0), discard(reversal, 1)) == (["7C"], ["3D", "4D"])
    plain = position(["4C", "9S"], ["2D", "3D", "8D"], discards="own")
    plain, _events = play(plain, attack("4C"), block("2D", "3D"))
    assert (discard(plain, 0), discard(plain, 1)) == (["4C"], ["2D", "3D"])
    hit = position(["9C", "2S"], ["AD", "3D"], discards="own")
    hit, _events = play(hit, attack("9C"), TAKE_HIT)
    assert (discard(hit, 0), discard(hit, 1)) == (["9C"], [])
    assert GAME.view(hit, None)["options"] == {"discards": "own"}


def test_together_is_the_default_discard_rule() -> None:
    assert GAME.view(position(["AC"], ["AD"]), 0)["options"] == {"discards": "together"}


# --- the bounded legal moves -----------------------------------------------------------


def test_the_attackers_moves_are_every_card_and_three_haymakers_per_suit() -> None:
    state = position(["AH", "5H", "9H", "10H", "3C", "7C", "2S"], ["AD"])
    moves = GAME.legal_moves(state, 0)
    singles = [move["cards"][0] for move in moves if move["type"] == "attack"]
    haymakers = [move["cards"] for move in moves if move["type"] == "haymaker"]
    assert sorted(singles) == sorted(["AH", "5H", "9H", "10H", "3C", "7C", "2S"])
    assert haymakers == [["3C", "7C"], ["AH", "5H", "9H", "10H"], ["AH", "5H"], ["9H", "10H"]]
    assert {"type": "pass"} not in moves  # the first turn
    assert len(moves) <= 7 + 13
    assert GAME.legal_moves(state, 1) == []


def test_the_defenders_moves_are_the_hit_and_at_most_three_blocks() -> None:
    state = position(["10C"], ["9D", "AS", "AH", "AC", "2S", "5C", "4H"])
    state, _events = play(state, attack("10C"))
    moves = GAME.legal_moves(state, 1)
    assert moves[0] == TAKE_HIT and len(moves) <= 4
    blocks = [move["cards"] for move in moves[1:]]
    # The exact 10 (a reversal) with few high cards, the exact 10 with many low ones,
    # and the fewest cards: 9 plus the lowest card that still reaches 10.
    assert blocks == [["AC", "9D"], ["AC", "5C", "AH", "AS", "2S"]]


def test_the_fewest_cards_block_is_offered_beside_the_tightest() -> None:
    state = position(["4C"], ["2D", "3D", "8D"])
    state, _events = play(state, attack("4C"))
    assert GAME.legal_moves(state, 1) == [TAKE_HIT, block("2D", "3D"), block("8D")]


def test_the_exact_block_is_found_where_greedy_picking_misses_it() -> None:
    ids = tuple(sorted(NAMES.index(name) for name in ["9D", "6D", "4S"]))
    table = (NAMES.index("10C"),)
    blocks = key_blocks(ids, table)
    assert tuple(sorted(NAMES.index(name) for name in ["6D", "4S"])) in blocks
    assert all(sum(RANK[card] for card in cards) >= 10 for cards in blocks)


def test_no_block_is_offered_when_the_whole_hand_is_too_weak() -> None:
    state = position(["10C"], ["2D", "3D", "4S"])
    state, _events = play(state, attack("10C"))
    assert GAME.legal_moves(state, 1) == [TAKE_HIT]


def test_big_hands_keep_the_move_lists_bounded_and_legal() -> None:
    thirty = list(NAMES[:30])  # every club, diamond and heart
    spades = list(NAMES[30:])
    attacker = position(thirty, spades[:9], deck=spades[9:])
    moves = GAME.legal_moves(attacker, 0)
    assert len(moves) == 30 + 3 * 3  # every card, and three haymakers in each full suit
    assert all(GAME.is_legal(attacker, 0, move) for move in moves)
    defender, _events = play(position(spades, thirty, first=0), haymaker(*spades))
    moves = GAME.legal_moves(defender, 1)
    assert len(moves) <= 4 and moves[0] == TAKE_HIT
    assert all(GAME.is_legal(defender, 1, move) for move in moves)
    # A full-suit haymaker of 55: exact blocks (reversals) of 6 high cards and of 16 low
    # ones, and the fewest cards (6) that reach 55.
    sums = [sum(RANK[NAMES.index(card)] for card in move["cards"]) for move in moves[1:]]
    assert sums == [55, 55, 55]
    assert [len(move["cards"]) for move in moves[1:]] == [6, 16, 6]


def test_apply_accepts_blocks_that_are_not_listed() -> None:
    state = position(["3C"], ["AD", "2D", "9S", "10S"])
    state, _events = play(state, attack("3C"))
    unlisted = block("9S", "10S", "AD", "2D")
    assert unlisted not in GAME.legal_moves(state, 1)
    assert GAME.is_legal(state, 1, unlisted)
    state, events = play(state, unlisted)
    assert events[0].data["strength"] == 22 and hand(state, 1) == []


# --- bad input -------------------------------------------------------------------------


def attacking() -> HaymakerState:
    return position(["AH", "9H", "3C", "7S"], ["2D", "5D", "8D"])


def defending() -> HaymakerState:
    state, _events = play(attacking(), attack("7S"))
    return state


NO_PASS = "You may pass only if you attacked last turn."
ONE_CARD = "A normal attack is exactly one card; two or more cards of one suit are a haymaker."


@pytest.mark.parametrize(
    ("state_of", "seat", "move", "message"),
    [
        (attacking, 0, haymaker("AH", "3C"), "A haymaker's cards must all be of one suit."),
        (attacking, 0, haymaker("AH"), "A haymaker needs two or more cards of one suit."),
        (defending, 1, block("2D", "AD"), "AD is not in your hand."),
        (defending, 1, block("2D", "3D"), "3D is not in your hand."),
        (defending, 1, block("2D", "2D"), "2D is listed twice: each card can be played once."),
        (
            defending,
            1,
            block("2D"),
            "Your block is 2 against an attack of 7: it must be at least 7.",
        ),
        (defending, 1, block(), "A block needs at least one card; or take the hit."),
        (
            attacking,
            0,
            PASS,
            "You cannot pass on the first turn: you may pass only after attacking last turn.",
        ),
        (attacking, 0, attack("2D"), "2D is not in your hand."),
        (attacking, 0, {"type": "attack", "cards": ["AH", "9H"]}, ONE_CARD),
        (attacking, 0, {"type": "attack", "cards": []}, ONE_CARD),
        (attacking, 0, haymaker("AH", "AH"), "AH is listed twice: each card can be played once."),
        (attacking, 0, attack("1H"), "“1H” is not a card."),
        (attacking, 0, attack("7h"), "“7h” is not a card."),
        (attacking, 0, attack("11S"), "“11S” is not a card."),
        (attacking, 0, attack("HA"), "“HA” is not a card."),
        (attacking, 0, attack(""), "“” is not a card."),
        (attacking, 0, {"type": "attack", "cards": [7]}, "“7” is not a card."),
        (attacking, 0, {"type": "attack", "cards": [None]}, "“None” is not a card."),
        (attacking, 0, {"type": "attack", "cards": [["AH"]]}, "is not a card."),
        (attacking, 0, {"type": "attack", "cards": "AH"}, "The cards must be a list"),
        (attacking, 0, {"type": "attack"}, "Say which cards to play"),
        (attacking, 0, {"type": "attack", "cards": ["AH"], "x": 1}, "A Haymaker move has no “x”."),
        (attacking, 0, {"type": "pass", "cards": []}, "Passing and taking the hit use no cards."),
        (attacking, 0, TAKE_HIT, "You are attacking: attack, throw a haymaker, or pass."),
        (attacking, 0, block("AH"), "You are attacking: attack, throw a haymaker, or pass."),
        (defending, 1, attack("2D"), "You are defending: block the attack or take the hit."),
        (defending, 1, PASS, "You are defending: block the attack or take the hit."),
        (attacking, 1, attack("2D"), "It is not your turn."),
        (defending, 0, TAKE_HIT, "It is not your turn."),
        (attacking, 0, {"type": "punch"}, "Haymaker moves:"),
        (attacking, 0, {"type": ["attack"]}, "Haymaker moves:"),
        (attacking, 0, {}, "Haymaker moves:"),
        (attacking, 0, None, "Haymaker moves:"),
        (attacking, 0, "attack", "Haymaker moves:"),
    ],
)
def test_bad_moves_are_refused_with_a_message_and_nothing_changes(
    state_of: Any, seat: int, move: Any, message: str
) -> None:
    state = state_of()
    untouched = state_of()
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(state, seat, move)
    assert message in refused.value.message
    assert not GAME.is_legal(state, seat, move)
    assert state == untouched


def test_a_pass_is_refused_when_you_did_not_attack_last_turn() -> None:
    state = position(["7C", "9S", "2C"], ["3D", "4D", "8D"])
    state, _events = play(state, attack("7C"), block("3D", "4D"))  # a reversal: seat 1 attacks
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(state, 1, PASS)
    assert refused.value.message == NO_PASS
    state, _events = play(state, attack("8D"), TAKE_HIT, PASS)  # seat 1 passes: seat 0 attacks
    with pytest.raises(IllegalMove, match=NO_PASS):
        GAME.apply(state, 0, PASS)


def test_a_legal_move_leaves_its_input_state_alone() -> None:
    state = attacking()
    GAME.apply(state, 0, haymaker("AH", "9H"))
    assert state == attacking()


@pytest.mark.parametrize(
    "bad_deal",
    [
        None,
        [],
        {},
        {"deck": NAMES[:39]},
        {"deck": list(NAMES[:39]) + ["AC"]},
        {"deck": list(NAMES[:39]) + ["1C"]},
        {"deck": list(NAMES), "first": 2},
        {"deck": list(NAMES), "first": "0"},
        {"deck": list(NAMES), "first": True},
        {"deck": "all of them"},
        {"hands": [["AC"]], "deck": list(NAMES[1:])},
        {"hands": [[], ["AC"]], "deck": list(NAMES[1:])},
        {"hands": [["AC"], ["2C"]], "deck": list(NAMES[2:39])},
        {"hands": [["AC"], ["AC"]], "deck": list(NAMES[1:])},
        {"hands": [["AC"], ["2C"]], "deck": list(NAMES[2:]), "burned": ["3C"]},
        {"hands": "AC", "deck": list(NAMES[1:])},
    ],
)
def test_bad_deals_are_refused(bad_deal: Any) -> None:
    with pytest.raises(InvalidOptions) as refused:
        GAME.new(2, SEED, {"deal": bad_deal})
    assert refused.value.message


@pytest.mark.parametrize("discards", ["mine", None, 1])
def test_a_bad_discard_option_is_refused(discards: Any) -> None:
    with pytest.raises(InvalidOptions, match="discards"):
        GAME.new(2, SEED, {"discards": discards})


@pytest.mark.parametrize("seats", [0, 1, 3])
def test_haymaker_needs_exactly_two_seats(seats: int) -> None:
    with pytest.raises(InvalidOptions, match="exactly two"):
        GAME.new(seats, SEED)


@pytest.mark.parametrize(("seat", "reason"), [(0, "resign"), (1, "resign"), (1, "timeout")])
def test_a_forfeit_gives_the_other_seat_the_win(seat: int, reason: str) -> None:
    outcome = GAME.forfeit(attacking(), seat, reason)
    assert outcome.winners == (1 - seat,)
    assert outcome.ranking == ((1 - seat,), (seat,))
    assert outcome.reason == reason


def test_the_game_is_registered_and_has_choices() -> None:
    assert registry.get("haymaker").name == "Haymaker"
    assert (GAME.min_seats, GAME.max_seats, GAME.has_choices) == (2, 2, True)
