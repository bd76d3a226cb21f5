"""Grimhand Tactics, rule by rule, from fixed deals (decisions in docs/rules/grimhand.md)."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from typing import Any

import pytest

from games.engine import registry
from games.engine.core import Chance, IllegalMove, InvalidOptions
from games.engine.grimhand.state import GrimhandState

GAME = registry.get("grimhand")
SEED = bytes.fromhex("6a1d" * 16)
DRAW_ATTACK = {"type": "draw", "deck": "attack"}
DRAW_DEFENSE = {"type": "draw", "deck": "defense"}
ATTACK = {"type": "attack"}
PASS = {"type": "pass"}
FILLER = [1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12]  # no 7 and no 13: plain cards for long decks


def seed_for(index: int) -> bytes:
    return hashlib.sha256(f"grimhand-rules:{index}".encode()).digest()


def dealt(options: dict[str, Any] | None = None, **deal: Any) -> GrimhandState:
    """A fixed deal: plain decks unless given, seat 0 to move unless told."""
    full = {"attack": FILLER, "defense": FILLER, "first": 0, **deal}
    return GAME.new(2, SEED, {**(options or {}), "deal": full})


def play(state: GrimhandState, move: dict[str, Any]) -> tuple[GrimhandState, list[dict]]:
    (seat,) = GAME.to_act(state)
    state, events = GAME.apply(state, seat, move)
    return state, [event.to_json() for event in events]


def player(state: GrimhandState, seat: int) -> dict[str, Any]:
    return GAME.view(state, seat)["players"][seat]


def discards(state: GrimhandState) -> tuple[list[int], list[int]]:
    decks = GAME.view(state, None)["decks"]
    return decks["attack"]["discard"], decks["defense"]["discard"]


# --- Attack ---------------------------------------------------------------------------------


def test_the_rules_damage_example_three_and_seven_against_four_is_six() -> None:
    # Seat 0's Lucky slot is full, so the 7 it draws goes to its attack hand as a plain 7.
    state = dealt(attack=[7, 1, 3, 5, 2], defense=[4, 9, 8], lucky=["attack", False])
    state, events = play(state, DRAW_ATTACK)  # seat 0: the 7
    assert [event["type"] for event in events] == ["draw", "card_to_hand"]
    state, _ = play(state, DRAW_DEFENSE)  # seat 1: the 4
    state, _ = play(state, DRAW_DEFENSE)  # seat 0: a 9 to its defense hand
    state, _ = play(state, DRAW_ATTACK)  # seat 1: the 1
    state, _ = play(state, DRAW_ATTACK)  # seat 0: the 3
    assert player(state, 0)["hand"] == {"attack": [3, 7], "defense": [9]}
    assert player(state, 0)["lucky"] is True
    state, _ = play(state, DRAW_ATTACK)  # seat 1: the 5, its attack hand is now [1, 5]
    state, events = play(state, ATTACK)  # seat 0 attacks
    assert events == [
        {
            "type": "attack",
            "seat": 0,
            "target": 1,
            "attack": [3, 7],
            "defense": [4],
            "attack_total": 10,
            "defense_total": 4,
            "damage": 6,
            "hp": 44,
        },
        {"type": "blocked", "seat": 1, "amount": 4},
    ]
    assert player(state, 1)["hp"] == 44 and player(state, 0)["hp"] == 50
    assert player(state, 0)["lucky"] is True  # the slotted 7 took no part
    assert GAME.outcome(state) is None and GAME.to_act(state) == (1,)


def test_damage_is_floored_at_zero_and_nothing_heals() -> None:
    hands = [{"attack": [2, 3]}, {"defense": [5, 6]}]
    state, events = play(dealt(hands=hands, hp=[20, 30]), ATTACK)
    assert events[0]["damage"] == 0 and events[0]["hp"] == 30
    assert events[1] == {"type": "blocked", "seat": 1, "amount": 5}
    assert (player(state, 0)["hp"], player(state, 1)["hp"]) == (20, 30)
    assert GAME.outcome(state) is None


def test_an_attack_spends_both_sides_cards_to_their_own_piles() -> None:
    hands = [{"attack": [9, 4], "defense": [2]}, {"attack": [6], "defense": [3, 1]}]
    state = dealt(hands=hands, discards={"attack": [12], "defense": [11]})
    state, events = play(state, ATTACK)
    assert events[0]["damage"] == 13 - 4
    assert discards(state) == ([12, 4, 9], [11, 1, 3])  # appended, ascending
    assert player(state, 0)["hand"] == {"attack": [], "defense": [2]}  # own defense kept
    assert player(state, 1)["hand"] == {"attack": [6], "defense": []}  # their attack kept


def test_an_undefended_attack_is_not_blocked() -> None:
    state, events = play(dealt(hands=[{"attack": [5]}, {}]), ATTACK)
    assert [event["type"] for event in events] == ["attack"]
    assert events[0]["damage"] == 5 and events[0]["defense"] == []


def test_reaching_zero_hp_loses_the_match() -> None:
    state, events = play(dealt(hands=[{"attack": [12, 12]}, {"defense": [1]}], hp=[5, 9]), ATTACK)
    assert events[0]["damage"] == 23 and events[0]["hp"] == 0  # HP stops at 0
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert (outcome.winners, outcome.ranking, outcome.reason) == ((0,), ((0,), (1,)), "hp")
    assert GAME.to_act(state) == ()


def test_attacking_without_attack_cards_is_refused() -> None:
    state = dealt(hands=[{"defense": [5]}, {"attack": [5]}])
    assert ATTACK not in GAME.legal_moves(state, 0)
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(state, 0, ATTACK)
    assert refused.value.message == "You have no attack cards to attack with."


# --- Hand limit and overdraw ----------------------------------------------------------------

FULL_HAND = [5] * 13


@pytest.mark.parametrize("deck", ["attack", "defense"])
def test_a_fourteenth_card_flushes_that_hand_only(deck: str) -> None:
    other = "defense" if deck == "attack" else "attack"
    hands = [{deck: FULL_HAND, other: [2, 3]}, {"attack": [4], "defense": [6]}]
    state = dealt(**{deck: [9, 1]}, hands=hands)
    state, events = play(state, {"type": "draw", "deck": deck})
    assert events == [
        {"type": "draw", "seat": 0, "deck": deck},
        {"type": "card_to_hand", "seat": 0, "deck": deck, "value": 9},
        {"type": "hand_flushed", "seat": 0, "deck": deck, "values": [5] * 13 + [9]},
    ]
    assert player(state, 0)["hand"] == {deck: [], other: [2, 3]}
    assert player(state, 1)["hand"] == {"attack": [4], "defense": [6]}
    piles = dict(zip(("attack", "defense"), discards(state), strict=True))
    assert piles == {deck: [5] * 13 + [9], other: []}


def test_the_thirteenth_card_is_still_allowed() -> None:
    state, events = play(dealt(attack=[9, 1], hands=[{"attack": [5] * 12}, {}]), DRAW_ATTACK)
    assert player(state, 0)["hand_count"]["attack"] == 13
    assert [event["type"] for event in events] == ["draw", "card_to_hand"]


def test_a_seven_into_a_full_hand_with_a_full_slot_is_flushed_too() -> None:
    state = dealt(attack=[7, 1], hands=[{"attack": FULL_HAND}, {}], lucky=["defense", False])
    state, events = play(state, DRAW_ATTACK)
    assert events[-1]["type"] == "hand_flushed" and 7 in events[-1]["values"]


def test_overdraw_discard_lowest_discards_only_the_lowest_card() -> None:
    hand = [4, 5, 6, 8, 9, 10, 11, 12, 12, 11, 10, 9, 8]
    state = dealt({"overdraw": "discard_lowest"}, attack=[6, 1], hands=[{"attack": hand}, {}])
    state, events = play(state, DRAW_ATTACK)
    assert events[1:] == [
        {"type": "card_to_hand", "seat": 0, "deck": "attack", "value": 6},
        {"type": "card_discarded", "seat": 0, "deck": "attack", "value": 4, "reason": "overdraw"},
    ]
    assert player(state, 0)["hand"]["attack"] == sorted(hand[1:] + [6])
    assert discards(state) == ([4], [])


def test_overdraw_discard_lowest_may_discard_the_new_card() -> None:
    state = dealt({"overdraw": "discard_lowest"}, attack=[1, 2], hands=[{"attack": FULL_HAND}, {}])
    state, events = play(state, DRAW_ATTACK)
    assert events[-1]["value"] == 1
    assert player(state, 0)["hand"]["attack"] == FULL_HAND


def test_overdraw_hp_penalty_discards_the_card_and_costs_three_hp() -> None:
    state = dealt({"overdraw": "hp_penalty"}, defense=[8, 1], hands=[{"defense": FULL_HAND}, {}])
    state, events = play(state, DRAW_DEFENSE)
    assert events == [
        {"type": "draw", "seat": 0, "deck": "defense"},
        {"type": "card_discarded", "seat": 0, "deck": "defense", "value": 8, "reason": "overdraw"},
        {"type": "hp_penalty", "seat": 0, "amount": 3, "hp": 47},
    ]
    assert player(state, 0)["hand"]["defense"] == FULL_HAND
    assert player(state, 0)["hp"] == 47
    assert discards(state) == ([], [8])


def test_overdraw_hp_penalty_can_end_the_match() -> None:
    options = {"overdraw": "hp_penalty"}
    state = dealt(options, attack=[8, 1], hands=[{"attack": FULL_HAND}, {}], hp=[2, 50])
    state, events = play(state, DRAW_ATTACK)
    assert events[-1] == {"type": "hp_penalty", "seat": 0, "amount": 3, "hp": 0}
    outcome = GAME.outcome(state)
    assert outcome is not None and (outcome.winners, outcome.reason) == ((1,), "hp")


# --- Lucky 7 and the Death card -------------------------------------------------------------


@pytest.mark.parametrize("deck", ["attack", "defense"])
def test_a_seven_goes_to_an_empty_lucky_slot(deck: str) -> None:
    state, events = play(dealt(**{deck: [7, 1]}), {"type": "draw", "deck": deck})
    assert events == [
        {"type": "draw", "seat": 0, "deck": deck},
        {"type": "lucky_slotted", "seat": 0, "deck": deck},
    ]
    assert player(state, 0)["lucky"] is True
    assert player(state, 0)["hand_count"] == {"attack": 0, "defense": 0}
    assert state.lucky == (0 if deck == "attack" else 1, None)


def test_a_seven_with_a_full_slot_goes_to_the_hand() -> None:
    state = dealt(defense=[7, 1], lucky=["attack", False])
    new_state, events = GAME.apply(state, 0, DRAW_DEFENSE)
    assert [event.to_json() for event in events] == [
        {"type": "draw", "seat": 0, "deck": "defense"},
        {"type": "card_to_hand", "seat": 0, "deck": "defense", "value": 7},
    ]
    assert events[1].visible_to == (0,)  # the opponent never learns it was a 7
    assert player(new_state, 0)["hand"]["defense"] == [7]
    assert new_state.lucky == (0, None)


def test_a_death_card_with_a_lucky_seven_is_survived() -> None:
    # The slotted 7 came from the defense deck, the 13 from the attack deck: each card goes
    # back to its own deck's discard pile.
    state = dealt(attack=[13, 1], defense=[2, 3], lucky=["defense", False])
    state, events = play(state, DRAW_ATTACK)
    assert events == [
        {"type": "draw", "seat": 0, "deck": "attack"},
        {"type": "death_card", "seat": 0, "deck": "attack"},
        {"type": "lucky_saved", "seat": 0},
    ]
    assert discards(state) == ([13], [7])
    assert player(state, 0)["lucky"] is False
    assert player(state, 0)["hand_count"] == {"attack": 0, "defense": 0}  # 13 never in a hand
    assert GAME.outcome(state) is None
    assert GAME.to_act(state) == (1,)  # the turn ended; the match goes on


def test_a_death_card_without_a_lucky_seven_loses_at_once() -> None:
    state = dealt(defense=[13, 1], lucky=[False, "attack"])
    state, events = play(state, DRAW_DEFENSE)
    assert events == [
        {"type": "draw", "seat": 0, "deck": "defense"},
        {"type": "death_card", "seat": 0, "deck": "defense"},
        {"type": "death", "seat": 0},
    ]
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert (outcome.winners, outcome.ranking, outcome.reason) == ((1,), ((1,), (0,)), "death_card")
    assert discards(state) == ([], [13])  # face up, like every resolved 13
    assert GAME.view(state, None)["outcome"] == outcome.to_json()


def test_the_death_cards_left_are_public() -> None:
    state = dealt(attack=[13, 2, 13, 4], discards={"attack": [13]}, lucky=["defense", False])
    deck = GAME.view(state, 1)["decks"]["attack"]
    assert (deck["deaths_left"], deck["death_chance"]) == (2, 0.5)
    state, _ = play(state, DRAW_ATTACK)  # saved by the Lucky 7
    deck = GAME.view(state, 1)["decks"]["attack"]
    assert (deck["count"], deck["deaths_left"], deck["discard"]) == (3, 1, [13, 13])
    assert deck["death_chance"] == pytest.approx(1 / 3)


# --- Refreshing decks -----------------------------------------------------------------------


def test_a_spent_deck_is_reshuffled_from_its_discard_pile() -> None:
    state = dealt(attack=[9], discards={"attack": [1, 2, 3, 4, 5]})
    state, events = play(state, DRAW_ATTACK)
    assert events[-1] == {"type": "reshuffled", "deck": "attack", "count": 5}
    assert Counter(state.decks[0]) == Counter([1, 2, 3, 4, 5])
    assert discards(state) == ([], [])
    assert GAME.view(state, None)["decks"]["attack"]["count"] == 5
    # The first reshuffle of a match uses the stream "grimhand/reshuffle/0".
    assert state.decks[0] == tuple(Chance(SEED, "grimhand/reshuffle/0").shuffle([1, 2, 3, 4, 5]))
    assert state.reshuffles == 1


def test_reshuffles_are_fixed_by_the_seed() -> None:
    deal = {"attack": [9], "defense": [1], "discards": {"attack": list(range(1, 13))}}
    orders = []
    for index in range(8):
        options = {"deal": {**deal, "first": 0}}
        state, _ = GAME.apply(GAME.new(2, seed_for(index), options), 0, DRAW_ATTACK)
        again, _ = GAME.apply(GAME.new(2, seed_for(index), options), 0, DRAW_ATTACK)
        assert again == state
        orders.append(state.decks[0])
    assert len(set(orders)) > 1


def test_each_reshuffle_has_its_own_stream() -> None:
    state = dealt(attack=[9], defense=[8], discards={"attack": [1, 2, 3], "defense": [4, 5, 6]})
    state, _ = play(state, DRAW_ATTACK)
    state, events = play(state, DRAW_DEFENSE)
    assert events[-1] == {"type": "reshuffled", "deck": "defense", "count": 3}
    assert state.decks[1] == tuple(Chance(SEED, "grimhand/reshuffle/1").shuffle([4, 5, 6]))


def test_an_attack_refills_an_exhausted_deck() -> None:
    # Every attack card is in a hand: the attack puts them in the pile, which becomes the deck.
    state = dealt(attack=[], hands=[{"attack": [3, 4]}, {"attack": [6]}])
    assert GAME.legal_moves(state, 0) == [DRAW_DEFENSE, ATTACK]
    state, events = play(state, ATTACK)
    assert events[-1] == {"type": "reshuffled", "deck": "attack", "count": 2}
    assert sorted(state.decks[0]) == [3, 4]


def test_drawing_from_an_empty_deck_and_discard_is_refused() -> None:
    state = dealt(attack=[], hands=[{"attack": [3]}, {"attack": [6]}])
    assert DRAW_ATTACK not in GAME.legal_moves(state, 0)
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(state, 0, DRAW_ATTACK)
    assert refused.value.message == "That deck and its discard pile are both empty."


# --- Passing, turns, the end ----------------------------------------------------------------


def test_a_seat_passes_only_when_nothing_else_is_legal() -> None:
    state = dealt(attack=[], defense=[], hands=[{"defense": [2]}, {"attack": [5]}])
    assert GAME.legal_moves(state, 0) == [PASS]
    state, events = play(state, PASS)
    assert events == [{"type": "pass", "seat": 0}]
    assert GAME.legal_moves(state, 1) == [ATTACK]
    with pytest.raises(IllegalMove, match="only pass when you can neither draw nor attack"):
        GAME.apply(state, 1, PASS)
    state, events = play(state, ATTACK)
    assert events[0]["damage"] == 3
    # The spent 5 and 2 became the decks again.
    assert GAME.legal_moves(state, 0) == [DRAW_ATTACK, DRAW_DEFENSE]
    assert state.decks == ((5,), (2,))


def test_a_dealt_match_never_offers_a_pass() -> None:
    state = GAME.new(2, SEED)
    (seat,) = GAME.to_act(state)
    assert GAME.legal_moves(state, seat) == [DRAW_ATTACK, DRAW_DEFENSE]
    assert not GAME.is_legal(state, seat, PASS)


def test_legal_moves_are_at_most_three() -> None:
    state = dealt(hands=[{"attack": [1]}, {}])
    assert GAME.legal_moves(state, 0) == [DRAW_ATTACK, DRAW_DEFENSE, ATTACK]
    assert GAME.legal_moves(state, 1) == []


def test_moving_after_the_end_is_refused() -> None:
    state, _ = play(dealt(attack=[13, 1], hands=[{"attack": [4]}, {"attack": [4]}]), DRAW_ATTACK)
    assert GAME.outcome(state) is not None
    for seat in (0, 1):
        assert GAME.legal_moves(state, seat) == []
        for move in (DRAW_ATTACK, DRAW_DEFENSE, ATTACK, PASS):
            assert not GAME.is_legal(state, seat, move)
            with pytest.raises(IllegalMove) as refused:
                GAME.apply(state, seat, move)
            assert refused.value.message == "The match is over."


@pytest.mark.parametrize(
    ("seat", "move", "message"),
    [
        (1, DRAW_ATTACK, "It is not your turn."),
        (2, DRAW_ATTACK, "It is not your turn."),
        (0, {"type": "draw"}, "Draw from the attack or the defense deck."),
        (0, {"type": "draw", "deck": "Attack"}, "Draw from the attack or the defense deck."),
        (0, {"type": "draw", "deck": ["attack"]}, "Draw from the attack or the defense deck."),
        (0, {"type": "draw", "deck": 0}, "Draw from the attack or the defense deck."),
        (0, {"type": "defend"}, "Draw a card or attack."),
        (0, {"type": ["attack"]}, "Draw a card or attack."),
        (0, {}, "Draw a card or attack."),
        (0, "attack", "Draw a card or attack."),
        (0, None, "Draw a card or attack."),
        (0, PASS, "You may only pass when you can neither draw nor attack."),
    ],
)
def test_illegal_moves_are_refused_without_touching_the_state(
    seat: int, move: Any, message: str
) -> None:
    state = dealt(hands=[{"attack": [3]}, {}])
    untouched = dealt(hands=[{"attack": [3]}, {}])
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(state, seat, move)
    assert refused.value.message == message
    assert not GAME.is_legal(state, seat, move)
    assert state == untouched


def test_a_legal_move_leaves_its_inputs_alone() -> None:
    def fresh() -> GrimhandState:
        hands = [{"attack": [3, 7], "defense": [5] * 13}, {"defense": [4]}]
        return dealt(attack=[13, 2], defense=[6, 1], hands=hands, lucky=["attack", False])

    for move in (DRAW_ATTACK, DRAW_DEFENSE, ATTACK, {"type": "draw", "deck": "defense", "x": 1}):
        state = fresh()
        snapshot = json.dumps(move)
        GAME.apply(state, 0, move)
        assert state == fresh()
        assert json.dumps(move) == snapshot


# --- Options, deals, setup ------------------------------------------------------------------


@pytest.mark.parametrize("copies", [2, 4, 8])
def test_each_deck_holds_the_copies_of_every_value(copies: int) -> None:
    state = GAME.new(2, SEED, {"copies": copies})
    for deck in state.decks:
        assert Counter(deck) == Counter({value: copies for value in range(1, 14)})
    assert state.hands == (((), ()), ((), ())) and state.lucky == (None, None)
    assert state.hp == (50, 50)
    assert GAME.view(state, None)["decks"]["attack"]["deaths_left"] == copies


def test_the_defaults_and_the_options_are_in_the_view() -> None:
    assert GAME.view(GAME.new(2, SEED), 0)["options"] == {
        "copies": 4,
        "overdraw": "flush",
        "hand_limit": 13,
        "hp": 50,
    }
    state = GAME.new(2, SEED, {"copies": 3, "overdraw": "hp_penalty", "hp": 120})
    assert GAME.view(state, None)["options"] == {
        "copies": 3,
        "overdraw": "hp_penalty",
        "hand_limit": 13,
        "hp": 120,
    }
    assert state.hp == (120, 120)


def test_the_deal_and_first_player_come_from_the_seed() -> None:
    matches = [GAME.new(2, seed_for(index)) for index in range(64)]
    assert {GAME.to_act(state) for state in matches} == {(0,), (1,)}
    assert matches == [GAME.new(2, seed_for(index)) for index in range(64)]
    assert len({state.decks for state in matches}) == 64
    # Shuffles first (attack, then defense), then the coin flip, all on one stream.
    chance = Chance(SEED, "grimhand/setup")
    ordered = [value for value in range(1, 14) for _ in range(4)]
    decks = (tuple(chance.shuffle(ordered)), tuple(chance.shuffle(ordered)))
    state = GAME.new(2, SEED)
    assert state.decks == decks and state.turn == chance.randbelow(2)


def test_a_deal_without_first_flips_the_coin() -> None:
    options = {"deal": {"attack": [1], "defense": [1]}}
    firsts = {GAME.to_act(GAME.new(2, seed_for(index), options)) for index in range(64)}
    assert firsts == {(0,), (1,)}


def test_a_full_deal_sets_up_the_position() -> None:
    deal = {
        "attack": [3, 13],
        "defense": [9],
        "hands": [{"attack": [8, 2], "defense": [1]}, {"defense": [12, 7]}],
        "lucky": [False, "defense"],
        "hp": [17, 23],
        "discards": {"attack": [13, 5], "defense": [6]},
        "first": 1,
    }
    state = GAME.new(2, SEED, {"deal": deal})
    view = GAME.view(state, 0)
    assert view["to_act"] == [1]
    assert view["players"][0] == {
        "seat": 0,
        "hp": 17,
        "lucky": False,
        "hand": {"attack": [2, 8], "defense": [1]},
        "hand_count": {"attack": 2, "defense": 1},
    }
    assert view["players"][1]["lucky"] is True and view["players"][1]["hp"] == 23
    assert view["decks"]["attack"] == {
        "count": 2,
        "discard": [13, 5],
        "deaths_left": 1,
        "death_chance": 0.5,
    }

    # The composition is every card the deal put in play, slotted 7 included.
    def counts(*values: int) -> tuple[int, ...]:
        return tuple(values.count(value) for value in range(14))

    assert state.setup.composition == (counts(3, 13, 8, 2, 13, 5), counts(9, 1, 12, 7, 6, 7))


@pytest.mark.parametrize(
    "options",
    [
        {"copies": 1},
        {"copies": 9},
        {"copies": "4"},
        {"copies": True},
        {"copies": 4.0},
        {"overdraw": "explode"},
        {"overdraw": None},
        {"hp": 9},
        {"hp": 201},
        {"hp": "50"},
        {"colour": "red"},
    ],
)
def test_bad_options_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(InvalidOptions) as refused:
        GAME.new(2, SEED, options)
    assert refused.value.message


@pytest.mark.parametrize(
    "deal",
    [
        None,
        [],
        {},
        {"attack": [1]},
        {"attack": "1 2 3", "defense": [1]},
        {"attack": [1, 14], "defense": [1]},
        {"attack": [0], "defense": [1]},
        {"attack": [1], "defense": [1.0]},
        {"attack": [1], "defense": [True]},
        {"attack": [1], "defense": ["3"]},
        {"attack": [1], "defense": [1], "decks": []},
        {"attack": [1], "defense": [1], "hands": [{"attack": [13]}, {}]},
        {"attack": [1], "defense": [1], "hands": [{"defense": [1] * 14}, {}]},
        {"attack": [1], "defense": [1], "hands": [{"attack": [1]}]},
        {"attack": [1], "defense": [1], "hands": [{"sword": [1]}, {}]},
        {"attack": [1], "defense": [1], "hands": [[1], [2]]},
        {"attack": [1], "defense": [1], "lucky": [True]},
        {"attack": [1], "defense": [1], "lucky": [1, 0]},
        {"attack": [1], "defense": [1], "lucky": ["luck", False]},
        {"attack": [1], "defense": [1], "hp": [0, 10]},
        {"attack": [1], "defense": [1], "hp": [10]},
        {"attack": [1], "defense": [1], "discards": [[1], [2]]},
        {"attack": [1], "defense": [1], "discards": {"attack": [20]}},
        {"attack": [], "defense": [1], "discards": {"attack": [2]}},
        {"attack": [7, 7], "defense": [1]},
        {"attack": [], "defense": [1]},
        {"attack": [1], "defense": [1], "first": 2},
        {"attack": [1], "defense": [1], "first": True},
        {"attack": [1], "defense": [1], "first": "0"},
    ],
)
def test_bad_deals_are_refused(deal: Any) -> None:
    with pytest.raises(InvalidOptions) as refused:
        GAME.new(2, SEED, {"deal": deal})
    assert refused.value.message


def test_a_deal_may_use_any_multiset() -> None:
    state = GAME.new(2, SEED, {"copies": 2, "deal": {"attack": [13, 13, 13, 1], "defense": []}})
    assert GAME.view(state, None)["decks"]["attack"]["deaths_left"] == 3
    assert GAME.legal_moves(state, state.turn) == [DRAW_ATTACK]


@pytest.mark.parametrize("seats", [0, 1, 3])
def test_grimhand_needs_exactly_two_seats(seats: int) -> None:
    with pytest.raises(InvalidOptions, match="exactly two"):
        GAME.new(seats, SEED)


@pytest.mark.parametrize(("seat", "reason"), [(0, "resign"), (1, "resign"), (0, "timeout")])
def test_a_forfeit_gives_the_other_seat_the_win(seat: int, reason: str) -> None:
    outcome = GAME.forfeit(GAME.new(2, SEED), seat, reason)
    assert outcome.winners == (1 - seat,)
    assert outcome.ranking == ((1 - seat,), (seat,))
    assert outcome.reason == reason


# --- Views ----------------------------------------------------------------------------------


def test_the_view_has_exactly_the_agreed_shape() -> None:
    state = dealt(hands=[{"attack": [4]}, {"defense": [2]}])
    view = GAME.view(state, 0)
    assert list(view) == [
        "game",
        "ply",
        "seat",
        "to_act",
        "options",
        "decks",
        "players",
        "preview",
        "outcome",
    ]
    assert (view["game"], view["ply"], view["seat"], view["to_act"]) == ("grimhand", 0, 0, [0])
    assert set(view["decks"]) == {"attack", "defense"}
    assert set(view["decks"]["attack"]) == {"count", "discard", "deaths_left", "death_chance"}
    for side in view["players"]:
        assert set(side) == {"seat", "hp", "lucky", "hand", "hand_count"}
    assert view["players"][1]["hand"] == {"attack": None, "defense": None}
    assert view["players"][1]["hand_count"] == {"attack": 0, "defense": 1}
    assert set(view["preview"]) == {
        "attack_total",
        "defense_cards",
        "defense_min",
        "defense_max",
        "damage_min",
        "damage_max",
    }
    assert view["outcome"] is None
    spectator = GAME.view(state, None)
    assert [side["hand"] for side in spectator["players"]] == [
        {"attack": None, "defense": None}
    ] * 2
    assert spectator["preview"] is None


def test_the_preview_uses_only_what_the_attacker_knows() -> None:
    # Defense cards in play: deck 1 2 9 13, seat 1's hand 10 11, seat 0's hand 3, discard 12,
    # and a 7 from the defense deck in seat 1's slot. Seat 0 cannot see 1 2 9 10 11 (the 13
    # never sits in a hand), so seat 1's two cards sum to 1 + 2 = 3 at least, 10 + 11 = 21 at most.
    state = dealt(
        defense=[1, 13, 2, 9],
        hands=[{"attack": [8, 6], "defense": [3]}, {"defense": [11, 10]}],
        discards={"defense": [12]},
        lucky=["attack", "defense"],
    )
    assert GAME.view(state, 0)["preview"] == {
        "attack_total": 14,
        "defense_cards": 2,
        "defense_min": 3,
        "defense_max": 21,
        "damage_min": 0,
        "damage_max": 11,
    }
    assert GAME.view(state, 1)["preview"] is None  # no attack card


def test_the_preview_is_exact_against_no_defense() -> None:
    preview = GAME.view(dealt(hands=[{"attack": [5, 6]}, {}]), 0)["preview"]
    assert preview["defense_cards"] == 0
    assert preview["damage_min"] == preview["damage_max"] == 11
