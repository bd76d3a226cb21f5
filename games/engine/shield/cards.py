"""Shield's 52 cards: their ids, names and values.

Invariants:
- A card is an int id in 0..51: `suit * 13 + (rank - 1)`, suits in the order C, D, H, S
  and ranks A (= 1), 2, ..., 10, J (= 11), Q (= 12), K (= 13). A card's value is its rank.
- A card's name is its rank then its suit letter: "AS", "7H", "10D", "QC". Names are the
  only spelling that leaves the engine (moves, events, views); ids never do.
- Plain data and lookups. Pure: imports the standard library only.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

SUITS = "CDHS"
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
CARD_COUNT = 52
ALL_CARDS = tuple(range(CARD_COUNT))

NAMES: tuple[str, ...] = tuple(RANK_NAMES[card % 13] + SUITS[card // 13] for card in ALL_CARDS)
INDEX: dict[str, int] = {name: card for card, name in enumerate(NAMES)}
VALUE: tuple[int, ...] = tuple(card % 13 + 1 for card in ALL_CARDS)

CARD_HELP = (
    'A card is its rank (A, 2–10, J, Q or K) then its suit (C, D, H or S), like "7H", "AS", '
    '"10D" or "QC".'
)


def names(cards: Iterable[int]) -> list[str]:
    return [NAMES[card] for card in cards]


def total(cards: Iterable[int]) -> int:
    return sum(VALUE[card] for card in cards)


def parse_one(raw: Any) -> int | str:
    """A card name -> its id, or a message saying what is wrong with it."""
    card = INDEX.get(raw) if isinstance(raw, str) else None
    if card is None:
        shown = raw if isinstance(raw, str) else repr(raw)
        return f"“{shown}” is not a card. {CARD_HELP}"
    return card


def parse(raw: Any) -> tuple[int, ...] | str:
    """Card names -> ids in the order given, or a message saying what is wrong with them."""
    if not isinstance(raw, list | tuple):
        return f"The cards must be a list of card names. {CARD_HELP}"
    cards: list[int] = []
    for name in raw:
        card = parse_one(name)
        if isinstance(card, str):
            return card
        cards.append(card)
    return tuple(cards)
