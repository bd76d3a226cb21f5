"""BaniraCards, rule by rule, from fixed deals (decisions in docs/rules/banira.md)."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

from games.engine import registry
from games.engine.banira.cards import DECK_SIZE, ELEMENTS, SLOT_INDEX, SLOTS
from games.engine.banira.default_deck import DEFAULT_DECK
from games.engine.banira.rules import has_legal_move
from games.engine.banira.state import BaniraState
from games.engine.core import IllegalMove, InvalidOptions, replay

GAME = registry.get("banira")
SEED = bytes.fromhex("b4a7" * 16)
DRAW = {"type": "draw"}
BOOST = {"type": "boost"}


def seed_for(index: int) -> bytes:
    return hashlib.sha256(f"banira-rules:{index}".encode()).digest()


def card(
    card_id: str,
    element: str = "ruby",
    card_type: str = "sun",
    rarity: str = "gold",
    points: int = 0,
    stamina: int = 0,
    draws: int = 0,
) -> dict[str, Any]:
    return {
        "id": card_id,
        "name": f"Card {card_id}",
        "element": element,
        "type": card_type,
        "rarity": rarity,
        "points": points,
        "stamina": stamina,
        "draws": draws,
    }


def filler(count: int) -> list[dict[str, Any]]:
    """Plain cards (Diamond Star bronze, no stats): they fit only Diamond and Flex."""
    return [card(f"x{n}", "diamond", "star", "bronze") for n in range(count)]


def deck_of(*cards: dict[str, Any]) -> list[dict[str, Any]]:
    return list(cards) + filler(DECK_SIZE - len(cards))


def position(
    hand: Sequence[dict[str, Any]],
    deck: Sequence[dict[str, Any]] = (),
    *,
    field: Mapping[str, Sequence[dict[str, Any]]] | None = None,
    unlocked: Iterable[str] = (),
    discard: Sequence[dict[str, Any]] = (),
    points: int = 1,
    stamina: int = 1,
    score: int = 50,
    rest: str = "deck",
) -> BaniraState:
    """A run in this exact position. The filler cards that complete the 50 go to the end of
    the deck (rest="deck") or to the discard pile (rest="discard")."""
    field = field or {}
    stacks = [card for stack in field.values() for card in stack]
    chosen = list(hand) + list(deck) + stacks + list(discard)
    cards = deck_of(*chosen)
    state = GAME.new(1, SEED, {"deck": cards, "deal": [entry["id"] for entry in cards]})
    index = state.setup.index

    def ints(entries: Iterable[dict[str, Any]]) -> tuple[int, ...]:
        return tuple(index[entry["id"]] for entry in entries)

    rest_cards = ints(cards[len(chosen) :])
    board = [()] * len(SLOTS)
    for slot, stack in field.items():
        board[SLOT_INDEX[slot]] = ints(stack)
    mask = 0
    for slot in list(unlocked) + list(field):
        mask |= 1 << SLOT_INDEX[slot]
    return state.replace(
        hand=ints(hand),
        deck=ints(deck) + (rest_cards if rest == "deck" else ()),
        discard=ints(discard) + (rest_cards if rest == "discard" else ()),
        field=tuple(board),
        unlocked=mask,
        points=points,
        stamina=stamina,
        score=score,
    )


def play(card_id: str, slot: str) -> dict[str, Any]:
    return {"type": "play", "card": card_id, "slot": slot}


def unlock(slot: str) -> dict[str, Any]:
    return {"type": "unlock", "slot": slot}


def discard(card_id: str) -> dict[str, Any]:
    return {"type": "discard", "card": card_id}


def apply(state: BaniraState, *moves: dict[str, Any]) -> tuple[BaniraState, list[dict]]:
    """Each move in turn; the events of the last one, as JSON."""
    events: list[Any] = []
    for move in moves:
        state, events = GAME.apply(state, 0, move)
    return state, [event.to_json() for event in events]


def refused(state: BaniraState, move: dict[str, Any], message: str) -> None:
    assert not GAME.is_legal(state, 0, move)
    assert move not in GAME.legal_moves(state, 0)
    with pytest.raises(IllegalMove, match=message):
        GAME.apply(state, 0, move)


def ids(cards: Iterable[Mapping[str, Any]]) -> list[str]:
    return [entry["id"] for entry in cards]


def hand_ids(state: BaniraState) -> list[str]:
    return ids(GAME.view(state, 0)["hand"])


def counters(state: BaniraState) -> tuple[int, int, int]:
    return state.points, state.stamina, state.score


# --- the start of a run -------------------------------------------------------------------


def test_a_run_starts_with_four_cards_one_point_one_stamina_and_a_score_of_fifty() -> None:
    state = GAME.new(1, SEED)
    view = GAME.view(state, 0)
    assert len(view["hand"]) == 4 and view["deck_count"] == 46 and view["overflow_count"] == 0
    assert (view["points"], view["stamina"], view["score"], view["plays"]) == (1, 1, 50, 0)
    assert view["discard"] == [] and view["to_act"] == [0] and view["status"] == "running"
    assert [slot["unlocked"] for slot in view["field"]] == [False] * 10
    assert [slot["slot"] for slot in view["field"]] == list(ELEMENTS) + ["sun", "moon", "flex"]
    assert view["unlock_cost"] == 1 and view["empty_cost"] == 1
    assert GAME.outcome(state) is None


def test_the_seed_shuffles_the_deck() -> None:
    assert GAME.new(1, SEED) == GAME.new(1, SEED)
    orders = {GAME.new(1, seed_for(index)).deck for index in range(20)}
    assert len(orders) == 20
    state = GAME.new(1, seed_for(0))
    assert sorted(state.hand + state.deck) == list(range(DECK_SIZE))


def test_a_fixed_deal_sets_the_deck_order_top_first() -> None:
    order = list(reversed(ids(DEFAULT_DECK)))
    state = GAME.new(1, SEED, {"deal": order})
    assert hand_ids(state) == order[:4]
    assert [state.setup.cards[card].id for card in state.deck] == order[4:]
    assert GAME.new(1, seed_for(3), {"deal": order}) == state  # the seed no longer matters


def test_the_default_deck_is_used_without_a_deck_option() -> None:
    state = GAME.new(1, SEED)
    assert [entry.to_json() for entry in state.setup.cards] == DEFAULT_DECK
    assert GAME.new(1, SEED, {"deck": DEFAULT_DECK}) == state


def test_the_default_deck_composition() -> None:
    assert len(DEFAULT_DECK) == 50 and len(set(ids(DEFAULT_DECK))) == 50
    for entry in DEFAULT_DECK:
        total = entry["points"] + entry["stamina"] + entry["draws"]
        assert total == (10 if entry["type"] == "star" else 8), entry
    assert Counter(entry["type"] for entry in DEFAULT_DECK) == {"sun": 18, "moon": 18, "star": 14}
    assert Counter(entry["rarity"] for entry in DEFAULT_DECK) == {
        "rainbow": 7,
        "gold": 11,
        "silver": 12,
        "bronze": 13,
        "shiny": 7,
    }
    for element in ELEMENTS:
        cards = [entry for entry in DEFAULT_DECK if entry["element"] == element]
        assert len(cards) == (8 if element == "diamond" else 7)
        rarities = Counter(entry["rarity"] for entry in cards)
        assert rarities["rainbow"] == rarities["shiny"] == 1, element
        assert sum(entry["type"] == "star" for entry in cards) == 2, element
    negative = [
        entry
        for entry in DEFAULT_DECK
        if min(entry["points"], entry["stamina"], entry["draws"]) < 0
    ]
    assert len(negative) == 15
    assert sum(entry["points"] for entry in DEFAULT_DECK) == 135
    assert sum(entry["stamina"] for entry in DEFAULT_DECK) == 184
    assert sum(entry["draws"] for entry in DEFAULT_DECK) == 109


def test_the_run_is_played_by_exactly_one_seat() -> None:
    assert (GAME.min_seats, GAME.max_seats, GAME.slug, GAME.name) == (1, 1, "banira", "BaniraCards")
    with pytest.raises(InvalidOptions, match="exactly one seat"):
        GAME.new(2, SEED)
    state = GAME.new(1, SEED)
    assert GAME.legal_moves(state, 1) == []
    with pytest.raises(IllegalMove, match="one seat"):
        GAME.apply(state, 1, BOOST)


# --- the deck and the deal as data ----------------------------------------------------------


def _with(index: int, **changes: Any) -> list[dict[str, Any]]:
    cards = [dict(entry) for entry in DEFAULT_DECK]
    cards[index].update(changes)
    return cards


@pytest.mark.parametrize(
    ("deck", "message"),
    [
        ("fifty cards", "is a list of 50 cards"),
        (DEFAULT_DECK[:49], "exactly 50 cards, not 49"),
        (DEFAULT_DECK + DEFAULT_DECK[:1], "exactly 50 cards, not 51"),
        (_with(3, id="aq1"), "Two cards of the deck have the id “aq1”"),
        (_with(0, element="fire"), "the element must be one of aquamarine, .*not “fire”"),
        (_with(0, type="comet"), "the type must be one of sun, moon, star, not “comet”"),
        (_with(0, rarity="platinum"), "rarity must be one of rainbow, .*not “platinum”"),
        (_with(0, points=2.5), "“points” must be a whole number from -20 to 20, not 2.5"),
        (_with(0, draws=True), "“draws” must be a whole number"),
        (_with(0, stamina=21), "“stamina” must be a whole number from -20 to 20, not 21"),
        (_with(0, id=""), "Card 1 of the deck .*: the id must be a non-empty text"),
        (_with(0, id=7), "the id must be a non-empty text"),
        (_with(0, name=None), "Card 1 of the deck: the name must be a non-empty text"),
        (_with(0, art="x.svg"), "has an unknown field “art”"),
        ([{**entry, "draw": 1} for entry in DEFAULT_DECK], "unknown field “draw”"),
        ([{k: v for k, v in e.items() if k != "draws"} for e in DEFAULT_DECK], "has no “draws”"),
        (["aq1"] * 50, "Card 1 of the deck is not a card"),
    ],
)
def test_a_bad_deck_is_refused_with_a_readable_message(deck: Any, message: str) -> None:
    with pytest.raises(InvalidOptions, match=message):
        GAME.new(1, SEED, {"deck": deck})


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        ("aq1 aq2", "a list of all 50 card ids"),
        (ids(DEFAULT_DECK)[:49], "The deal names 49 cards"),
        (ids(DEFAULT_DECK)[:49] + ["aq1"], "names a card twice"),
        (ids(DEFAULT_DECK)[:49] + ["zz9"], "“zz9”, which is not in the deck"),
        (list(range(50)), "“0”, which is not in the deck"),
    ],
)
def test_a_bad_deal_is_refused(deal: Any, message: str) -> None:
    with pytest.raises(InvalidOptions, match=message):
        GAME.new(1, SEED, {"deal": deal})


def test_unknown_options_are_refused() -> None:
    with pytest.raises(InvalidOptions, match="no option “seats”"):
        GAME.new(1, SEED, {"seats": 1})
    with pytest.raises(InvalidOptions, match="JSON object"):
        GAME.new(1, SEED, ["deck"])  # type: ignore[arg-type]


# --- unlocking ------------------------------------------------------------------------------


def test_unlocking_costs_one_point_then_one_more_each_time() -> None:
    state = position([card("a")], points=10)
    state, events = apply(state, unlock("ruby"))
    assert events == [{"type": "unlocked", "slot": "ruby", "cost": 1}]
    state, _ = apply(state, unlock("flex"))
    state, events = apply(state, unlock("moon"))
    assert events[0]["cost"] == 3
    assert state.points == 10 - 1 - 2 - 3
    assert GAME.view(state, 0)["unlock_cost"] == 4
    assert state.score == 50  # unlocking costs no score


def test_unlocking_needs_the_points() -> None:
    state = position([card("a")], unlocked=["ruby", "sun"], points=2)
    refused(state, unlock("moon"), "costs 3 points and you have 2")
    assert not [move for move in GAME.legal_moves(state, 0) if move["type"] == "unlock"]


def test_a_slot_is_unlocked_once() -> None:
    state = position([card("a")], unlocked=["ruby"], points=5)
    refused(state, unlock("ruby"), "already unlocked")
    refused(state, unlock("fire"), "There is no slot “fire”")


def test_the_slots_are_any_order_and_all_ten_can_be_unlocked() -> None:
    state = position([card("a")], points=55)
    for slot in reversed(SLOTS):
        state, _ = apply(state, unlock(slot))
    assert state.points == 0 and GAME.view(state, 0)["unlock_cost"] is None
    assert not [move for move in GAME.legal_moves(state, 0) if move["type"] == "unlock"]


# --- playing: where a card fits -----------------------------------------------------------


def test_a_card_cannot_be_played_onto_a_locked_slot() -> None:
    state = position([card("a")], stamina=5)
    refused(state, play("a", "ruby"), "The Ruby slot is locked: unlock it first \\(1 point\\)")


def test_a_card_fits_its_element_its_type_and_flex() -> None:
    sun = card("a", "ruby", "sun")
    state = position([sun], unlocked=SLOTS, stamina=5)
    legal = {move["slot"] for move in GAME.legal_moves(state, 0) if move["type"] == "play"}
    assert legal == {"ruby", "sun", "flex"}
    refused(state, play("a", "moon"), "a Ruby Sun card: it fits Ruby, Sun, Flex, not Moon")
    refused(state, play("a", "topaz"), "not Topaz")


def test_a_star_card_fits_only_its_element_and_flex() -> None:
    star = card("a", "topaz", "star")
    state = position([star], unlocked=SLOTS, stamina=5)
    legal = {move["slot"] for move in GAME.legal_moves(state, 0) if move["type"] == "play"}
    assert legal == {"topaz", "flex"}
    refused(state, play("a", "sun"), "it fits Topaz, Flex, not Sun")


# --- playing: what it costs and gives -------------------------------------------------------


def test_an_empty_slot_costs_one_stamina_then_one_more_each_time() -> None:
    hand = [card("a", "ruby"), card("b", "topaz"), card("c", "emerald")]
    state = position(hand, unlocked=["ruby", "topaz", "emerald"], stamina=6)
    state, events = apply(state, play("a", "ruby"))
    assert events[0]["cost"] == 1 and not events[0]["stacked"]
    assert GAME.view(state, 0)["empty_cost"] == 2
    state, events = apply(state, play("b", "topaz"))
    assert events[0]["cost"] == 2
    state, events = apply(state, play("c", "emerald"))
    assert events[0]["cost"] == 3
    assert state.stamina == 0


def test_a_play_gains_the_cards_points_stamina_and_draws_and_eight_score() -> None:
    gem = card("a", "ruby", points=3, stamina=2, draws=2)
    state = position([gem], [card("d1"), card("d2"), card("d3")], unlocked=["ruby"], stamina=1)
    state, events = apply(state, play("a", "ruby"))
    assert counters(state) == (1 + 3, 1 - 1 + 2, 58)
    assert hand_ids(state) == ["d1", "d2"] and len(state.deck) == 1 + 46
    assert state.plays == 1
    played, drew = events[0], events[1]
    assert played == {
        "type": "played",
        "card": gem,
        "slot": "ruby",
        "cost": 1,
        "stacked": False,
        "depth": 1,
        "score_gain": 8,
    }
    assert drew["count"] == 2 and ids(drew["to_hand"]) == ["d1", "d2"] and not drew["manual"]
    view = GAME.view(state, 0)
    assert view["last_play"] == {"card": gem, "slot": "ruby"}
    assert view["field"][SLOT_INDEX["ruby"]]["top"] == gem


def test_a_shiny_play_scores_four() -> None:
    state = position([card("a", rarity="shiny")], unlocked=["ruby"], stamina=1)
    state, events = apply(state, play("a", "ruby"))
    assert state.score == 54 and events[0]["score_gain"] == 4


# --- playing: stacking ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("top", "played", "cost"),
    [
        ("rainbow", "gold", 0),
        ("rainbow", "bronze", 0),
        ("gold", "silver", 3),
        ("silver", "bronze", 6),
        ("bronze", "shiny", 9),
        ("shiny", "gold", 4),
    ],
)
def test_stacking_costs_by_the_rarity_of_the_top_card(top: str, played: str, cost: int) -> None:
    state = position(
        [card("a", rarity=played)], field={"ruby": [card("t", rarity=top)]}, stamina=cost
    )
    assert GAME.view(state, 0)["field"][SLOT_INDEX["ruby"]]["cost"] == cost
    state, events = apply(state, play("a", "ruby"))
    assert events[0]["cost"] == cost and events[0]["stacked"] and events[0]["depth"] == 2
    assert state.stamina == 0
    assert GAME.view(state, 0)["empty_cost"] == 2  # a stack does not count as an empty play


@pytest.mark.parametrize(
    ("top", "played"),
    [
        ("gold", "rainbow"),
        ("gold", "gold"),
        ("silver", "gold"),
        ("bronze", "silver"),
        ("bronze", "bronze"),
        ("bronze", "rainbow"),
        ("rainbow", "rainbow"),
    ],
)
def test_a_card_stacks_only_onto_a_higher_rarity(top: str, played: str) -> None:
    state = position(
        [card("a", rarity=played)], field={"ruby": [card("t", rarity=top)]}, stamina=20
    )
    refused(state, play("a", "ruby"), f"\\({played}\\) cannot be stacked onto Card t \\({top}\\)")


@pytest.mark.parametrize("top", ["rainbow", "gold", "silver", "bronze", "shiny"])
def test_a_shiny_stacks_onto_any_card(top: str) -> None:
    state = position(
        [card("a", rarity="shiny")], field={"ruby": [card("t", rarity=top)]}, stamina=20
    )
    assert GAME.is_legal(state, 0, play("a", "ruby"))


@pytest.mark.parametrize("played", ["rainbow", "gold", "silver", "bronze", "shiny"])
def test_any_card_stacks_onto_a_shiny_for_four_stamina(played: str) -> None:
    state = position(
        [card("a", rarity=played)], field={"ruby": [card("t", rarity="shiny")]}, stamina=4
    )
    state, events = apply(state, play("a", "ruby"))
    assert events[0]["cost"] == 4


def test_the_view_says_what_each_stack_accepts_next() -> None:
    field = {
        "ruby": [card("r", rarity="rainbow")],
        "topaz": [card("g", "topaz", rarity="gold")],
        "sun": [card("b", rarity="bronze")],
        "moon": [card("s", card_type="moon", rarity="shiny")],
    }
    state = position([card("a")], field=field, unlocked=["flex"])
    slots = {slot["slot"]: slot for slot in GAME.view(state, 0)["field"]}
    assert slots["ruby"]["accepts"] == ["gold", "silver", "bronze", "shiny"]
    assert slots["topaz"]["accepts"] == ["silver", "bronze", "shiny"]
    assert slots["sun"]["accepts"] == ["shiny"]
    assert slots["moon"]["accepts"] == ["rainbow", "gold", "silver", "bronze", "shiny"]
    assert slots["flex"]["accepts"] == ["rainbow", "gold", "silver", "bronze", "shiny"]
    assert [slots[name]["cost"] for name in ("ruby", "topaz", "sun", "moon", "flex")] == [
        0,
        3,
        9,
        4,
        5,  # empty: four slots are covered
    ]
    assert slots["emerald"]["cost"] is None and slots["emerald"]["unlock_cost"] == 6
    assert slots["ruby"]["unlock_cost"] is None
    assert slots["ruby"]["depth"] == 1 and slots["ruby"]["stack"] == ["r"]


# --- playing: what the player can afford -------------------------------------------------------


def test_a_play_costing_more_stamina_than_held_is_refused() -> None:
    cheap = card("a", rarity="silver")
    state = position([cheap], field={"ruby": [card("t", rarity="gold")]}, stamina=2)
    refused(state, play("a", "ruby"), "That play costs 3 stamina and you have 2")


def test_the_cost_is_paid_before_the_card_gives_stamina() -> None:
    # The card would give 5 stamina, but the 3 are due first.
    rich = card("a", rarity="silver", stamina=5)
    state = position([rich], field={"ruby": [card("t", rarity="gold")]}, stamina=2)
    refused(state, play("a", "ruby"), "costs 3 stamina and you have 2")


def test_a_card_may_not_take_stamina_below_zero() -> None:
    drain = card("a", stamina=-2)
    state = position([drain], unlocked=["ruby"], stamina=2)  # pays 1, then 1 - 2 < 0
    refused(state, play("a", "ruby"), "takes 2 stamina: after paying 1 you would have -1")
    state = position([drain], unlocked=["ruby"], stamina=3)
    state, _ = apply(state, play("a", "ruby"))
    assert state.stamina == 0


def test_a_card_may_not_take_points_below_zero() -> None:
    greedy = card("a", points=-3)
    state = position([greedy], unlocked=["ruby"], points=2, stamina=1)
    refused(state, play("a", "ruby"), "takes 3 points and you have 2")
    state = position([greedy], unlocked=["ruby"], points=3, stamina=1)
    state, _ = apply(state, play("a", "ruby"))
    assert state.points == 0


def test_the_costs_map_shows_every_play_before_it_is_made() -> None:
    hand = [card("a", "ruby", "sun"), card("b", "topaz", "moon", stamina=-9)]
    state = position(hand, field={"ruby": [card("t", rarity="rainbow")]}, unlocked=["moon"])
    costs = GAME.view(state, 0)["costs"]
    assert set(costs) == {"a", "b"} and all(len(row) == 10 for row in costs.values())
    assert costs["a"]["ruby"] == {"legal": True, "cost": 0, "reason": None}
    assert costs["a"]["moon"]["cost"] is None and "not Moon" in costs["a"]["moon"]["reason"]
    assert costs["a"]["sun"] == {
        "legal": False,
        "cost": None,
        "reason": "The Sun slot is locked: unlock it first (3 points).",
    }
    assert costs["b"]["moon"]["cost"] == 2 and not costs["b"]["moon"]["legal"]
    assert costs["b"]["moon"]["reason"].startswith("That play costs 2 stamina")
    for card_id, row in costs.items():
        for slot, entry in row.items():
            assert entry["legal"] == GAME.is_legal(state, 0, play(card_id, slot))


# --- draws ------------------------------------------------------------------------------------


def test_a_hand_holds_seven_and_the_rest_waits_in_the_overflow() -> None:
    hand = [card(f"h{n}") for n in range(5)] + [card("a", draws=4)]
    deck = [card(f"d{n}") for n in range(4)]
    state = position(hand, deck, unlocked=["ruby"])
    state, events = apply(state, play("a", "ruby"))
    assert hand_ids(state) == ["h0", "h1", "h2", "h3", "h4", "d0", "d1"]
    view = GAME.view(state, 0)
    assert view["overflow_count"] == 2
    assert events[1]["to_overflow"] == 2 and ids(events[1]["to_hand"]) == ["d0", "d1"]
    assert "d2" in ids(view["unseen"]) and "d2" not in json.dumps(view["hand"])


def test_overflow_cards_enter_the_hand_when_room_appears() -> None:
    hand = [card(f"h{n}") for n in range(7)] + [card("o1"), card("o2")]
    state = position(hand, unlocked=["ruby"], stamina=1)
    state, events = apply(state, discard("h2"))
    assert hand_ids(state) == ["h0", "h1", "h3", "h4", "h5", "h6", "o1"]
    assert events[-1] == {"type": "overflow_entered", "cards": [card("o1")]}
    state, events = apply(state, play("h0", "ruby"))
    assert hand_ids(state)[-1] == "o2" and GAME.view(state, 0)["overflow_count"] == 0


def test_an_overflow_card_cannot_be_played_or_discarded() -> None:
    hand = [card(f"h{n}") for n in range(7)] + [card("o1")]
    state = position(hand, [card("d1")], unlocked=["ruby"], stamina=1)
    refused(state, play("o1", "ruby"), "Card o1 is not in your hand")
    refused(state, discard("o1"), "Card o1 is not in your hand")
    refused(state, discard("d1"), "Card d1 is not in your hand")  # the same answer as the deck
    refused(state, discard("nope"), "There is no card “nope” in this deck")


def test_a_draw_larger_than_the_deck_draws_what_is_there() -> None:
    state = position([card("a", draws=3)], [card("d1")], unlocked=["ruby"], rest="discard")
    state, events = apply(state, play("a", "ruby"))
    assert hand_ids(state) == ["d1"] and state.deck == ()
    assert events[1]["count"] == 1 and events[1]["short"] == 2


def test_negative_draws_take_cards_from_the_hand_right_to_left_then_the_deck() -> None:
    hand = [card("h1"), card("h2"), card("a", draws=-4)]
    state = position(hand, [card("d1"), card("d2"), card("d3")], unlocked=["ruby"])
    state, events = apply(state, play("a", "ruby"))
    assert hand_ids(state) == []
    assert [state.setup.cards[c].id for c in state.deck[:1]] == ["d3"]
    assert ids(GAME.view(state, 0)["discard"]) == ["h2", "h1", "d1", "d2"]  # face up
    assert events[1] == {
        "type": "removed",
        "cards": [card("h2"), card("h1"), card("d1"), card("d2")],
        "from_hand": 2,
        "from_overflow": 0,
        "from_deck": 2,
        "short": 0,
    }


def test_negative_draws_take_the_overflow_first() -> None:
    hand = [card(f"h{n}") for n in range(6)] + [card("a", draws=-2)] + [card("o1"), card("o2")]
    state = position(hand, unlocked=["ruby"])
    state, events = apply(state, play("a", "ruby"))
    # The play made room for o1; the two cards removed are then o2, then o1 (right to left).
    assert [event["type"] for event in events] == ["played", "overflow_entered", "removed"]
    assert hand_ids(state) == [f"h{n}" for n in range(6)]
    assert ids(events[2]["cards"]) == ["o2", "o1"]
    assert events[2]["from_overflow"] == 1 and events[2]["from_hand"] == 1


def test_negative_draws_beyond_every_card_remove_what_there_is() -> None:
    state = position([card("a", draws=-3)], [card("d1")], unlocked=["ruby"], rest="discard")
    state, events = apply(state, play("a", "ruby"))
    assert state.hand == () and state.deck == () and events[1]["short"] == 2


# --- manual draw, discard, boost -----------------------------------------------------------------


def test_a_manual_draw_costs_two_score() -> None:
    state = position([card("a")], [card("d1"), card("d2")])
    state, events = apply(state, DRAW)
    assert hand_ids(state) == ["a", "d1"] and state.score == 48
    assert events[0]["manual"] and events[0]["score_cost"] == 2


def test_a_manual_draw_needs_a_card_and_two_score() -> None:
    refused(position([card("a")], rest="discard"), DRAW, "The deck is empty")
    refused(position([card("a")], [card("d")], score=1), DRAW, "costs 2 score and your score is 1")


def test_a_discard_costs_one_score_and_goes_face_up() -> None:
    state = position([card("a"), card("b")])
    state, events = apply(state, discard("a"))
    assert hand_ids(state) == ["b"] and state.score == 49
    assert ids(GAME.view(state, 0)["discard"]) == ["a"]
    assert events == [{"type": "discarded", "card": card("a"), "score_cost": 1}]
    refused(position([card("a")], [card("d")], score=0), discard("a"), "your score is 0")


def test_a_boost_gives_two_points_and_two_stamina_for_ten_score() -> None:
    state = position([card("a")], points=0, stamina=0, score=25)
    state, events = apply(state, BOOST, BOOST)
    assert counters(state) == (4, 4, 5)
    assert events == [{"type": "boosted", "points": 2, "stamina": 2, "score_cost": 10}]
    refused(state, BOOST, "Boosting costs 10 score and your score is 5")


def test_the_view_says_which_score_moves_are_open() -> None:
    view = GAME.view(position([card("a")], [card("d")], score=9), 0)
    assert (view["can_draw"], view["can_discard"], view["can_boost"]) == (True, True, False)
    assert view["prices"] == {
        "draw": 2,
        "discard": 1,
        "boost": 10,
        "boost_points": 2,
        "boost_stamina": 2,
    }


# --- the end of a run -----------------------------------------------------------------------------


def _nearly_covered(last: dict[str, Any], **counts: Any) -> BaniraState:
    field = {slot: [card(f"t{slot}", rarity="bronze")] for slot in SLOTS if slot != "flex"}
    return position([last, card("spare")], field=field, unlocked=["flex"], **counts)


def test_covering_the_tenth_slot_ends_the_run_with_its_score() -> None:
    state = _nearly_covered(card("last", draws=2), stamina=10, score=73)
    assert GAME.view(state, 0)["empty_cost"] == 10
    state, events = apply(state, play("last", "flex"))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.to_json() == {
        "winners": [0],
        "ranking": [[0]],
        "reason": "complete",
        "scores": [81],
    }
    assert events[-1] == {"type": "run_complete", "score": 81, "plays": 1}
    assert GAME.to_act(state) == () and GAME.legal_moves(state, 0) == []
    view = GAME.view(state, 0)
    assert view["status"] == "complete" and view["last_play"]["card"]["id"] == "last"
    assert all(not entry["legal"] for entry in view["costs"]["spare"].values())
    refused(state, BOOST, "The run is over")


def test_a_run_with_no_legal_move_left_is_stuck_and_scores_zero() -> None:
    # Score 1 after the discard, nothing fits, the deck is empty: no move is legal.
    state = position(
        [card("a", "topaz"), card("b", "topaz")],
        unlocked=["ruby"],
        score=2,
        points=0,
        rest="discard",
    )
    state, events = apply(state, discard("a"))
    assert GAME.outcome(state) is None  # one discard is still open
    state, events = apply(state, discard("b"))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.to_json() == {
        "winners": [],
        "ranking": [[0]],
        "reason": "stuck",
        "scores": [0],
    }
    assert events[-1] == {"type": "run_stuck", "score": 0, "score_left": 0}
    assert GAME.view(state, 0)["status"] == "stuck" and GAME.to_act(state) == ()


@pytest.mark.parametrize(
    ("changes", "is_stuck"),
    [
        ({}, True),
        ({"score": 10}, False),  # a boost
        ({"score": 2, "deck": True}, False),  # a draw
        ({"score": 1, "hand": True}, False),  # a discard
        ({"points": 3}, False),  # an unlock (the third costs 3)
        ({"stamina": 1, "hand": True, "score": 0}, False),  # the ruby card onto the Ruby slot
        ({"stamina": 0, "hand": True, "score": 0}, True),  # ...which it cannot pay for
    ],
)
def test_stuck_means_no_legal_move_of_any_kind(changes: dict[str, Any], is_stuck: bool) -> None:
    hand = [card("r", "ruby")] if changes.get("hand") else []
    deck = [card("d")] if changes.get("deck") else []
    state = position(
        hand,
        deck,
        unlocked=["ruby", "topaz"],
        points=changes.get("points", 2),
        stamina=changes.get("stamina", 0),
        score=changes.get("score", 0),
        rest="discard",
    )
    assert has_legal_move(state) is not is_stuck
    assert bool(GAME.legal_moves(state, 0)) is not is_stuck


def test_giving_up_scores_zero() -> None:
    state = GAME.new(1, SEED)
    for reason in ("resign", "timeout"):
        outcome = GAME.forfeit(state, 0, reason)
        assert outcome.to_json() == {
            "winners": [],
            "ranking": [[0]],
            "reason": reason,
            "scores": [0],
        }


# --- moves --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("move", "message"),
    [
        ("boost", "BaniraCards moves"),
        ({"type": "pass"}, "BaniraCards moves"),
        ({"type": "boost", "card": "a"}, "A “boost” move has no “card”"),
        ({"type": "play", "card": "a"}, "Say which slot to play"),
        ({"type": "play", "slot": "ruby"}, "Say which card to play"),
        ({"type": "unlock"}, "Say which slot to unlock"),
        ({"type": "play", "card": 0, "slot": "ruby"}, "There is no card “0”"),
        ({"type": "play", "card": "a", "slot": 3}, "There is no slot “3”"),
    ],
)
def test_malformed_moves_are_refused(move: Any, message: str) -> None:
    state = position([card("a")], unlocked=["ruby"])
    with pytest.raises(IllegalMove, match=message):
        GAME.apply(state, 0, move)
    assert not GAME.is_legal(state, 0, move)


def test_legal_moves_list_exactly_the_accepted_moves_in_a_fixed_order() -> None:
    hand = [card("a", "ruby", "sun", "gold"), card("b", "topaz", "star", "shiny")]
    state = position(
        hand,
        [card("d")],
        field={"ruby": [card("t", rarity="rainbow")]},
        unlocked=["flex", "sun"],
        points=4,  # three slots are open: the fourth costs 4
        stamina=3,
        score=10,
    )
    moves = GAME.legal_moves(state, 0)
    assert moves == [
        play("a", "ruby"),
        play("a", "sun"),
        play("a", "flex"),
        play("b", "flex"),
        *[unlock(slot) for slot in SLOTS if slot not in ("ruby", "sun", "flex")],
        discard("a"),
        discard("b"),
        DRAW,
        BOOST,
    ]
    candidates = [play(c, s) for c in ("a", "b", "d", "t") for s in SLOTS]
    candidates += [unlock(s) for s in SLOTS] + [discard(c) for c in ("a", "b", "d")]
    for move in candidates + [DRAW, BOOST]:
        assert GAME.is_legal(state, 0, move) == (move in moves), move


def test_a_played_log_replays_to_the_same_run() -> None:
    state = GAME.new(1, SEED)
    moves = [(0, BOOST), (0, {"type": "unlock", "slot": "flex"}), (0, DRAW)]
    for _seat, move in moves:
        state, _ = GAME.apply(state, 0, move)
    replayed, _events = replay(GAME, 1, SEED, None, moves)
    assert replayed == state and counters(state) == (2, 3, 38)
