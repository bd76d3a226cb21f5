"""Shield, rule by rule, from fixed deals (decisions in docs/rules/shield.md)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

import pytest

from games.engine import registry
from games.engine.chance import Chance
from games.engine.core import Event, IllegalMove, InvalidOptions
from games.engine.shield.cards import NAMES, VALUE
from games.engine.shield.state import ShieldState

GAME = registry.get("shield")
SEED = bytes.fromhex("5e1d" * 16)
CONFIRM = {"type": "confirm"}
STORE = {"type": "store"}
RESOLVE = {"type": "resolve"}
END_TURN = {"type": "end_turn"}

# The worked examples' players: (hand, shield). Player 1 is seat 0, player 2 seat 1, ...
EXAMPLE_HANDS = [["AC", "3C", "AD", "JH"], ["10C", "KC", "5C", "6C"], ["AH", "AS", "QC", "10D"]]
EXAMPLE_SHIELDS = ["JH", "6C", "10D"]


def seed_for(index: int) -> bytes:
    return hashlib.sha256(f"shield-rules:{index}".encode()).digest()


def position(
    hands: Sequence[Sequence[str]],
    deck: Sequence[str] = (),
    *,
    shields: Sequence[str] | None = None,
    stored: Sequence[Sequence[str]] | None = None,
    discard: Sequence[str] = (),
    hp: Sequence[int] | None = None,
    rest: str = "deck",
    seed: bytes = SEED,
    **options: Any,
) -> ShieldState:
    """A fixed deal: these hands, this draw pile on top, and every other card in `rest`."""
    placed = {card for hand in hands for card in hand} | set(deck) | set(discard)
    placed |= {card for pile in stored or () for card in pile}
    others = [name for name in NAMES if name not in placed]
    deal: dict[str, Any] = {"hands": [list(hand) for hand in hands]}
    deal["deck"] = list(deck) + (others if rest == "deck" else [])
    deal["discard"] = list(discard) + (others if rest == "discard" else [])
    piles = [list(pile) for pile in stored] if stored else [[] for _ in hands]
    if rest == "stored":
        piles[-1] += others
    deal["stored"] = piles
    if shields is not None:
        deal["shields"] = list(shields)
    if hp is not None:
        deal["hp"] = list(hp)
    return GAME.new(len(hands), seed, {"deal": deal, **options})


def examples(deck: Sequence[str] = (), **kwargs: Any) -> ShieldState:
    """The rules' three players, laid out as in the worked examples (setup done)."""
    return position(EXAMPLE_HANDS, deck, shields=EXAMPLE_SHIELDS, **kwargs)


def play(state: ShieldState, *moves: dict[str, Any]) -> tuple[ShieldState, list[Event]]:
    """Each move by the one seat to act; the events of the last one."""
    events: list[Event] = []
    for move in moves:
        (seat,) = GAME.to_act(state)
        state, events = GAME.apply(state, seat, move)
    return state, events


def choose(card: str) -> dict[str, Any]:
    return {"type": "choose_shield", "card": card}


def attack(target: int, **fields: Any) -> dict[str, Any]:
    return {"type": "attack", "target": target, **fields}


def change(target: int) -> dict[str, Any]:
    return {"type": "change_shield", "target": target}


def boost(count: int = 1) -> dict[str, Any]:
    return {"type": "boost", "count": count}


def give(target: int, count: int = 1) -> dict[str, Any]:
    return {"type": "give", "target": target, "count": count}


def types(events: list[Event]) -> list[str]:
    return [event.type for event in events]


def player(state: ShieldState, seat: int, viewer: int | None = None) -> dict[str, Any]:
    return GAME.view(state, viewer)["players"][seat]


def hp(state: ShieldState) -> list[int]:
    return [player(state, seat)["hp"] for seat in range(state.seats)]


def set_up(state: ShieldState, shields: Sequence[str]) -> tuple[ShieldState, list[Event]]:
    """Every seat picks its shield, then every seat confirms, in seat order."""
    for seat, card in enumerate(shields):
        state, _events = GAME.apply(state, seat, choose(card))
    events: list[Event] = []
    for seat in range(len(shields)):
        state, events = GAME.apply(state, seat, CONFIRM)
    return state, events


# --- cards and the deal -------------------------------------------------------------------


def test_the_deck_is_52_cards_ace_1_to_king_13_and_a_ten_is_10() -> None:
    assert len(NAMES) == 52 and len(set(NAMES)) == 52
    assert sorted(VALUE) == sorted(list(range(1, 14)) * 4)
    value = {name: VALUE[card] for card, name in enumerate(NAMES)}
    assert (value["AS"], value["10D"], value["JC"], value["QH"], value["KS"]) == (1, 10, 11, 12, 13)
    # The rules' layouts only add up with a 10 worth 10: 10 + K + 5 = 28, A + A + Q = 14.
    assert value["10C"] + value["KC"] + value["5C"] == 28


@pytest.mark.parametrize("seats", range(2, 9))
def test_a_dealt_match_gives_four_cards_each_and_starts_in_setup(seats: int) -> None:
    state = GAME.new(seats, seed_for(seats))
    assert [len(hand) for hand in state.dealt] == [4] * seats
    assert len(state.deck) == 52 - 4 * seats and state.discard == ()
    assert sorted(state.every_card()) == list(range(52))
    assert GAME.to_act(state) == tuple(range(seats))
    view = GAME.view(state, 0)
    assert view["step"] == "setup" and view["turn"] is None
    assert view["hand"] == [NAMES[card] for card in state.dealt[0]]
    assert GAME.new(seats, seed_for(seats)) == state
    assert GAME.new(seats, seed_for(99)).dealt != state.dealt


@pytest.mark.parametrize("seats", [1, 9, 0])
def test_two_to_eight_players(seats: int) -> None:
    with pytest.raises(InvalidOptions, match="2 to 8 players"):
        GAME.new(seats, SEED)


def test_a_fixed_deck_is_dealt_four_each_in_seat_order() -> None:
    deck = list(reversed(NAMES))
    state = GAME.new(3, SEED, {"deal": {"deck": deck}})
    assert GAME.view(state, 1)["hand"] == sorted(deck[4:8], key=NAMES.index)
    assert [NAMES[card] for card in state.deck] == deck[12:]


# --- the setup ----------------------------------------------------------------------------


def test_every_seat_picks_in_secret_and_may_pick_again_until_it_confirms() -> None:
    state = position(EXAMPLE_HANDS)
    state, events = GAME.apply(state, 1, choose("KC"))
    assert [(e.type, e.data, e.visible_to) for e in events] == [
        ("shield_chosen", {"seat": 1, "card": "KC"}, (1,))
    ]
    state, _events = GAME.apply(state, 1, choose("6C"))  # changed its mind
    assert GAME.view(state, 1)["pick"] == "6C"
    for viewer in (0, 2, None):
        view = GAME.view(state, viewer)
        assert view["pick"] is None and view["players"][1]["shield"] is None
        assert "6C" not in str(view) and "KC" not in str(view)
    assert GAME.to_act(state) == (0, 1, 2)
    state, events = GAME.apply(state, 1, CONFIRM)
    assert types(events) == ["confirmed"] and events[0].visible_to is None
    assert GAME.to_act(state) == (0, 2)
    assert GAME.view(state, 0)["players"][1]["confirmed"] is True
    assert GAME.legal_moves(state, 1) == []
    with pytest.raises(IllegalMove, match="You have confirmed your shield"):
        GAME.apply(state, 1, choose("KC"))


def test_a_seat_must_choose_before_it_confirms() -> None:
    state = position(EXAMPLE_HANDS)
    with pytest.raises(IllegalMove, match="Choose your shield before you confirm."):
        GAME.apply(state, 0, CONFIRM)
    assert GAME.legal_moves(state, 0) == [choose(card) for card in ["AC", "3C", "AD", "JH"]]
    with pytest.raises(IllegalMove, match="KC is not one of your four cards."):
        GAME.apply(state, 0, choose("KC"))


def test_nobody_plays_before_every_shield_is_confirmed() -> None:
    state = position(EXAMPLE_HANDS)
    state, _events = GAME.apply(state, 0, choose("JH"))
    state, _events = GAME.apply(state, 0, CONFIRM)
    for move in (attack(1), STORE, change(0), END_TURN):
        with pytest.raises(IllegalMove, match="once every player has confirmed a shield"):
            GAME.apply(state, 0, move)


def test_the_last_confirmation_lays_every_shield_face_up_and_the_lowest_hp_starts() -> None:
    # The rules' start-order example: 5, 28 and 14 HP; player 1 (seat 0) starts.
    state, events = set_up(position(EXAMPLE_HANDS), EXAMPLE_SHIELDS)
    assert types(events) == ["confirmed", "play_started"]
    assert events[1].data == {
        "players": [
            {"seat": 0, "shield": "JH", "hp_cards": ["AC", "3C", "AD"], "hp": 5},
            {"seat": 1, "shield": "6C", "hp_cards": ["5C", "10C", "KC"], "hp": 28},
            {"seat": 2, "shield": "10D", "hp_cards": ["QC", "AH", "AS"], "hp": 14},
        ],
        "first": 0,
    }
    assert GAME.to_act(state) == (0,) and GAME.view(state, 2)["turn"] == 0
    assert hp(state) == [5, 28, 14]
    assert [player(state, seat, 1)["shield"] for seat in range(3)] == EXAMPLE_SHIELDS
    assert examples() == state.replace(ply=0)  # the same as a deal laid out in advance


def test_a_tie_for_the_lowest_hp_goes_to_the_lower_shield() -> None:
    hands = [["2C", "3C", "4C", "9C"], ["2D", "3D", "4D", "8D"], ["KH", "QH", "JH", "2H"]]
    state = position(hands, shields=["9C", "8D", "2H"])  # 9 HP, 9 HP, 36 HP
    assert GAME.to_act(state) == (1,)  # shield 8 is lower than 9


def test_a_full_tie_is_drawn_from_the_seed() -> None:
    hands = [["2C", "3C", "4C", "9C"], ["2D", "3D", "4D", "9D"], ["2H", "3H", "4H", "9H"]]
    firsts = set()
    for index in range(24):
        state = position(hands, shields=["9C", "9D", "9H"], seed=seed_for(index))
        expected = Chance(seed_for(index), "shield/start").randbelow(3)
        assert GAME.to_act(state) == (expected,)
        firsts.add(expected)
    assert firsts == {0, 1, 2}


def test_the_random_start_tie_option_ignores_the_shields() -> None:
    hands = [["2C", "3C", "4C", "9C"], ["2D", "3D", "4D", "8D"], ["KH", "QH", "JH", "2H"]]
    firsts = {
        GAME.to_act(
            position(hands, shields=["9C", "8D", "2H"], seed=seed_for(i), start_tie="random")
        )
        for i in range(16)
    }
    assert firsts == {(0,), (1,)}


# --- turns --------------------------------------------------------------------------------


def test_play_goes_clockwise_in_seat_order_and_wraps_around() -> None:
    state = examples(["2C", "2D", "2H", "2S"])
    assert GAME.to_act(state) == (0,)
    order = []
    for _ in range(4):
        state, events = play(state, change(GAME.to_act(state)[0]))
        assert events[-1].type == "next_turn"
        order.append(GAME.to_act(state)[0])
    assert order == [1, 2, 0, 1]


# --- changing shields ---------------------------------------------------------------------


def test_changing_my_shield_draws_the_new_one_and_discards_the_old() -> None:
    state, events = play(examples(["4S"]), change(0))
    assert [(e.type, e.data) for e in events] == [
        ("shield_changed", {"seat": 0, "target": 0, "old": "JH", "new": "4S"}),
        ("next_turn", {"seat": 1}),
    ]
    view = GAME.view(state, 2)
    assert view["players"][0]["shield"] == "4S" and view["players"][0]["shield_value"] == 4
    assert (view["discard_top"], view["discard_count"]) == ("JH", 1)
    assert view["last_action"]["action"] == "change_shield"
    assert view["last_action"]["old_shield"] == "JH" and view["last_action"]["card"] == "4S"


def test_changing_another_players_shield_even_for_a_stronger_one() -> None:
    state, events = play(examples(["KS"]), change(1))
    assert events[0].data == {"seat": 0, "target": 1, "old": "6C", "new": "KS"}
    assert player(state, 1)["shield"] == "KS" and player(state, 0)["shield"] == "JH"
    assert GAME.view(state, None)["discard_top"] == "6C"


# --- storing ------------------------------------------------------------------------------


def test_a_stored_card_is_drawn_face_down_and_nobody_learns_it() -> None:
    state, events = play(examples(["QS"]), STORE)
    assert [(e.type, e.data) for e in events] == [("stored", {"seat": 0, "count": 1})]
    assert all(event.visible_to is None for event in events)
    for viewer in (0, 1, 2, None):
        view = GAME.view(state, viewer)
        assert "QS" not in str(view)
        assert view["players"][0]["stored_count"] == 1
    assert state.stored[0] == (NAMES.index("QS"),)
    # A player with stored cards may give them away after the action.
    assert GAME.view(state, 0)["step"] == "give" and GAME.to_act(state) == (0,)


# --- attacking ----------------------------------------------------------------------------


def test_worked_example_1_a_draw_below_the_shield_fails() -> None:
    # Player 1 attacks player 2 and draws the 3 of diamonds: 3 < 6, the 3 is discarded.
    state, events = set_up(position(EXAMPLE_HANDS, ["3D"]), EXAMPLE_SHIELDS)
    state, events = play(state, attack(1))
    assert [(e.type, e.data) for e in events] == [
        ("attack", {"seat": 0, "target": 1, "card": "3D", "power": 3, "shield": 6}),
        ("blocked", {"seat": 0, "target": 1, "power": 3, "shield": 6}),
        ("next_turn", {"seat": 1}),
    ]
    assert hp(state) == [5, 28, 14]
    assert GAME.view(state, 0)["discard_top"] == "3D"
    assert GAME.view(state, 0)["last_action"]["result"] == "blocked"


def test_worked_example_2_damage_is_the_draw_minus_the_shield() -> None:
    # Player 2 attacks player 3 and draws the jack of spades: 11 - 10 = 1 damage, 14 -> 13.
    state, _events = play(examples(["3D", "JS"]), attack(1))  # example 1 first: seat 1's turn
    state, events = play(state, attack(2))
    assert [(e.type, e.data) for e in events] == [
        ("attack", {"seat": 1, "target": 2, "card": "JS", "power": 11, "shield": 10}),
        ("hit", {"seat": 1, "target": 2, "power": 11, "shield": 10, "damage": 1, "hp": 13}),
        ("next_turn", {"seat": 2}),
    ]
    assert hp(state) == [5, 28, 13]
    assert player(state, 2)["shield"] == "10D"  # the shield stays
    assert GAME.view(state, 0)["discard_top"] == "JS"


def test_worked_example_3_a_stored_card_added_after_the_draw() -> None:
    # Player 1 has one stored card (the 3 of hearts), attacks player 2 and draws the 6 of
    # diamonds: 6 <= 6 fails; adding the stored card makes 9 > 6: 3 damage, 28 -> 25.
    state = examples(["6D"], stored=[["3H"], [], []])
    state, events = play(state, attack(1))
    assert types(events) == ["attack"]
    view = GAME.view(state, 2)
    assert view["step"] == "boost" and view["attack"] == {
        "seat": 0,
        "target": 1,
        "card": "6D",
        "boost": [],
        "power": 6,
        "shield": 6,
        "beats_shield": False,
        "damage": 0,
    }
    assert GAME.legal_moves(state, 0) == [RESOLVE, boost(1)]
    state, events = play(state, boost(1))
    assert [(e.type, e.data) for e in events] == [
        ("boost", {"seat": 0, "cards": ["3H"], "power": 9}),
        ("hit", {"seat": 0, "target": 1, "power": 9, "shield": 6, "damage": 3, "hp": 25}),
        ("next_turn", {"seat": 1}),
    ]
    assert hp(state) == [5, 25, 14]
    assert player(state, 0)["stored_count"] == 0
    last = GAME.view(state, 1)["last_action"]
    assert (last["card"], last["boost"], last["power"], last["damage"]) == ("6D", ["3H"], 9, 3)


def test_a_draw_equal_to_the_shield_fails() -> None:
    state, events = play(examples(["6D"]), attack(1))
    assert events[1].type == "blocked" and hp(state)[1] == 28


def test_stored_cards_join_one_at_a_time_and_resolve_keeps_the_rest() -> None:
    state = examples(["2D"], stored=[["3H", "4H", "5H"], [], []])
    state, events = play(state, attack(1), boost(1))
    assert events[0].data == {"seat": 0, "cards": ["5H"], "power": 7}  # the top of the pile
    assert GAME.view(state, 0)["attack"]["beats_shield"] is True
    assert GAME.legal_moves(state, 0) == [RESOLVE, boost(1), boost(2)]
    state, events = play(state, RESOLVE)
    assert types(events) == ["hit"] and hp(state)[1] == 27
    assert player(state, 0)["stored_count"] == 2
    assert GAME.view(state, 0)["step"] == "give"  # still holds stored cards


def test_boosting_with_the_last_stored_cards_resolves_at_once() -> None:
    state = examples(["2D"], stored=[["3H", "4H"], [], []])
    state, events = play(state, attack(1), boost(2))
    assert types(events) == ["boost", "hit", "next_turn"]
    assert events[0].data == {"seat": 0, "cards": ["3H", "4H"], "power": 9}
    assert hp(state)[1] == 25 and GAME.to_act(state) == (1,)


def test_an_attack_without_stored_cards_resolves_on_the_draw() -> None:
    state, events = play(examples(["KD"]), attack(2))
    assert types(events) == ["attack", "hit", "next_turn"]
    assert hp(state)[2] == 11


def test_the_before_draw_option_commits_stored_cards_with_the_attack() -> None:
    state = examples(["6D"], stored=[["3H", "4H"], [], []], boost="before_draw")
    assert attack(1, boost=1) in GAME.legal_moves(state, 0)
    with pytest.raises(IllegalMove, match="You have 2 stored cards, not 3."):
        GAME.apply(state, 0, attack(1, boost=3))
    state, events = play(state, attack(1, boost=1))
    assert types(events) == ["attack", "boost", "hit"]
    assert events[1].data == {"seat": 0, "cards": ["4H"], "power": 10}
    assert hp(state)[1] == 24 and GAME.view(state, 0)["step"] == "give"
    with pytest.raises(IllegalMove, match="Choose your action first"):
        GAME.apply(examples(stored=[["3H"], [], []], boost="before_draw"), 0, boost(1))


def test_the_after_draw_rule_refuses_a_committed_boost() -> None:
    state = examples(stored=[["3H"], [], []])
    with pytest.raises(IllegalMove, match="attack, then boost"):
        GAME.apply(state, 0, attack(1, boost=1))


def test_a_hit_discards_the_defenders_stored_cards_and_a_block_does_not() -> None:
    blocked = examples(["2D"], stored=[[], ["9H", "8H"], []])
    blocked, _events = play(blocked, attack(1))
    assert player(blocked, 1)["stored_count"] == 2
    hit = examples(["KD"], stored=[[], ["9H", "8H"], []])
    hit, events = play(hit, attack(1))
    assert [(e.type, e.data) for e in events[1:3]] == [
        ("hit", {"seat": 0, "target": 1, "power": 13, "shield": 6, "damage": 7, "hp": 21}),
        ("stored_discarded", {"seat": 1, "cards": ["9H", "8H"]}),
    ]
    view = GAME.view(hit, 2)
    assert view["players"][1]["stored_count"] == 0
    assert view["discard_count"] == 3 and view["discard_top"] == "KD"
    assert view["last_action"]["stored_discarded"] == ["9H", "8H"]


# --- giving stored cards ------------------------------------------------------------------


def test_giving_example_1_all_stored_cards_to_one_player() -> None:
    state = examples(["KD"], stored=[["3H", "4H"], [], []])
    state, _events = play(state, attack(2), RESOLVE)
    assert GAME.view(state, 0)["step"] == "give"
    state, events = play(state, give(2, 2))
    assert [(e.type, e.data) for e in events] == [
        ("gave", {"seat": 0, "target": 2, "count": 2, "stored": [0, 0, 2]}),
        ("next_turn", {"seat": 1}),
    ]
    assert state.stored[2] == (NAMES.index("3H"), NAMES.index("4H"))


def test_giving_example_2_one_card_and_keeping_the_other() -> None:
    state = examples(["KD"], stored=[["3H", "4H"], [], []])
    state, _events = play(state, attack(2), RESOLVE, give(2, 1))
    assert GAME.to_act(state) == (0,) and GAME.view(state, 0)["step"] == "give"
    assert GAME.legal_moves(state, 0) == [END_TURN, give(1), give(2)]
    state, events = play(state, END_TURN)
    assert types(events) == ["next_turn"]
    assert [player(state, seat)["stored_count"] for seat in range(3)] == [1, 0, 1]


def test_giving_example_3_one_card_each_to_two_players() -> None:
    # The rules' third example gives "the other one to player 1", the giver: giving to
    # yourself is keeping, so the second card goes to another player here.
    state = examples(["KD"], stored=[["3H", "4H"], [], []])
    state, _events = play(state, attack(2), RESOLVE, give(2))
    with pytest.raises(IllegalMove, match="You cannot give cards to yourself"):
        GAME.apply(state, 0, give(0))
    state, events = play(state, give(1))
    assert types(events) == ["gave", "next_turn"]
    assert [player(state, seat)["stored_count"] for seat in range(3)] == [0, 1, 1]


def test_giving_more_than_i_hold_is_refused() -> None:
    state, _events = play(examples(["9S"]), STORE)
    with pytest.raises(IllegalMove, match="You have 1 stored card, not 2."):
        GAME.apply(state, 0, give(1, 2))
    with pytest.raises(IllegalMove, match='"count" is 1 or more'):
        GAME.apply(state, 0, give(1, 0))


def test_no_giving_step_without_stored_cards() -> None:
    state, events = play(examples(["9S"]), change(0))
    assert events[-1].type == "next_turn" and GAME.to_act(state) == (1,)


# --- going out and winning ----------------------------------------------------------------


def test_a_player_at_zero_hp_is_out_and_skipped() -> None:
    state = examples(["KD"], hp=[2, 28, 3])
    state, events = play(state, attack(2))  # 13 - 10 = 3: exactly 3 HP
    assert types(events) == ["attack", "hit", "eliminated", "next_turn"]
    assert events[2].data == {
        "seat": 2,
        "reason": "hp",
        "by": 0,
        "place": 3,
        "cards": ["QC", "AH", "AS", "10D"],
    }
    view = GAME.view(state, 2)  # an out player keeps watching
    assert view["players"][2] == {
        "seat": 2,
        "is_out": True,
        "place": 3,
        "confirmed": True,
        "shield": None,
        "shield_value": None,
        "hp": 0,
        "hp_cards": [],
        "stored_count": 0,
    }
    assert view["discard_top"] == "KD" and view["discard_count"] == 5
    assert GAME.legal_moves(state, 2) == []
    with pytest.raises(IllegalMove, match="That player is out of the match."):
        GAME.apply(state, 1, attack(2))
    state, _events = play(state, change(1))
    assert GAME.to_act(state) == (0,)  # seat 2 is skipped


def test_damage_beyond_the_hp_left_still_stops_at_zero() -> None:
    state, events = play(examples(["KD"], hp=[1, 28, 2]), attack(2))
    assert events[1].data["damage"] == 3 and events[1].data["hp"] == 0


def test_the_last_player_standing_wins_and_the_others_rank_by_when_they_fell() -> None:
    hands = [["2C", "3C", "4C", "9C"], ["2D", "3D", "4D", "AD"], ["2H", "3H", "4H", "AH"]]
    hands.append(["2S", "3S", "4S", "AS"])
    deck = ["KC", "KD", "KH", "QS"]
    state = position(hands, deck, shields=["9C", "AD", "AH", "AS"], hp=[1, 5, 5, 5])
    state, _events = play(state, attack(2))  # seat 0 puts seat 2 out: 4th
    state, _events = play(state, attack(0))  # seat 1: KD vs 9 -> seat 0 out: 3rd
    state, _events = play(state, attack(1))  # seat 3: KH vs A = 12 -> seat 1 out: 2nd
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.winners == (3,) and outcome.reason == "last_standing"
    assert outcome.ranking == ((3,), (1,), (0,), (2,))
    assert GAME.to_act(state) == () and GAME.view(state, 0)["step"] == "over"
    assert GAME.view(state, 0)["outcome"] == {
        "winners": [3],
        "ranking": [[3], [1], [0], [2]],
        "reason": "last_standing",
        "scores": None,
    }
    with pytest.raises(IllegalMove, match="The match is over."):
        GAME.apply(state, 3, STORE)
    assert all(GAME.legal_moves(state, seat) == [] for seat in range(4))


# --- running out of cards -----------------------------------------------------------------


def test_an_empty_draw_pile_is_refilled_from_the_shuffled_discard_pile() -> None:
    state = examples(rest="discard")
    assert GAME.view(state, 0)["deck_count"] == 0
    discard = state.discard
    state, events = play(state, change(0))
    expected = Chance(SEED, "shield/reshuffle/0").shuffle(discard)
    assert events[0].data == {"from": "discard", "count": len(discard)}
    assert events[1].data["new"] == NAMES[expected[0]]
    assert state.discard == (NAMES.index("JH"),)
    assert list(state.deck) == expected[1:] and state.reshuffles == 1


def test_with_no_draw_pile_and_no_discard_the_stored_cards_are_reshuffled() -> None:
    state = examples(rest="stored")
    counts = [len(pile) for pile in state.stored]
    state, events = play(state, STORE)
    assert events[0].data == {"from": "stored", "count": sum(counts), "stored": counts}
    assert [player(state, seat)["stored_count"] for seat in range(3)] == [1, 0, 0]
    assert sorted(state.every_card()) == list(range(52))


# --- forfeits -----------------------------------------------------------------------------


def test_a_forfeit_puts_the_seat_out_and_play_goes_on() -> None:
    state = examples(["2S"])
    assert GAME.forfeit(state, 1, "resign") is None  # two players remain
    state, events = GAME.apply(state, 1, {"type": "forfeit", "reason": "resign"})  # out of turn
    assert types(events) == ["eliminated"]
    assert events[0].data["reason"] == "resign" and events[0].data["place"] == 3
    assert GAME.to_act(state) == (0,)
    state, _events = play(state, change(0))
    assert GAME.to_act(state) == (2,)  # seat 1 is skipped


def test_a_forfeit_that_leaves_one_player_ends_the_match() -> None:
    state, _events = GAME.apply(examples(), 2, {"type": "forfeit", "reason": "timeout"})
    outcome = GAME.forfeit(state, 0, "resign")
    assert outcome is not None
    assert outcome.winners == (1,) and outcome.ranking == ((1,), (0,), (2,))
    assert outcome.reason == "resign"


def test_a_forfeit_on_my_turn_passes_the_turn() -> None:
    state, events = GAME.apply(examples(), 0, {"type": "forfeit", "reason": "timeout"})
    assert types(events) == ["eliminated", "next_turn"] and GAME.to_act(state) == (1,)


def test_a_forfeit_drops_an_attack_on_the_table() -> None:
    state = examples(["6D"], stored=[["3H"], [], []])
    state, _events = play(state, attack(1))
    # The target resigns while the attacker may still boost: the attack is dropped and the
    # attacker, still holding a stored card, may give it away.
    after, events = GAME.apply(state, 1, {"type": "forfeit", "reason": "resign"})
    assert types(events) == ["attack_dropped", "eliminated"]
    assert GAME.view(after, 0)["step"] == "give" and GAME.view(after, 0)["attack"] is None
    # The attacker resigns instead: the turn moves on.
    after, events = GAME.apply(state, 0, {"type": "forfeit", "reason": "resign"})
    assert types(events) == ["attack_dropped", "eliminated", "next_turn"]
    assert GAME.to_act(after) == (1,)
    assert sorted(after.every_card()) == list(range(52))


def test_a_forfeit_during_the_setup_can_start_the_play() -> None:
    state = position(EXAMPLE_HANDS)
    for seat in (0, 1):
        state, _events = GAME.apply(state, seat, choose(EXAMPLE_SHIELDS[seat]))
        state, _events = GAME.apply(state, seat, CONFIRM)
    state, events = GAME.apply(state, 2, {"type": "forfeit", "reason": "timeout"})
    assert types(events) == ["eliminated", "play_started"]
    assert events[0].data["cards"] == ["QC", "10D", "AH", "AS"]  # now face up in the discard
    assert GAME.to_act(state) == (0,)
    assert [p["is_out"] for p in GAME.view(state, 0)["players"]] == [False, False, True]


def test_a_forfeit_needs_a_reason_and_a_seat_still_in_play() -> None:
    state = examples()
    with pytest.raises(IllegalMove, match='"resign" or "timeout"'):
        GAME.apply(state, 1, {"type": "forfeit"})
    state, _events = GAME.apply(state, 1, {"type": "forfeit", "reason": "resign"})
    with pytest.raises(IllegalMove, match="You are out of the match."):
        GAME.apply(state, 1, {"type": "forfeit", "reason": "resign"})
    assert {"type": "forfeit", "reason": "resign"} not in GAME.legal_moves(state, 0)


# --- bad input ----------------------------------------------------------------------------


def in_setup() -> ShieldState:
    return position(EXAMPLE_HANDS)


def in_play() -> ShieldState:
    return examples(stored=[["3H"], [], []])


def boosting() -> ShieldState:
    state, _events = play(examples(["2D"], stored=[["3H"], [], []]), attack(1))
    return state


def giving() -> ShieldState:
    state, _events = play(in_play(), change(0))
    return state


@pytest.mark.parametrize(
    ("state_of", "seat", "move", "message"),
    [
        (in_play, 0, attack(0), "You cannot attack yourself."),
        (in_play, 0, attack(7), "There is no player in seat 7."),
        (in_play, 0, attack(-1), "There is no player in seat -1."),
        (in_play, 0, {"type": "attack"}, "Say which player"),
        (in_play, 0, attack("1"), "Say which player"),  # type: ignore[arg-type]
        (in_play, 0, attack(True), "Say which player"),  # type: ignore[arg-type]
        (in_play, 1, attack(0), "It is not your turn."),
        (in_play, 1, STORE, "It is not your turn."),
        (in_play, 0, boost(1), "Choose your action first"),
        (in_play, 0, END_TURN, "Choose your action first"),
        (in_play, 0, give(1), "Choose your action first"),
        (in_play, 0, choose("JH"), "The setup is over"),
        (in_play, 0, CONFIRM, "The setup is over"),
        (in_play, 0, {"type": "store", "target": 1}, "has no “target”"),
        (in_play, 0, {"type": "fly"}, "Shield moves:"),
        (in_play, 0, {"kind": "store"}, "Shield moves:"),
        (in_play, 0, "store", "Shield moves:"),  # type: ignore[arg-type]
        (in_play, 9, STORE, "There is no such seat"),
        (in_setup, 0, STORE, "once every player has confirmed"),
        (in_setup, 0, choose("1H"), "“1H” is not a card."),
        (in_setup, 0, {"type": "choose_shield"}, "Say which card is your shield"),
        (boosting, 0, boost(2), "You have 1 stored card, not 2."),
        (boosting, 0, boost(0), '"count" is 1 or more'),
        (boosting, 0, STORE, "Your attack is drawn"),
        (boosting, 0, attack(2), "Your attack is drawn"),
        (giving, 0, STORE, "Your action is done"),
        (giving, 0, give(0), "You cannot give cards to yourself"),
        (giving, 0, give(1, 5), "You have 1 stored card, not 5."),
        (giving, 0, {"type": "give", "target": 1}, '"count" is 1 or more'),
    ],
)
def test_bad_moves_are_refused_with_a_readable_message(
    state_of: Any, seat: int, move: Any, message: str
) -> None:
    state = state_of()
    assert not GAME.is_legal(state, seat, move)
    with pytest.raises(IllegalMove, match=message) as refused:
        GAME.apply(state, seat, move)
    assert refused.value.message


def test_boosting_with_no_stored_cards_is_refused() -> None:
    state = examples(["6D"], boost="before_draw")
    with pytest.raises(IllegalMove, match="You have no stored cards, not 1."):
        GAME.apply(state, 0, attack(1, boost=1))


# --- options and fixed deals --------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"boost": "never"}, '"boost" option'),
        ({"start_tie": "age"}, '"start_tie" option'),
        ({"colour": "red"}, "no option “colour”"),
        ({"deal": {"deck": ["AS"]}}, "lists all 52 cards once"),
        ({"deal": {"hands": [["AS"]] * 3, "deck": []}}, "one entry per seat"),
        ({"deal": {"hands": [["AS", "2S", "3S"], ["4S"]], "deck": []}}, "exactly four cards"),
        ({"deal": {"deck": list(NAMES), "turn": 1}}, "has no “turn”"),
        ({"deal": "shuffle"}, "A Shield deal is"),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidOptions, match=message):
        GAME.new(2, SEED, options)


def test_a_deal_must_place_every_card_once_and_shields_from_the_hands() -> None:
    hands = [["AC", "2C", "3C", "4C"], ["AD", "2D", "3D", "4D"]]
    rest = [name for name in NAMES if name not in hands[0] + hands[1]]
    with pytest.raises(InvalidOptions, match="all 52 cards exactly once"):
        GAME.new(2, SEED, {"deal": {"hands": hands, "deck": rest[1:]}})
    with pytest.raises(InvalidOptions, match="must be one of its four cards"):
        GAME.new(2, SEED, {"deal": {"hands": hands, "deck": rest, "shields": ["4C", "KS"]}})
    with pytest.raises(InvalidOptions, match='"hp" only together with "shields"'):
        GAME.new(2, SEED, {"deal": {"hands": hands, "deck": rest, "hp": [3, 3]}})
    with pytest.raises(InvalidOptions, match="“ZZ” is not a card"):
        GAME.new(2, SEED, {"deal": {"hands": [["ZZ"] * 4, hands[1]], "deck": rest}})


def test_the_defaults_are_the_literal_readings() -> None:
    view = GAME.view(GAME.new(2, SEED), 0)
    assert view["options"] == {"boost": "after_draw", "start_tie": "shield"}


# --- the bounded legal moves --------------------------------------------------------------


def test_an_actions_moves_are_every_shield_a_store_and_every_attack() -> None:
    state = examples()
    assert GAME.legal_moves(state, 0) == [
        change(0),
        change(1),
        change(2),
        STORE,
        attack(1),
        attack(2),
    ]
    assert GAME.legal_moves(state, 1) == []


def test_counts_not_listed_are_still_legal() -> None:
    state = examples(["2D"], stored=[["3H", "4H", "5H", "6H"], [], []])
    state, _events = play(state, attack(1))
    assert GAME.legal_moves(state, 0) == [RESOLVE, boost(1), boost(4)]
    assert GAME.is_legal(state, 0, boost(3))
    state, _events = play(state, boost(3), RESOLVE)
    moves = GAME.legal_moves(state, 0)
    assert moves == [END_TURN, give(1), give(2)]  # one card left
    before = examples(stored=[["3H", "4H", "5H", "6H"], [], []], boost="before_draw")
    listed = [m.get("boost") for m in GAME.legal_moves(before, 0) if m["type"] == "attack"]
    assert listed == [0, 1, 4, 0, 1, 4]
    assert GAME.is_legal(before, 0, attack(2, boost=2))


def test_eight_players_keep_the_lists_small() -> None:
    hands = [NAMES[4 * seat : 4 * seat + 4] for seat in range(8)]
    shields = [hand[3] for hand in hands]
    stored = [[] for _ in range(8)]
    stored[0] = list(NAMES[32:40])
    state = position(hands, shields=shields, stored=stored, boost="before_draw")
    (seat,) = GAME.to_act(state)
    moves = GAME.legal_moves(state, seat)
    assert len(moves) <= 30 and all(GAME.is_legal(state, seat, move) for move in moves)
