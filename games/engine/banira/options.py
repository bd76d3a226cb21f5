"""BaniraCards' match options and fixed deals, checked, and the first position they give.

Invariants:
- `OPTIONS` is the schema: "deck" (a deck list, docs/rules/banira.md "The deck as data";
  the default deck when left out) is the one option; `options["deal"]` may fix the deck's
  order. Any other name is refused.
- Every problem is an `InvalidOptions` whose message a person can read.
- The only chance of a run is the shuffle here, `Chance(seed, "banira/setup")`, of the
  deck's card positions; the first four cards are dealt into the hand.
- Pure: imports the standard library, `games.engine.core` and this package's `cards`,
  `default_deck` and `state`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.banira.cards import DECK_SIZE, SLOT_COUNT, parse_deck
from games.engine.banira.default_deck import DEFAULT_DECK
from games.engine.banira.state import BaniraState, Setup, Stack
from games.engine.core import Chance, InvalidOptions, Option

START_HAND = 4
START_POINTS = 1
START_STAMINA = 1
START_SCORE = 50

DECK = Option(
    "deck",
    DEFAULT_DECK,
    "The deck list: 50 cards, each with its id, name, element, type, rarity and stats.",
)
OPTIONS = (DECK,)
OPTION_NAMES = (*(option.name for option in OPTIONS), "deal")


_DEFAULT: list[Setup] = []


def _default_setup() -> Setup:
    """The default deck, validated once per process (every replay starts with `new`)."""
    if not _DEFAULT:
        _DEFAULT.append(Setup(parse_deck(DEFAULT_DECK)))
    return _DEFAULT[0]


DEAL_HELP = (
    f"A BaniraCards deal is the deck's order, top card first: a list of all {DECK_SIZE} "
    "card ids, each once. The first four are dealt into the hand."
)


def new_state(seats: int, seed: bytes, options: Mapping[str, Any] | None) -> BaniraState:
    """The first position: the deck (the default or the options'), shuffled or fixed."""
    if seats != 1:
        raise InvalidOptions("BaniraCards is played alone: exactly one seat.")
    options = options or {}
    if not isinstance(options, Mapping):
        raise InvalidOptions("BaniraCards' options are a JSON object.")
    for name in options:
        if name not in OPTION_NAMES:
            known = ", ".join(OPTION_NAMES)
            raise InvalidOptions(f"BaniraCards has no option “{name}” (known: {known}).")
    setup = Setup(parse_deck(options[DECK.name])) if DECK.name in options else _default_setup()
    if "deal" in options:
        order = parse_deal(options["deal"], setup)
    else:
        order = tuple(Chance(seed, "banira/setup").shuffle(range(DECK_SIZE)))
    return BaniraState(
        setup=setup,
        deck=order[START_HAND:],
        hand=order[:START_HAND],
        discard=(),
        field=((),) * SLOT_COUNT,
        unlocked=0,
        points=START_POINTS,
        stamina=START_STAMINA,
        score=START_SCORE,
        plays=0,
        ply=0,
        last=None,
        result=None,
    )


def parse_deal(deal: Any, setup: Setup) -> Stack:
    """The deck order (card ints, top first) that `options["deal"]` fixes."""
    if not isinstance(deal, list | tuple):
        raise InvalidOptions(DEAL_HELP)
    order = []
    for card_id in deal:
        card = setup.index.get(card_id) if isinstance(card_id, str) else None
        if card is None:
            raise InvalidOptions(f"The deal names “{card_id}”, which is not in the deck.")
        order.append(card)
    if len(set(order)) != len(order):
        raise InvalidOptions("The deal names a card twice. " + DEAL_HELP)
    if len(order) != DECK_SIZE:
        raise InvalidOptions(f"The deal names {len(order)} cards. " + DEAL_HELP)
    return tuple(order)
