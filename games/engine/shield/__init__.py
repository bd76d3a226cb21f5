"""Shield: 2 to 8 players, a shield card and HP each; draw to attack, swap shields, store
face-down cards and give them away; the last player standing wins (rules/shield.md).

Decisions are in docs/rules/shield.md; the move vocabulary is in docs/move-log.md.
The package is split by sub-domain:
- `cards`: card ids, names ("AS", "10D", "QC") and values (A = 1 ... K = 13);
- `state`: the position, the options, the deal and fixed deals;
- `rules`: the move vocabulary, whose move it is, and checking a move;
- `actions`: applying a move: the setup, actions, boosts, gifts, going out, forfeits;
- `moves`: the bounded list of legal moves;
- `view`: what a seat may know (the view's JSON shape is documented there) and
  `sample_hidden`.
Invariants: the 52 cards are always all somewhere; during the setup every unconfirmed
seat may act, afterwards exactly one seat while the match runs; all chance comes from the
match seed (the deal, a tie for the first turn, the reshuffles).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.chance import Chance
from games.engine.core import Event, IllegalMove, Move, Outcome
from games.engine.shield import actions, moves, rules
from games.engine.shield import view as seat_view
from games.engine.shield.state import ShieldState, new_state

__all__ = ["Shield", "ShieldState"]


class Shield:
    slug = "shield"
    name = "Shield"
    min_seats = 2
    max_seats = 8
    has_choices = True
    # A forfeit puts one seat out and play goes on while two remain: the platform records
    # it as the move {"type": "forfeit", "reason": ...} of that seat (accepted out of turn)
    # and then reads `outcome` as after any move. See docs/rules/shield.md, "Forfeits".
    forfeit_is_a_move = True

    def new(self, seats: int, seed: bytes, options: Mapping[str, Any] | None = None) -> ShieldState:
        return new_state(seats, seed, options)

    def to_act(self, state: ShieldState) -> tuple[int, ...]:
        return rules.to_act(state)

    def legal_moves(self, state: ShieldState, seat: int) -> list[Move]:
        return moves.legal_moves(state, seat)

    def is_legal(self, state: ShieldState, seat: int, move: Move) -> bool:
        try:
            rules.check(state, seat, move)
        except IllegalMove:
            return False
        return True

    def apply(self, state: ShieldState, seat: int, move: Move) -> tuple[ShieldState, list[Event]]:
        return actions.apply(state, seat, move)

    def view(self, state: ShieldState, seat: int | None) -> dict[str, Any]:
        return seat_view.view(state, seat)

    def revealed_view(self, state: ShieldState) -> dict[str, Any]:
        return seat_view.revealed_view(state)

    def outcome(self, state: ShieldState) -> Outcome | None:
        return state.result

    def sample_hidden(self, state: ShieldState, seat: int, chance: Chance) -> ShieldState:
        return seat_view.sample_hidden(state, seat, chance)

    def forfeit(self, state: ShieldState, seat: int, reason: str) -> Outcome | None:
        """The Outcome if `seat` going out ends the match (one seat left), else None.

        Play goes on without the seat otherwise: to keep the match, apply the move
        {"type": "forfeit", "reason": reason} for `seat` (what this computes).
        """
        after, _events = actions.forfeit(state, seat, reason)
        return after.result
