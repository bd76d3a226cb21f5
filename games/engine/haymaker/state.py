"""A Haymaker position: the state value and the discard rules it may hold.

Invariants:
- Every one of the 40 cards is in exactly one place: a hand, the draw pile, the burned
  cards, a discard pile, or the attack on the table.
- Hands are sorted tuples of card ids (by suit, then rank); the draw pile is drawn from
  its front; discard piles keep the order cards were added. The state is never mutated:
  `apply` builds a new one and shares every tuple it did not change.
- `table` holds the attack waiting for the defender's answer; it is empty while the
  attacker is to act. `attacked_last` says the attacker attacked (normal or haymaker) in
  the previous turn and still attacks, which is when a pass is allowed.
- `revealed[s]` is a bit mask of the cards in seat s's hand that both players know are
  there: cards s received in a hit. It is always a subset of s's hand.
- `seed` keys the chance stream of the hits (label "haymaker/hit/<ply>"); it never leaves
  the engine. `result` is the Outcome once the match is over, else None.
- Pure: imports the standard library and `games.engine.core` only.
"""

from __future__ import annotations

from typing import Any

from games.engine.core import Outcome

DISCARDS_TOGETHER = "together"  # all the cards played in a turn go to one pile
DISCARDS_OWN = "own"  # each player's played cards go to their own pile
DISCARD_RULES = (DISCARDS_TOGETHER, DISCARDS_OWN)

Hand = tuple[int, ...]


class HaymakerState:
    """One position. Immutable by convention: `apply` builds a new one."""

    __slots__ = (
        "hands",
        "revealed",
        "deck",
        "burned",
        "discards",
        "table",
        "attacker",
        "attacked_last",
        "turn",
        "ply",
        "last",
        "result",
        "seed",
        "discard_rule",
    )

    def __init__(
        self,
        hands: tuple[Hand, Hand],
        revealed: tuple[int, int],
        deck: Hand,
        burned: Hand,
        discards: tuple[Hand, Hand],
        table: Hand,
        attacker: int,
        attacked_last: bool,
        turn: int,
        ply: int,
        last: dict[str, Any] | None,
        result: Outcome | None,
        seed: bytes,
        discard_rule: str,
    ) -> None:
        self.hands = hands
        self.revealed = revealed
        self.deck = deck
        self.burned = burned
        self.discards = discards
        self.table = table
        self.attacker = attacker
        self.attacked_last = attacked_last
        self.turn = turn
        self.ply = ply
        self.last = last
        self.result = result
        self.seed = seed
        self.discard_rule = discard_rule

    def replace(self, **changes: Any) -> HaymakerState:
        """A copy with some fields changed (spelled out: this is on every move's path)."""
        get = changes.get
        return HaymakerState(
            get("hands", self.hands),
            get("revealed", self.revealed),
            get("deck", self.deck),
            get("burned", self.burned),
            get("discards", self.discards),
            get("table", self.table),
            get("attacker", self.attacker),
            get("attacked_last", self.attacked_last),
            get("turn", self.turn),
            get("ply", self.ply),
            get("last", self.last),
            get("result", self.result),
            get("seed", self.seed),
            get("discard_rule", self.discard_rule),
        )

    def _key(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HaymakerState):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.hands, self.deck, self.table, self.ply))

    def __repr__(self) -> str:
        sizes = tuple(len(hand) for hand in self.hands)
        return (
            f"HaymakerState(ply={self.ply}, turn={self.turn}, attacker={self.attacker}, "
            f"hands={sizes}, deck={len(self.deck)}, table={len(self.table)})"
        )
