"""A Shield position: its steps, the options that change how the rules play (`Rules`),
and the state value.

Invariants:
- Every one of the 52 cards is in exactly one place: a setup hand (`dealt`, during the
  setup only), a shield, a row of HP cards, a pile of stored cards, the draw pile, the
  discard pile, or the attack on the table (`attack`, while the attacker may still boost).
- Setup hands (and so HP rows) are sorted by card id. The draw pile is drawn from its
  front; the discard pile and each pile of stored cards grow at their end (the top).
- A state is never changed once `apply` has returned it: `apply` fills in a fresh
  `copy()` and shares every tuple it did not change.
- `step` is "setup" until every seat still in the match has confirmed its shield, then
  "action", "boost" (an attack drawn, its attacker may add stored cards) or "give" (after
  an action, its player may give stored cards away), and "over" once `result` is set.
- `hp` is a number (docs/rules/shield.md): the HP cards stay in the row they were laid in.
  A seat is out once its HP reaches 0 or it forfeits; `out` lists the seats that are out,
  in the order they went. An out seat has no shield, HP cards or stored cards.
- `seed` keys the deal (label "shield/setup"), the start tie-break ("shield/start") and
  every reshuffle ("shield/reshuffle/<n>", n = `reshuffles` so far); it never leaves
  the engine.
- Pure: imports the standard library and `games.engine.core` only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine.core import Outcome

SETUP = "setup"
ACTION = "action"
BOOST = "boost"
GIVE = "give"
OVER = "over"

AFTER_DRAW = "after_draw"  # stored cards join an attack after its draw is seen (the example)
BEFORE_DRAW = "before_draw"  # they are committed with the attack, before the draw
BOOST_RULES = (AFTER_DRAW, BEFORE_DRAW)
TIE_SHIELD = "shield"  # tied lowest HP: the lower shield starts, then the seed decides
TIE_RANDOM = "random"  # tied lowest HP: the seed decides among them
START_TIE_RULES = (TIE_SHIELD, TIE_RANDOM)

Cards = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Rules:
    """The match options that change how the rules play (fixed for the whole match)."""

    boost: str = AFTER_DRAW
    start_tie: str = TIE_SHIELD

    def to_json(self) -> dict[str, str]:
        return {"boost": self.boost, "start_tie": self.start_tie}


class ShieldState:
    """One position. Immutable by convention: `apply` builds a new one."""

    __slots__ = (
        "rules",
        "seats",
        "dealt",
        "picks",
        "confirmed",
        "shields",
        "hp_cards",
        "hp",
        "stored",
        "deck",
        "discard",
        "out",
        "turn",
        "step",
        "attack",
        "last",
        "ply",
        "reshuffles",
        "result",
        "seed",
    )

    def __init__(
        self,
        rules: Rules,
        seats: int,
        dealt: tuple[Cards, ...],
        picks: tuple[int | None, ...],
        confirmed: tuple[bool, ...],
        shields: tuple[int | None, ...],
        hp_cards: tuple[Cards, ...],
        hp: tuple[int, ...],
        stored: tuple[Cards, ...],
        deck: Cards,
        discard: Cards,
        out: tuple[int, ...],
        turn: int | None,
        step: str,
        attack: tuple[int, Cards] | None,
        last: dict[str, Any] | None,
        ply: int,
        reshuffles: int,
        result: Outcome | None,
        seed: bytes,
    ) -> None:
        self.rules = rules
        self.seats = seats
        self.dealt = dealt
        self.picks = picks
        self.confirmed = confirmed
        self.shields = shields
        self.hp_cards = hp_cards
        self.hp = hp
        self.stored = stored
        self.deck = deck
        self.discard = discard
        self.out = out
        self.turn = turn
        self.step = step
        self.attack = attack
        self.last = last
        self.ply = ply
        self.reshuffles = reshuffles
        self.result = result
        self.seed = seed

    def replace(self, **changes: Any) -> ShieldState:
        """A copy with some fields changed (spelled out: this is on every move's path)."""
        get = changes.get
        return ShieldState(
            get("rules", self.rules),
            get("seats", self.seats),
            get("dealt", self.dealt),
            get("picks", self.picks),
            get("confirmed", self.confirmed),
            get("shields", self.shields),
            get("hp_cards", self.hp_cards),
            get("hp", self.hp),
            get("stored", self.stored),
            get("deck", self.deck),
            get("discard", self.discard),
            get("out", self.out),
            get("turn", self.turn),
            get("step", self.step),
            get("attack", self.attack),
            get("last", self.last),
            get("ply", self.ply),
            get("reshuffles", self.reshuffles),
            get("result", self.result),
            get("seed", self.seed),
        )

    def copy(self) -> ShieldState:
        """A fresh copy for `apply` to fill in: a state is only ever changed between its
        creation here and its return from `apply`, never after (spelled out for speed)."""
        new = ShieldState.__new__(ShieldState)
        new.rules = self.rules
        new.seats = self.seats
        new.dealt = self.dealt
        new.picks = self.picks
        new.confirmed = self.confirmed
        new.shields = self.shields
        new.hp_cards = self.hp_cards
        new.hp = self.hp
        new.stored = self.stored
        new.deck = self.deck
        new.discard = self.discard
        new.out = self.out
        new.turn = self.turn
        new.step = self.step
        new.attack = self.attack
        new.last = self.last
        new.ply = self.ply
        new.reshuffles = self.reshuffles
        new.result = self.result
        new.seed = self.seed
        return new

    def living(self) -> list[int]:
        """The seats still in the match, in seat (clockwise) order."""
        out = self.out
        return [seat for seat in range(self.seats) if seat not in out]

    def every_card(self) -> list[int]:
        """All the cards of the position, wherever they are (for invariant checks)."""
        cards: list[int] = [*self.deck, *self.discard]
        for seat in range(self.seats):
            cards += self.dealt[seat]
            cards += self.hp_cards[seat]
            cards += self.stored[seat]
            shield = self.shields[seat]
            if shield is not None:
                cards.append(shield)
        if self.attack is not None:
            cards += self.attack[1]
        return cards

    def _key(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ShieldState):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.shields, self.hp, self.deck, self.ply))

    def __repr__(self) -> str:
        return (
            f"ShieldState(ply={self.ply}, step={self.step}, turn={self.turn}, hp={self.hp}, "
            f"stored={tuple(len(pile) for pile in self.stored)}, deck={len(self.deck)}, "
            f"discard={len(self.discard)}, out={self.out})"
        )
