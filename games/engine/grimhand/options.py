"""Grimhand Tactics match options and fixed deals: checked, then turned into the first state.

Invariants:
- `OPTIONS` is the schema: every option a player may choose, its default and its range;
  a name outside it (and "deal") is refused.
- Every problem is an `InvalidOptions` whose message a person can read.
- A dealt match (no "deal") shuffles the attack deck, then the defense deck, then flips
  the coin for the first player, all from `Chance(seed, "grimhand/setup")`, in that order.
- A fixed deal may hold any cards (short decks, any multiset); its composition is what it
  puts in play. It may not break a state invariant (a 13 in a hand, a hand over the
  limit, an empty deck with a full discard pile) or leave the match unable to go on.
- Pure: imports the standard library, `games.engine.core` and this package's `state`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.core import Chance, InvalidOptions, Option
from games.engine.grimhand.state import (
    ATTACK,
    DEATH,
    DECK_INDEX,
    DECKS,
    DEFENSE,
    HAND_LIMIT,
    LUCKY,
    OVERDRAW_RULES,
    VALUES,
    Counts,
    GrimhandState,
    Hand,
    Setup,
    counts_of,
)

COPIES = Option(
    "copies", 4, "How many copies of each value, 1 to 13, each deck holds.", bounds=(2, 8)
)
OVERDRAW = Option(
    "overdraw",
    "flush",
    "What a draw into a full hand does: flush the hand, discard its lowest card, or cost 3 HP.",
    choices=OVERDRAW_RULES,
)
HP = Option("hp", 50, "Each player's HP at the start.", bounds=(10, 200))
OPTIONS = (COPIES, OVERDRAW, HP)
OPTION_NAMES = (*(option.name for option in OPTIONS), "deal")
DEAL_KEYS = ("attack", "defense", "hands", "lucky", "hp", "discards", "first")


def new_state(seats: int, seed: bytes, options: Mapping[str, Any] | None) -> GrimhandState:
    """The first position: dealt from the seed, or the fixed deal of `options["deal"]`."""
    if seats != 2:
        raise InvalidOptions("Grimhand Tactics is played by exactly two players.")
    options = options or {}
    copies, overdraw, start_hp = parse_options(options)
    if "deal" in options:
        return fixed_state(seed, copies, overdraw, start_hp, options["deal"])
    return dealt_state(seed, copies, overdraw, start_hp)


def _whole(value: Any, low: int, high: int, message: str) -> int:
    if type(value) is not int or not low <= value <= high:
        raise InvalidOptions(message)
    return value


def _whole_option(options: Mapping[str, Any], option: Option, what: str) -> int:
    """A whole-number option of the match, its default if absent, within its bounds."""
    assert option.bounds is not None  # every whole-number option has bounds
    low, high = option.bounds
    value = options.get(option.name, option.default)
    return _whole(value, low, high, f"{what} is a whole number from {low} to {high}.")


def parse_options(options: Mapping[str, Any]) -> tuple[int, str, int]:
    """(copies, overdraw rule, starting HP) from the match options, defaults filled in."""
    for name in options:
        if name not in OPTION_NAMES:
            raise InvalidOptions(f"Grimhand Tactics has no option “{name}”.")
    copies = _whole_option(options, COPIES, "The number of copies of each card")
    overdraw = options.get(OVERDRAW.name, OVERDRAW.default)
    if overdraw not in OVERDRAW.choices:
        raise InvalidOptions('The overdraw rule is "flush", "discard_lowest" or "hp_penalty".')
    start_hp = _whole_option(options, HP, "Starting HP")
    return copies, overdraw, start_hp


def dealt_state(seed: bytes, copies: int, overdraw: str, start_hp: int) -> GrimhandState:
    """The usual start: two shuffled decks of `copies` x 1..13, empty hands, a coin flip."""
    chance = Chance(seed, "grimhand/setup")
    ordered = tuple(value for value in VALUES for _ in range(copies))
    decks = (tuple(chance.shuffle(ordered)), tuple(chance.shuffle(ordered)))
    first = chance.randbelow(2)
    full = tuple(counts_of(ordered))
    setup = Setup(seed, copies, overdraw, start_hp, (full, full))
    empty: tuple[Hand, Hand] = ((), ())
    return GrimhandState(
        setup, decks, ((), ()), (empty, empty), (None, None), (start_hp, start_hp), first, 0
    )


def _cards(cards: Any, where: str) -> Hand:
    if not isinstance(cards, Sequence) or isinstance(cards, str):
        raise InvalidOptions(f"The {where} of a Grimhand deal is a list of card values.")
    for value in cards:
        if type(value) is not int or not 1 <= value <= DEATH:
            raise InvalidOptions(
                f"Card values are whole numbers from 1 to 13 (found {value!r} in the {where})."
            )
    return tuple(cards)


def _pair(deal: Mapping[str, Any], key: str, default: Any) -> Sequence[Any]:
    pair = deal.get(key, default)
    if not isinstance(pair, Sequence) or isinstance(pair, str) or len(pair) != 2:
        raise InvalidOptions(f"The “{key}” of a Grimhand deal lists exactly two seats.")
    return pair


def _hand(cards: Any, seat: int, name: str) -> Hand:
    hand = _cards(cards, f"{name} hand of seat {seat}")
    if DEATH in hand:
        raise InvalidOptions("A Death card (13) never sits in a hand.")
    if len(hand) > HAND_LIMIT:
        raise InvalidOptions(f"A hand holds at most {HAND_LIMIT} cards.")
    return tuple(sorted(hand))


def _hands(deal: Mapping[str, Any]) -> tuple[tuple[Hand, Hand], tuple[Hand, Hand]]:
    hands = []
    for seat, hand in enumerate(_pair(deal, "hands", ({}, {}))):
        if not isinstance(hand, Mapping) or set(hand) - set(DECKS):
            raise InvalidOptions(
                'Each hand of a Grimhand deal is {"attack": [...], "defense": [...]}.'
            )
        hands.append(
            (
                _hand(hand.get("attack", ()), seat, "attack"),
                _hand(hand.get("defense", ()), seat, "defense"),
            )
        )
    return hands[0], hands[1]


def _lucky(deal: Mapping[str, Any]) -> tuple[int | None, int | None]:
    slots: list[int | None] = []
    for slot in _pair(deal, "lucky", (False, False)):
        if slot is False:
            slots.append(None)
        elif slot is True:
            slots.append(ATTACK)  # a bare `true` is a 7 from the attack deck
        elif isinstance(slot, str) and slot in DECK_INDEX:
            slots.append(DECK_INDEX[slot])
        else:
            raise InvalidOptions('A Lucky slot of a deal is false, true, "attack" or "defense".')
    return slots[0], slots[1]


def _discards(deal: Mapping[str, Any]) -> tuple[Hand, Hand]:
    discards = deal.get("discards", {})
    if not isinstance(discards, Mapping) or set(discards) - set(DECKS):
        raise InvalidOptions(
            'The discards of a Grimhand deal are {"attack": [...], "defense": [...]}.'
        )
    return (
        _cards(discards.get("attack", ()), "attack discard pile"),
        _cards(discards.get("defense", ()), "defense discard pile"),
    )


def _check_deal_keys(deal: Any) -> None:
    if not isinstance(deal, Mapping) or "attack" not in deal or "defense" not in deal:
        raise InvalidOptions(
            'A Grimhand deal is {"attack": [top card first, ...], "defense": [...]}.'
        )
    for key in deal:
        if key not in DEAL_KEYS:
            raise InvalidOptions(f"A Grimhand deal has no “{key}” (known: {', '.join(DEAL_KEYS)}).")


def _composition(
    decks: tuple[Hand, Hand],
    discards: tuple[Hand, Hand],
    hands: tuple[tuple[Hand, Hand], tuple[Hand, Hand]],
    lucky: tuple[int | None, int | None],
) -> tuple[Counts, Counts]:
    """Cards per value of each type that the deal puts in play, slotted 7s included."""
    composition = []
    for kind in (ATTACK, DEFENSE):
        if discards[kind] and not decks[kind]:
            raise InvalidOptions(
                f"The {DECKS[kind]} deck is empty but its discard pile is not: "
                "a spent deck is reshuffled at once."
            )
        slotted = tuple(LUCKY for slot in lucky if slot == kind)
        in_play = (decks[kind], discards[kind], hands[0][kind], hands[1][kind], slotted)
        composition.append(tuple(counts_of(*in_play)))
    if sum(composition[ATTACK]) == composition[ATTACK][LUCKY]:
        raise InvalidOptions(
            "A Grimhand deal needs at least one attack card that is not a 7, "
            "or the match could stall with nobody able to move."
        )
    return composition[0], composition[1]


def _first(deal: Mapping[str, Any], seed: bytes) -> int:
    first = deal.get("first")
    if first is None:
        return Chance(seed, "grimhand/setup").randbelow(2)
    if type(first) is not int or first not in (0, 1):
        raise InvalidOptions("The first seat of a Grimhand deal is 0 or 1.")
    return first


def fixed_state(seed: bytes, copies: int, overdraw: str, start_hp: int, deal: Any) -> GrimhandState:
    """The position a fixed deal describes (see docs/rules/grimhand.md, "Fixed deals")."""
    _check_deal_keys(deal)
    decks = (_cards(deal["attack"], "attack deck"), _cards(deal["defense"], "defense deck"))
    hands = _hands(deal)
    lucky = _lucky(deal)
    discards = _discards(deal)
    hp = [
        _whole(value, 1, 10_000, "HP in a Grimhand deal are whole numbers from 1 to 10000.")
        for value in _pair(deal, "hp", (start_hp, start_hp))
    ]
    composition = _composition(decks, discards, hands, lucky)
    setup = Setup(seed, copies, overdraw, start_hp, composition)
    return GrimhandState(
        setup, decks, discards, hands, lucky, (hp[0], hp[1]), _first(deal, seed), 0
    )
