"""A BaniraCards position: the run's fixed `Setup` (its deck) and the state value.

Invariants:
- Every one of the deck's 50 cards is in exactly one place: the deck, the hand row, the
  discard pile, or one field stack. Cards are ints (positions in `setup.cards`).
- `deck` is drawn from its front (the top). `hand` is one row, oldest card first: its
  first `HAND_LIMIT` cards are the hand the player holds, the rest is the overflow, which
  enters the hand by itself as room appears (so "room appears" needs no bookkeeping).
- `field[slot]` is that slot's stack, bottom card first; `unlocked` is a bit mask of
  slots. A covered slot is always unlocked. Cards never leave the field.
- The next unlock costs (slots unlocked + 1) points; the next play onto an empty slot
  costs (slots covered + 1) stamina: every play onto an empty slot covers one for good,
  so both counters are read off the field and never stored.
- `points`, `stamina` and `score` are never negative. `result` is the Outcome once the
  run is over (all ten slots covered, or no legal move left), else None.
- Nothing is random after `new`: the seed only shuffles the deck (`options.new_state`),
  so the state keeps no seed and no chance stream (sample_hidden cannot leak the future).
- Pure: imports the standard library, `games.engine.core` and this package's `cards`.
"""

from __future__ import annotations

from typing import Any

from games.engine.banira.cards import SLOT_COUNT, Card
from games.engine.core import Outcome

HAND_LIMIT = 7

Stack = tuple[int, ...]


class Setup:
    """What stays fixed for a whole run: the validated deck and its id -> card map."""

    __slots__ = ("cards", "index")

    def __init__(self, cards: tuple[Card, ...]) -> None:
        self.cards = cards
        self.index = {card.id: card.index for card in cards}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Setup) and self.cards == other.cards

    def __hash__(self) -> int:
        return hash(self.cards)

    def __repr__(self) -> str:
        return f"Setup({len(self.cards)} cards)"


class BaniraState:
    """One position. Immutable by convention: `apply` builds a new one."""

    __slots__ = (
        "setup",
        "deck",
        "hand",
        "discard",
        "field",
        "unlocked",
        "points",
        "stamina",
        "score",
        "plays",
        "ply",
        "last",
        "result",
    )

    def __init__(
        self,
        setup: Setup,
        deck: Stack,
        hand: Stack,
        discard: Stack,
        field: tuple[Stack, ...],
        unlocked: int,
        points: int,
        stamina: int,
        score: int,
        plays: int,
        ply: int,
        last: tuple[int, int] | None,
        result: Outcome | None,
    ) -> None:
        self.setup = setup
        self.deck = deck
        self.hand = hand
        self.discard = discard
        self.field = field
        self.unlocked = unlocked
        self.points = points
        self.stamina = stamina
        self.score = score
        self.plays = plays
        self.ply = ply
        self.last = last  # (card, slot) of the last play, or None
        self.result = result

    @property
    def held(self) -> Stack:
        """The hand the player holds (the row without its overflow)."""
        return self.hand[:HAND_LIMIT]

    @property
    def overflow(self) -> int:
        return max(0, len(self.hand) - HAND_LIMIT)

    @property
    def covered(self) -> int:
        return sum(1 for stack in self.field if stack)

    @property
    def unlocks(self) -> int:
        return self.unlocked.bit_count()

    def replace(self, **changes: Any) -> BaniraState:
        """A copy with some fields changed (spelled out: this is on every move's path)."""
        get = changes.get
        return BaniraState(
            get("setup", self.setup),
            get("deck", self.deck),
            get("hand", self.hand),
            get("discard", self.discard),
            get("field", self.field),
            get("unlocked", self.unlocked),
            get("points", self.points),
            get("stamina", self.stamina),
            get("score", self.score),
            get("plays", self.plays),
            get("ply", self.ply),
            get("last", self.last),
            get("result", self.result),
        )

    def _key(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BaniraState):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.deck, self.hand, self.field, self.ply))

    def __repr__(self) -> str:
        return (
            f"BaniraState(ply={self.ply}, points={self.points}, stamina={self.stamina}, "
            f"score={self.score}, hand={len(self.hand)}, deck={len(self.deck)}, "
            f"covered={self.covered}/{SLOT_COUNT})"
        )
