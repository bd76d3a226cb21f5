"""A Dog Blade position: the card vocabulary and the state value.

Invariants:
- Two seats. Each deck is a fixed tuple of (atk, hp) cards, made once when the match
  starts (`options.new_state`); play never reorders it, so states share it.
- `drawn[s]` counts the cards seat s has put into play; its active monster is
  `decks[s][drawn[s] - 1]` with `hp[s]` left. `turn` is the seat to attack next;
  `winner` is set once the match is over, else None.
- A state is never changed once built: `rules.apply` builds a new one.
- Pure: imports the standard library and `games.engine.core` only.
"""

from __future__ import annotations

from typing import Any

from games.engine.core import Chance

DECK_SIZE = 20
ATK_VALUES = tuple(range(10, 61, 10))  # 10..60, as the example's 50 and 30
HP_VALUES = tuple(range(30, 151, 10))  # 30..150, as the example's 60 and 120

Card = tuple[int, int]  # (atk, hp)


class DogBladeState:
    """One position. Immutable by convention: `apply` builds a new one."""

    __slots__ = ("decks", "drawn", "hp", "turn", "ply", "winner")

    def __init__(
        self,
        decks: tuple[tuple[Card, ...], tuple[Card, ...]],
        drawn: tuple[int, int],
        hp: tuple[int, int],
        turn: int,
        ply: int,
        winner: int | None,
    ) -> None:
        self.decks = decks
        self.drawn = drawn
        self.hp = hp
        self.turn = turn
        self.ply = ply
        self.winner = winner

    def active(self, seat: int) -> Card:
        return self.decks[seat][self.drawn[seat] - 1]

    def _key(self) -> tuple[Any, ...]:
        return (self.decks, self.drawn, self.hp, self.turn, self.ply, self.winner)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DogBladeState) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"DogBladeState(drawn={self.drawn}, hp={self.hp}, turn={self.turn}, ply={self.ply})"


def random_card(chance: Chance) -> Card:
    """A card of the deck distribution: ATK and HP uniform and independent."""
    return (chance.choice(ATK_VALUES), chance.choice(HP_VALUES))
