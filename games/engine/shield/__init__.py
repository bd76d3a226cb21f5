"""Shield: 2 to 8 players, a shield card and HP each; draw to attack, swap shields, store
face-down cards and give them away; the last player standing wins (rules/shield.md).

Decisions are in docs/rules/shield.md; the move vocabulary is in docs/move-log.md.
The package has the shape of every game (docs/architecture.md, "One game, one package"):
- `cards`: card ids, names ("AS", "10D", "QC") and values (A = 1 ... K = 13), pure data;
- `state`: the steps of a turn, the rules options (`Rules`) and the immutable
  `ShieldState`;
- `options`: the match options (boost, start_tie) and fixed deals, checked, and the first
  position;
- `rules`: the move vocabulary, whose move it is, the bounded list of legal moves,
  checking and applying a move (the setup, actions, boosts, gifts, going out,
  forfeits), who starts, and the outcome;
- `view`: what a seat may know (the view's JSON shape is documented there) and
  `sample_hidden`.
This module holds only `Shield`, the game object the registry lists; each of its methods
hands the call to the module that owns it.
Pure: imports the standard library, `games.engine.core` and this package's modules.
Invariants: the 52 cards are always all somewhere; during the setup every unconfirmed
seat may act, afterwards exactly one seat while the match runs; all chance comes from the
match seed (the deal, a tie for the first turn, the reshuffles).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.core import Chance, Event, Move, Outcome
from games.engine.shield import options as match_options
from games.engine.shield import rules
from games.engine.shield import view as seat_view
from games.engine.shield.state import ShieldState

__all__ = ["Shield"]


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
        return match_options.new_state(seats, seed, options)

    def to_act(self, state: ShieldState) -> tuple[int, ...]:
        return rules.to_act(state)

    def legal_moves(self, state: ShieldState, seat: int) -> list[Move]:
        return rules.legal_moves(state, seat)

    def is_legal(self, state: ShieldState, seat: int, move: Move) -> bool:
        return rules.is_legal(state, seat, move)

    def apply(self, state: ShieldState, seat: int, move: Move) -> tuple[ShieldState, list[Event]]:
        return rules.apply(state, seat, move)

    def outcome(self, state: ShieldState) -> Outcome | None:
        return rules.outcome(state)

    def forfeit(self, state: ShieldState, seat: int, reason: str) -> Outcome | None:
        """The Outcome if `seat` going out ends the match (one seat left), else None.

        Play goes on without the seat otherwise: to keep the match, apply the move
        {"type": "forfeit", "reason": reason} for `seat` (what this computes).
        """
        return rules.forfeit(state, seat, reason)

    def view(self, state: ShieldState, seat: int | None) -> dict[str, Any]:
        return seat_view.view(state, seat)

    def revealed_view(self, state: ShieldState) -> dict[str, Any]:
        return seat_view.revealed_view(state)

    def sample_hidden(self, state: ShieldState, seat: int, chance: Chance) -> ShieldState:
        return seat_view.sample_hidden(state, seat, chance)
