"""Dog Blade, rule by rule, from fixed deals (decisions in docs/rules/dogblade.md)."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from games.engine import registry
from games.engine.core import IllegalMove, InvalidOptions
from games.engine.dogblade.state import ATK_VALUES, DECK_SIZE, HP_VALUES, DogBladeState

GAME = registry.get("dogblade")
SEED = bytes.fromhex("d06b1ade" * 8)
ATTACK = {"type": "attack"}


def seed_for(index: int) -> bytes:
    return hashlib.sha256(f"dogblade-rules:{index}".encode()).digest()


def deal(deck0: list[list[int]], deck1: list[list[int]], first: int = 0) -> dict[str, Any]:
    return {"deal": {"decks": [deck0, deck1], "first": first}}


def example(second_card_for_seat_0: list[int] | None = None) -> DogBladeState:
    """The rules document's example: player 1 (seat 0) 50/60 vs player 2 (seat 1) 30/120."""
    deck0 = [[50, 60]] + ([second_card_for_seat_0] if second_card_for_seat_0 else [])
    return GAME.new(2, SEED, deal(deck0, [[30, 120]], first=0))


def attack(state: DogBladeState) -> tuple[DogBladeState, list[dict[str, Any]]]:
    (seat,) = GAME.to_act(state)
    state, events = GAME.apply(state, seat, ATTACK)
    return state, [event.to_json() for event in events]


def active_hp(state: DogBladeState, seat: int) -> int | None:
    active = GAME.view(state, None)["sides"][seat]["active"]
    return None if active is None else active["hp"]


def test_the_rules_example_turn_by_turn() -> None:
    state = example()
    assert GAME.to_act(state) == (0,)
    assert (active_hp(state, 0), active_hp(state, 1)) == (60, 120)

    state, events = attack(state)  # turn 1, player 1: 120 - 50 = 70
    assert events == [{"type": "attack", "seat": 0, "target": 1, "damage": 50, "hp": 70}]
    assert (active_hp(state, 1), GAME.to_act(state)) == (70, (1,))

    state, events = attack(state)  # turn 2, player 2: 60 - 30 = 30
    assert events == [{"type": "attack", "seat": 1, "target": 0, "damage": 30, "hp": 30}]
    assert (active_hp(state, 0), GAME.to_act(state)) == (30, (0,))

    state, events = attack(state)  # turn 3, player 1: 70 - 50 = 20
    assert events == [{"type": "attack", "seat": 0, "target": 1, "damage": 50, "hp": 20}]
    assert (active_hp(state, 1), GAME.to_act(state)) == (20, (1,))

    state, events = attack(state)  # turn 4, player 2: 30 - 30 = 0, defeated
    assert events == [
        {"type": "attack", "seat": 1, "target": 0, "damage": 30, "hp": 0},
        {"type": "monster_defeated", "seat": 0, "card": [50, 60]},
        {"type": "out_of_cards", "seat": 0, "winner": 1},
    ]
    # With one-card decks, player 1 has run out of cards: player 2 wins.
    assert GAME.to_act(state) == ()
    assert GAME.legal_moves(state, 0) == GAME.legal_moves(state, 1) == []
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert (outcome.winners, outcome.ranking, outcome.reason) == (
        (1,),
        ((1,), (0,)),
        "out_of_cards",
    )
    assert GAME.view(state, None)["sides"][0]["active"] is None
    assert GAME.view(state, None)["sides"][0]["cards_left"] == 0


def test_the_fallen_side_draws_at_full_hp_and_attacks_next() -> None:
    state = example(second_card_for_seat_0=[40, 100])
    for _ in range(3):
        state, _events = attack(state)
    state, events = attack(state)  # turn 4: seat 0's first monster falls
    assert events == [
        {"type": "attack", "seat": 1, "target": 0, "damage": 30, "hp": 0},
        {"type": "monster_defeated", "seat": 0, "card": [50, 60]},
        {"type": "monster_drawn", "seat": 0, "card": [40, 100]},
    ]
    assert GAME.outcome(state) is None
    assert active_hp(state, 0) == 100  # full HP
    assert GAME.to_act(state) == (0,)  # the side that lost its monster attacks next
    side = GAME.view(state, 0)["sides"][0]
    assert side["active"] == {"atk": 40, "hp": 100, "max_hp": 100}
    assert side["defeated"] == [[50, 60]]
    assert (side["deck_count"], side["cards_left"]) == (0, 1)

    state, events = attack(state)  # turn 5: 20 - 40, seat 1 is out of cards
    assert events[-1] == {"type": "out_of_cards", "seat": 1, "winner": 0}
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0,)


def test_excess_damage_does_not_carry_over() -> None:
    state = GAME.new(2, SEED, deal([[100, 30]], [[10, 30], [10, 50]], first=0))
    state, events = attack(state)
    assert events[0] == {"type": "attack", "seat": 0, "target": 1, "damage": 100, "hp": 0}
    assert events[-1] == {"type": "monster_drawn", "seat": 1, "card": [10, 50]}
    assert active_hp(state, 1) == 50


def test_a_monster_at_exactly_zero_hp_is_defeated() -> None:
    state = GAME.new(2, SEED, deal([[30, 30]], [[10, 30], [10, 30]], first=0))
    state, events = attack(state)
    assert [event["type"] for event in events] == ["attack", "monster_defeated", "monster_drawn"]


@pytest.mark.parametrize("index", range(20))
def test_decks_are_twenty_cards_within_the_stat_ranges(index: int) -> None:
    state = GAME.new(2, seed_for(index))
    for deck in state.decks:
        assert len(deck) == DECK_SIZE
        for atk, hp in deck:
            assert atk in ATK_VALUES and hp in HP_VALUES
    assert ATK_VALUES == (10, 20, 30, 40, 50, 60)
    assert list(HP_VALUES) == list(range(30, 151, 10))


def test_both_actives_start_at_full_hp() -> None:
    state = GAME.new(2, SEED)
    for seat in (0, 1):
        atk, max_hp = state.decks[seat][0]
        active = GAME.view(state, seat)["sides"][seat]["active"]
        assert active == {"atk": atk, "hp": max_hp, "max_hp": max_hp}


def test_the_first_player_comes_from_the_seed() -> None:
    firsts = [GAME.to_act(GAME.new(2, seed_for(index))) for index in range(64)]
    assert set(firsts) == {(0,), (1,)}
    assert firsts == [GAME.to_act(GAME.new(2, seed_for(index))) for index in range(64)]


def test_a_deal_without_first_draws_the_first_player_from_the_seed() -> None:
    options = {"deal": {"decks": [[[10, 30]], [[10, 30]]]}}
    firsts = {GAME.to_act(GAME.new(2, seed_for(index), options)) for index in range(64)}
    assert firsts == {(0,), (1,)}


def test_the_same_seed_deals_the_same_decks() -> None:
    assert GAME.new(2, SEED) == GAME.new(2, SEED)
    assert GAME.new(2, SEED).decks != GAME.new(2, seed_for(0)).decks


@pytest.mark.parametrize(
    ("seat", "move", "message"),
    [
        (1, ATTACK, "It is not your turn."),
        (0, {"type": "defend"}, "In Dog Blade the only move is to attack."),
        (0, {}, "In Dog Blade the only move is to attack."),
        (0, "attack", "In Dog Blade the only move is to attack."),
        (0, None, "In Dog Blade the only move is to attack."),
        (0, ["attack"], "In Dog Blade the only move is to attack."),
    ],
)
def test_illegal_moves_are_refused_without_touching_the_state(
    seat: int, move: Any, message: str
) -> None:
    state = example()
    untouched = example()
    with pytest.raises(IllegalMove) as refused:
        GAME.apply(state, seat, move)
    assert refused.value.message == message
    assert not GAME.is_legal(state, seat, move)
    assert state == untouched


def test_no_move_is_legal_after_the_end() -> None:
    state = example()
    for _ in range(4):
        state, _events = attack(state)
    finished = state
    for seat in (0, 1):
        with pytest.raises(IllegalMove, match="The match is over."):
            GAME.apply(state, seat, ATTACK)
    assert state == finished


def test_a_legal_move_leaves_its_input_state_alone() -> None:
    state = example()
    GAME.apply(state, 0, ATTACK)
    assert state == example()
    assert GAME.is_legal(state, 0, ATTACK)


@pytest.mark.parametrize(
    "bad_deal",
    [
        None,
        [],
        {},
        {"decks": []},
        {"decks": [[[10, 30]]]},
        {"decks": [[[10, 30]], [[10, 30]], [[10, 30]]]},
        {"decks": [[[10, 30]], []]},
        {"decks": [[[10, 30]], "cards"]},
        {"decks": [[[10, 30]], [[10]]]},
        {"decks": [[[10, 30]], [[10, 30, 50]]]},
        {"decks": [[[10, 30]], [[0, 30]]]},
        {"decks": [[[10, 30]], [[10, -30]]]},
        {"decks": [[[10, 30]], [[10.5, 30]]]},
        {"decks": [[[10, 30]], [["10", 30]]]},
        {"decks": [[[10, 30]], [[True, 30]]]},
        {"decks": [[[10, 30]], [[10, 30]]], "first": 2},
        {"decks": [[[10, 30]], [[10, 30]]], "first": "0"},
    ],
)
def test_bad_deals_are_refused(bad_deal: Any) -> None:
    with pytest.raises(InvalidOptions) as refused:
        GAME.new(2, SEED, {"deal": bad_deal})
    assert refused.value.message


@pytest.mark.parametrize("seats", [0, 1, 3])
def test_dog_blade_needs_exactly_two_seats(seats: int) -> None:
    with pytest.raises(InvalidOptions, match="exactly two"):
        GAME.new(seats, SEED)


@pytest.mark.parametrize(("seat", "reason"), [(0, "resign"), (1, "resign"), (0, "timeout")])
def test_a_forfeit_gives_the_other_seat_the_win(seat: int, reason: str) -> None:
    outcome = GAME.forfeit(example(), seat, reason)
    assert outcome.winners == (1 - seat,)
    assert outcome.ranking == ((1 - seat,), (seat,))
    assert outcome.reason == reason
    assert not outcome.is_draw


def test_every_move_is_forced() -> None:
    state = GAME.new(2, SEED)
    (seat,) = GAME.to_act(state)
    assert GAME.legal_moves(state, seat) == [ATTACK]
    assert GAME.legal_moves(state, 1 - seat) == []
    assert GAME.has_choices is False
