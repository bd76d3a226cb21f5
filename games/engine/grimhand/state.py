"""Grimhand Tactics positions: the card vocabulary, the match setup and the state value.

Invariants:
- Deck index 0 is the attack deck, 1 the defense deck; `DECKS` names them for moves,
  events and views. A card is its value, 1..13; 7 is the Lucky card, 13 the Death card.
- `decks[k]` is deck k top first; `discards[k]` is its discard pile, oldest first (face up).
- `hands[seat][k]` is that seat's hand of type k, sorted ascending: a hand is a multiset,
  so the order its cards were drawn in is nobody's business. A 13 is never in a hand.
- `lucky[seat]` is None (empty slot) or the deck index the slotted 7 came from, so that the
  7 can return to its own deck's discard pile.
- A deck is never empty while its discard pile holds cards (the engine reshuffles at once),
  except in a finished match.
- Deck + discard + both hands + slotted 7s of each type always equal
  `setup.composition[k]` (counts per value), the cards the match put in play.
- States are immutable by convention and share one `Setup`; `rules.apply` builds new
  states.
- `Setup` and `GrimhandState` are `core.SlotValue`s: equal when every slot is, hashable,
  `replace` for a copy with some fields changed.
- Pure: imports the standard library and `games.engine.core` (`SlotValue`).
"""

from __future__ import annotations

from games.engine.core import SlotValue

ATTACK = 0
DEFENSE = 1
DECKS = ("attack", "defense")
DECK_INDEX = {"attack": ATTACK, "defense": DEFENSE}
VALUES = tuple(range(1, 14))
LUCKY = 7
DEATH = 13
HAND_LIMIT = 13
OVERDRAW_RULES = ("flush", "discard_lowest", "hp_penalty")
HP_PENALTY = 3

Hand = tuple[int, ...]
Counts = tuple[int, ...]  # how many cards of each value, indexed by value (index 0 unused)


def counts_of(*piles: tuple[int, ...]) -> list[int]:
    """Cards per value (index = value) over several piles."""
    counts = [0] * (DEATH + 1)
    for pile in piles:
        for value in pile:
            counts[value] += 1
    return counts


class Setup(SlotValue):
    """What stays fixed for a whole match: the seed (for reshuffles), options, composition."""

    __slots__ = ("seed", "copies", "overdraw", "start_hp", "composition")

    def __init__(
        self,
        seed: bytes,
        copies: int,
        overdraw: str,
        start_hp: int,
        composition: tuple[Counts, Counts],
    ) -> None:
        self.seed = seed
        self.copies = copies
        self.overdraw = overdraw
        self.start_hp = start_hp
        self.composition = composition

    def __repr__(self) -> str:
        return f"Setup(copies={self.copies}, overdraw={self.overdraw!r}, hp={self.start_hp})"


class GrimhandState(SlotValue):
    """One position. Immutable by convention: `apply` builds a new one."""

    __slots__ = (
        "setup",
        "decks",
        "discards",
        "hands",
        "lucky",
        "hp",
        "turn",
        "ply",
        "reshuffles",
        "winner",
        "reason",
    )

    def __init__(
        self,
        setup: Setup,
        decks: tuple[Hand, Hand],
        discards: tuple[Hand, Hand],
        hands: tuple[tuple[Hand, Hand], tuple[Hand, Hand]],
        lucky: tuple[int | None, int | None],
        hp: tuple[int, int],
        turn: int,
        ply: int,
        reshuffles: int = 0,
        winner: int | None = None,
        reason: str | None = None,
    ) -> None:
        self.setup = setup
        self.decks = decks
        self.discards = discards
        self.hands = hands
        self.lucky = lucky
        self.hp = hp
        self.turn = turn
        self.ply = ply
        self.reshuffles = reshuffles  # how many reshuffles so far: names the next one's stream
        self.winner = winner
        self.reason = reason

    def __repr__(self) -> str:
        return (
            f"GrimhandState(ply={self.ply}, turn={self.turn}, hp={self.hp}, "
            f"decks={tuple(map(len, self.decks))}, winner={self.winner})"
        )
