"""Haymaker: attacker and defender trade attacks, haymakers, blocks and hits (rules/haymaker.md).

Decisions are in docs/rules/haymaker.md; the move vocabulary is in docs/move-log.md.
The package has the shape of every game (docs/architecture.md, "One game, one package"):
- `cards`: card ids, names ("7H", "AS", "10D") and values, pure data;
- `state`: the immutable `HaymakerState`;
- `options`: the match option ("discards") and fixed deals, checked, and the first
  position;
- `rules`: whose turn it is, the bounded list of legal moves (blocks and haymakers are
  never enumerated), checking and applying a move, the outcome;
- `view`: what a seat may know (the view's JSON shape is documented there) and
  `sample_hidden`.
This module holds only `Haymaker`, the game object the registry lists; each of its
methods hands the call to the module that owns it.
Pure: imports the standard library, `games.engine.core` and this package's modules.
Invariants: the 40 cards are always all somewhere; exactly one seat is to act while the
match runs; all chance comes from the match seed (the deal and which cards a hit takes).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.core import Chance, Event, Move, Outcome
from games.engine.haymaker import options as match_options
from games.engine.haymaker import rules
from games.engine.haymaker import view as seat_view
from games.engine.haymaker.state import HaymakerState

__all__ = ["Haymaker"]


class Haymaker:
    slug = "haymaker"
    name = "Haymaker"
    min_seats = 2
    max_seats = 2
    has_choices = True

    def new(
        self, seats: int, seed: bytes, options: Mapping[str, Any] | None = None
    ) -> HaymakerState:
        return match_options.new_state(seats, seed, options)

    def to_act(self, state: HaymakerState) -> tuple[int, ...]:
        return rules.to_act(state)

    def legal_moves(self, state: HaymakerState, seat: int) -> list[Move]:
        return rules.legal_moves(state, seat)

    def is_legal(self, state: HaymakerState, seat: int, move: Move) -> bool:
        return rules.is_legal(state, seat, move)

    def apply(
        self, state: HaymakerState, seat: int, move: Move
    ) -> tuple[HaymakerState, list[Event]]:
        return rules.apply(state, seat, move)

    def outcome(self, state: HaymakerState) -> Outcome | None:
        return rules.outcome(state)

    def forfeit(self, state: HaymakerState, seat: int, reason: str) -> Outcome:
        return rules.forfeit(state, seat, reason)

    def view(self, state: HaymakerState, seat: int | None) -> dict[str, Any]:
        return seat_view.view(state, seat)

    def revealed_view(self, state: HaymakerState) -> dict[str, Any]:
        return seat_view.revealed_view(state)

    def sample_hidden(self, state: HaymakerState, seat: int, chance: Chance) -> HaymakerState:
        return seat_view.sample_hidden(state, seat, chance)
