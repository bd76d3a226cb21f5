"""Haymaker's 40 cards: their ids, names and values.

Invariants:
- A card is an int id in 0..39: `suit * 10 + (rank - 1)`, suits in the order C, D, H, S
  and ranks A (= 1), 2, ..., 10. Sorting ids sorts a hand by suit, then by rank.
- A card's name is its rank then its suit letter: "AS", "7H", "10D". Names are the only
  spelling that leaves the engine (moves, events, views); ids never do.
- Plain data and lookups. Pure: imports the standard library only.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

SUITS = "CDHS"
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")
CARD_COUNT = 40
ALL_CARDS = tuple(range(CARD_COUNT))

NAMES: tuple[str, ...] = tuple(RANK_NAMES[card % 10] + SUITS[card // 10] for card in ALL_CARDS)
INDEX: dict[str, int] = {name: card for card, name in enumerate(NAMES)}
RANK: tuple[int, ...] = tuple(card % 10 + 1 for card in ALL_CARDS)
SUIT: tuple[int, ...] = tuple(card // 10 for card in ALL_CARDS)
BIT: tuple[int, ...] = tuple(1 << card for card in ALL_CARDS)

CARD_HELP = 'A card is its rank (A, 2–10) then its suit (C, D, H or S), like "7H", "AS" or "10D".'


def names(cards: Iterable[int]) -> list[str]:
    return [NAMES[card] for card in cards]


def strength(cards: Iterable[int]) -> int:
    return sum(RANK[card] for card in cards)


def mask(cards: Iterable[int]) -> int:
    bits = 0
    for card in cards:
        bits |= BIT[card]
    return bits


def from_mask(bits: int) -> tuple[int, ...]:
    """The cards of a bit mask, in id order."""
    cards = []
    while bits:
        low = bits & -bits
        cards.append(low.bit_length() - 1)
        bits ^= low
    return tuple(cards)


def parse(raw: Any) -> tuple[int, ...] | str:
    """Card names -> ids in the order given, or a message saying what is wrong with them."""
    if not isinstance(raw, list | tuple):
        return f"The cards must be a list of card names. {CARD_HELP}"
    cards: list[int] = []
    seen: set[int] = set()
    for name in raw:
        card = INDEX.get(name) if isinstance(name, str) else None
        if card is None:
            shown = name if isinstance(name, str) else repr(name)
            return f"“{shown}” is not a card. {CARD_HELP}"
        if card in seen:
            return f"{name} is listed twice: each card can be played once."
        seen.add(card)
        cards.append(card)
    return tuple(cards)
