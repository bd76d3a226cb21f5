"""BaniraCards: a one-player run to unlock and cover ten field slots with a 50-card deck,
managing points, stamina and draws (rules/baniracards.html, its `#rules` block).

Decisions are in docs/rules/banira.md; the move vocabulary is in docs/move-log.md.
The package is split by sub-domain:
- `cards`: elements, types, rarities, the ten slots, the stacking ladder, and the deck
  list as plain data (`parse_deck` validates it);
- `default_deck`: the balanced deck used when the options bring none;
- `state`: the position and how a run starts (the shuffle or a fixed deal);
- `moves`: what moves cost and the list of legal moves;
- `rules`: checking and applying moves, and how a run ends;
- `view`: what the player may know (the view's JSON shape is documented there) and
  `sample_hidden`.
Invariants: one seat (0); the 50 cards are always all somewhere; the only chance is the
deck's shuffle in `new`; the run ends by itself when all ten slots are covered (its score
stands) or when no legal move is left (score 0).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.banira import moves, rules
from games.engine.banira import view as seat_view
from games.engine.banira.state import BaniraState, new_state
from games.engine.chance import Chance
from games.engine.core import Event, IllegalMove, Move, Outcome

__all__ = ["BaniraCards", "BaniraState"]


class BaniraCards:
    slug = "banira"
    name = "BaniraCards"
    min_seats = 1
    max_seats = 1
    has_choices = True

    def new(self, seats: int, seed: bytes, options: Mapping[str, Any] | None = None) -> BaniraState:
        return new_state(seats, seed, options)

    def to_act(self, state: BaniraState) -> tuple[int, ...]:
        return moves.to_act(state)

    def legal_moves(self, state: BaniraState, seat: int) -> list[Move]:
        return moves.legal_moves(state, seat)

    def is_legal(self, state: BaniraState, seat: int, move: Move) -> bool:
        try:
            rules.check(state, seat, move)
        except IllegalMove:
            return False
        return True

    def apply(self, state: BaniraState, seat: int, move: Move) -> tuple[BaniraState, list[Event]]:
        return rules.apply(state, seat, move)

    def view(self, state: BaniraState, seat: int | None) -> dict[str, Any]:
        return seat_view.view(state, seat)

    def revealed_view(self, state: BaniraState) -> dict[str, Any]:
        return seat_view.revealed_view(state)

    def outcome(self, state: BaniraState) -> Outcome | None:
        return state.result

    def sample_hidden(self, state: BaniraState, seat: int, chance: Chance) -> BaniraState:
        return seat_view.sample_hidden(state, seat, chance)

    def forfeit(self, state: BaniraState, seat: int, reason: str) -> Outcome:
        """Giving up or timing out ends the run as if stuck: no winner, final score 0."""
        return rules.forfeit_outcome(reason)
