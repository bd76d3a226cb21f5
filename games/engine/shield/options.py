"""Shield's match options and fixed deals, checked, and the first position they give.

Invariants:
- `OPTIONS` is the schema: "boost" (when stored cards join an attack) and "start_tie"
  (who starts when the lowest HP is tied) are the options a player chooses;
  `options["deal"]` may fix the deal. Any other name is refused.
- Every problem is an `InvalidOptions` whose message a person can read.
- A dealt match shuffles the 52 cards with `Chance(seed, "shield/setup")` and deals four
  to each seat in seat order; the rest is the draw pile, top first. It starts in the
  setup, every seat to choose its shield.
- A fixed deal places all 52 cards exactly once; with "shields" it skips the setup and
  starts as the setup's end would (`rules.first_player`).
- Pure: imports the standard library, `games.engine.core` and this package's `cards`,
  `state` and `rules`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.core import Chance, InvalidOptions, Option
from games.engine.shield.cards import ALL_CARDS, CARD_COUNT, parse, total
from games.engine.shield.rules import first_player
from games.engine.shield.state import (
    ACTION,
    AFTER_DRAW,
    BOOST_RULES,
    SETUP,
    START_TIE_RULES,
    TIE_SHIELD,
    Cards,
    Rules,
    ShieldState,
)

HAND_SIZE = 4
MIN_SEATS = 2
MAX_SEATS = 8

BOOST_OPTION = Option(
    "boost",
    AFTER_DRAW,
    "When stored cards join an attack: after its draw is seen, or committed with the "
    "attack, before the draw.",
    choices=BOOST_RULES,
)
START_TIE = Option(
    "start_tie",
    TIE_SHIELD,
    "Who starts when the lowest HP is tied: the lower shield (then the seed), or the seed.",
    choices=START_TIE_RULES,
)
OPTIONS = (BOOST_OPTION, START_TIE)
OPTION_NAMES = (*(option.name for option in OPTIONS), "deal")


def parse_options(options: Mapping[str, Any] | None) -> tuple[Rules, Any]:
    """(the rules options, the fixed deal or None), each checked."""
    options = options or {}
    if not isinstance(options, Mapping):
        raise InvalidOptions("Shield's options are a JSON object.")
    for name in options:
        if name not in OPTION_NAMES:
            known = ", ".join(OPTION_NAMES)
            raise InvalidOptions(f"Shield has no option “{name}” (known: {known}).")
    boost = options.get(BOOST_OPTION.name, BOOST_OPTION.default)
    if boost not in BOOST_OPTION.choices:
        raise InvalidOptions('The "boost" option is "after_draw" or "before_draw".')
    start_tie = options.get(START_TIE.name, START_TIE.default)
    if start_tie not in START_TIE.choices:
        raise InvalidOptions('The "start_tie" option is "shield" or "random".')
    return Rules(boost, start_tie), options.get("deal")


def new_state(seats: int, seed: bytes, options: Mapping[str, Any] | None) -> ShieldState:
    """The first position: the setup of a dealt match, or the position a fixed deal sets."""
    if type(seats) is not int or not MIN_SEATS <= seats <= MAX_SEATS:
        raise InvalidOptions("Shield is played by 2 to 8 players.")
    rules, deal = parse_options(options)
    if deal is None:
        order = Chance(seed, "shield/setup").shuffle(ALL_CARDS)
        dealt = tuple(
            tuple(sorted(order[HAND_SIZE * s : HAND_SIZE * (s + 1)])) for s in range(seats)
        )
        return _setup_state(rules, seats, seed, dealt, tuple(order[HAND_SIZE * seats :]), ())
    return _fixed_state(rules, seats, seed, deal)


def _setup_state(
    rules: Rules,
    seats: int,
    seed: bytes,
    dealt: tuple[Cards, ...],
    deck: Cards,
    discard: Cards,
    stored: tuple[Cards, ...] | None = None,
) -> ShieldState:
    empty: tuple[Cards, ...] = ((),) * seats
    return ShieldState(
        rules=rules,
        seats=seats,
        dealt=dealt,
        picks=(None,) * seats,
        confirmed=(False,) * seats,
        shields=(None,) * seats,
        hp_cards=empty,
        hp=(0,) * seats,
        stored=stored if stored is not None else empty,
        deck=deck,
        discard=discard,
        out=(),
        turn=None,
        step=SETUP,
        attack=None,
        last=None,
        ply=0,
        reshuffles=0,
        result=None,
        seed=bytes(seed),
    )


# --- fixed deals --------------------------------------------------------------------------

DEAL_KEYS = ("deck", "hands", "discard", "stored", "shields", "hp")
DEAL_HELP = (
    'A Shield deal is {"deck": [52 card names]} (four cards each in seat order, the rest to '
    'draw, top first) or {"hands": [[4 cards] per seat], "deck": [...]} with optional '
    '"discard" (bottom first), "stored" ([[...] per seat]), "shields" (one card of each hand: '
    'skips the setup) and "hp" (per seat, with "shields").'
)


def _cards(raw: Any, where: str) -> Cards:
    cards = parse(raw)
    if isinstance(cards, str):
        raise InvalidOptions(f"In the deal's {where}: {cards}")
    return cards


def _per_seat(deal: Mapping[str, Any], key: str, seats: int) -> list[Any]:
    raw = deal[key]
    if not isinstance(raw, list | tuple) or len(raw) != seats:
        raise InvalidOptions(f"The deal's “{key}” lists exactly one entry per seat ({seats}).")
    return list(raw)


def _fixed_state(rules: Rules, seats: int, seed: bytes, deal: Any) -> ShieldState:
    if not isinstance(deal, Mapping) or "deck" not in deal:
        raise InvalidOptions(DEAL_HELP)
    for key in deal:
        if key not in DEAL_KEYS:
            raise InvalidOptions(f"A Shield deal has no “{key}”. {DEAL_HELP}")
    deck = _cards(deal["deck"], "deck")
    if "hands" not in deal:
        if set(deal) != {"deck"} or len(deck) != CARD_COUNT or len(set(deck)) != CARD_COUNT:
            raise InvalidOptions(f"A Shield deck alone lists all 52 cards once. {DEAL_HELP}")
        dealt = tuple(
            tuple(sorted(deck[HAND_SIZE * s : HAND_SIZE * (s + 1)])) for s in range(seats)
        )
        return _setup_state(rules, seats, seed, dealt, deck[HAND_SIZE * seats :], ())
    hands = tuple(
        tuple(sorted(_cards(hand, f"hand of seat {seat}")))
        for seat, hand in enumerate(_per_seat(deal, "hands", seats))
    )
    if any(len(hand) != HAND_SIZE for hand in hands):
        raise InvalidOptions("Each hand of a Shield deal has exactly four cards.")
    discard = _cards(deal.get("discard", []), "discard pile")
    stored: tuple[Cards, ...] = ((),) * seats
    if "stored" in deal:
        stored = tuple(
            _cards(pile, f"stored cards of seat {seat}")
            for seat, pile in enumerate(_per_seat(deal, "stored", seats))
        )
    placed = [card for hand in hands for card in hand] + list(deck) + list(discard)
    placed += [card for pile in stored for card in pile]
    if len(placed) != CARD_COUNT or len(set(placed)) != CARD_COUNT:
        raise InvalidOptions(f"A Shield deal places all 52 cards exactly once. {DEAL_HELP}")
    state = _setup_state(rules, seats, seed, hands, deck, discard, stored)
    if "shields" in deal:
        return _laid_out(state, deal, seats)
    if "hp" in deal:
        raise InvalidOptions('A deal sets "hp" only together with "shields".')
    return state


def _laid_out(state: ShieldState, deal: Mapping[str, Any], seats: int) -> ShieldState:
    """A fixed deal with every shield chosen: the match starts in play, setup skipped."""
    shields = _cards(_per_seat(deal, "shields", seats), "shields")
    rows = []
    for seat, shield in enumerate(shields):
        if shield not in state.dealt[seat]:
            raise InvalidOptions(f"The shield of seat {seat} must be one of its four cards.")
        rows.append(tuple(card for card in state.dealt[seat] if card != shield))
    hp = [total(row) for row in rows]
    if "hp" in deal:
        hp = _per_seat(deal, "hp", seats)
        if any(type(value) is not int or not 1 <= value <= 999 for value in hp):
            raise InvalidOptions("HP in a Shield deal are whole numbers from 1 to 999.")
    first = first_player(state.rules, state.seed, tuple(shields), hp)
    return state.replace(
        dealt=((),) * seats,
        picks=tuple(shields),
        confirmed=(True,) * seats,
        shields=tuple(shields),
        hp_cards=tuple(rows),
        hp=tuple(hp),
        turn=first,
        step=ACTION,
    )
