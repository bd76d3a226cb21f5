"""BaniraCards: a one-player run to unlock and cover ten field slots with a 50-card deck,
managing points, stamina and draws (rules/baniracards.html, its `#rules` block).

Decisions are in docs/rules/banira.md; the move vocabulary is in docs/move-log.md.
The package has the shape of every game (docs/architecture.md, "One game, one package"):
- `cards`: elements, types, rarities, the ten slots, the stacking ladder, and the deck
  list as plain data (`parse_deck` validates it);
- `default_deck`: the balanced deck used when the options bring none, pure data;
- `state`: the run's `Setup` (its validated deck) and the immutable `BaniraState`;
- `options`: the match options (a deck list) and fixed deals, checked, and the first
  position (the shuffle);
- `rules`: whose turn it is, what moves cost, the legal moves, checking and applying a
  move, how a run ends;
- `view`: what the player may know (the view's JSON shape is documented there) and
  `sample_hidden`.
This module holds only `BaniraCards`, the game object the registry lists; each of its
methods hands the call to the module that owns it.
Pure: imports the standard library, `games.engine.core` and this package's modules.
Invariants: one seat (0); the 50 cards are always all somewhere; the only chance is the
deck's shuffle in `new`; the run ends by itself when all ten slots are covered (its score
stands) or when no legal move is left (score 0).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.banira import options as match_options
from games.engine.banira import rules
from games.engine.banira import view as seat_view
from games.engine.banira.state import BaniraState
from games.engine.core import Chance, Event, Move, Outcome

__all__ = ["BaniraCards"]


class BaniraCards:
    slug = "banira"
    name = "BaniraCards"
    min_seats = 1
    max_seats = 1
    has_choices = True

    def new(self, seats: int, seed: bytes, options: Mapping[str, Any] | None = None) -> BaniraState:
        return match_options.new_state(seats, seed, options)

    def to_act(self, state: BaniraState) -> tuple[int, ...]:
        return rules.to_act(state)

    def legal_moves(self, state: BaniraState, seat: int) -> list[Move]:
        return rules.legal_moves(state, seat)

    def is_legal(self, state: BaniraState, seat: int, move: Move) -> bool:
        return rules.is_legal(state, seat, move)

    def apply(self, state: BaniraState, seat: int, move: Move) -> tuple[BaniraState, list[Event]]:
        return rules.apply(state, seat, move)

    def outcome(self, state: BaniraState) -> Outcome | None:
        return rules.outcome(state)

    def forfeit(self, state: BaniraState, seat: int, reason: str) -> Outcome:
        """Giving up or timing out ends the run as if stuck: no winner, final score 0."""
        return rules.forfeit(state, seat, reason)

    def view(self, state: BaniraState, seat: int | None) -> dict[str, Any]:
        return seat_view.view(state, seat)

    def revealed_view(self, state: BaniraState) -> dict[str, Any]:
        return seat_view.revealed_view(state)

    def sample_hidden(self, state: BaniraState, seat: int, chance: Chance) -> BaniraState:
        return seat_view.sample_hidden(state, seat, chance)
