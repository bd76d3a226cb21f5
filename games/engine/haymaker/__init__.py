"""Haymaker: attacker and defender trade attacks, haymakers, blocks and hits (rules/haymaker.md).

Decisions are in docs/rules/haymaker.md; the move vocabulary is in docs/move-log.md.
The package is split by sub-domain:
- `cards`: card ids, names ("7H", "AS", "10D") and values;
- `state`: the position, the deal and the match options;
- `rules`: checking and applying moves;
- `moves`: the bounded list of legal moves (blocks and haymakers are never enumerated);
- `view`: what a seat may know (the view's JSON shape is documented there) and
  `sample_hidden`.
Invariants: the 40 cards are always all somewhere; exactly one seat is to act while the
match runs; all chance comes from the match seed (the deal and which cards a hit takes).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.chance import Chance
from games.engine.core import Event, IllegalMove, Move, Outcome, forfeit_two_player
from games.engine.haymaker import moves, rules
from games.engine.haymaker import view as seat_view
from games.engine.haymaker.state import HaymakerState, new_state

__all__ = ["Haymaker", "HaymakerState"]


class Haymaker:
    slug = "haymaker"
    name = "Haymaker"
    min_seats = 2
    max_seats = 2
    has_choices = True

    def new(
        self, seats: int, seed: bytes, options: Mapping[str, Any] | None = None
    ) -> HaymakerState:
        return new_state(seats, seed, options)

    def to_act(self, state: HaymakerState) -> tuple[int, ...]:
        seat = rules.to_act(state)
        return () if seat is None else (seat,)

    def legal_moves(self, state: HaymakerState, seat: int) -> list[Move]:
        return moves.legal_moves(state, seat)

    def is_legal(self, state: HaymakerState, seat: int, move: Move) -> bool:
        try:
            rules.check(state, seat, move)
        except IllegalMove:
            return False
        return True

    def apply(
        self, state: HaymakerState, seat: int, move: Move
    ) -> tuple[HaymakerState, list[Event]]:
        return rules.apply(state, seat, move)

    def view(self, state: HaymakerState, seat: int | None) -> dict[str, Any]:
        return seat_view.view(state, seat)

    def revealed_view(self, state: HaymakerState) -> dict[str, Any]:
        return seat_view.revealed_view(state)

    def outcome(self, state: HaymakerState) -> Outcome | None:
        return state.result

    def sample_hidden(self, state: HaymakerState, seat: int, chance: Chance) -> HaymakerState:
        return seat_view.sample_hidden(state, seat, chance)

    def forfeit(self, state: HaymakerState, seat: int, reason: str) -> Outcome:
        return forfeit_two_player(seat, reason)
