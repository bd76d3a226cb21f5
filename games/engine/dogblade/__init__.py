"""Dog Blade: two decks of random ATK/HP monsters fight one at a time (rules/dog-blade.md).

Decisions are in docs/rules/dogblade.md; the move vocabulary is in docs/move-log.md.
The package has the shape of every game (docs/architecture.md, "One game, one package"):
- `state`: the card vocabulary and the immutable `DogBladeState`;
- `options`: the match options (none but a fixed deal), checked, and the first position;
- `rules`: whose turn it is, the legal moves, checking and applying a move, the outcome;
- `view`: what each seat may know, and `sample_hidden`.
This module holds only `DogBlade`, the game object the registry lists; each of its
methods hands the call to the module that owns it.
Pure: imports the standard library, `games.engine.core` and this package's modules.
Invariants: two seats; exactly one seat is to act while the match runs; all chance comes
from the match seed (the decks and the coin flip for the first attacker).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.core import Chance, Event, Move, Outcome
from games.engine.dogblade import options as match_options
from games.engine.dogblade import rules
from games.engine.dogblade import view as seat_view
from games.engine.dogblade.state import DogBladeState

__all__ = ["DogBlade"]


class DogBlade:
    slug = "dogblade"
    name = "Dog Blade"
    min_seats = 2
    max_seats = 2
    has_choices = False  # every move is forced: players may switch on auto-play

    def new(
        self, seats: int, seed: bytes, options: Mapping[str, Any] | None = None
    ) -> DogBladeState:
        return match_options.new_state(seats, seed, options)

    def to_act(self, state: DogBladeState) -> tuple[int, ...]:
        return rules.to_act(state)

    def legal_moves(self, state: DogBladeState, seat: int) -> list[Move]:
        return rules.legal_moves(state, seat)

    def is_legal(self, state: DogBladeState, seat: int, move: Move) -> bool:
        return rules.is_legal(state, seat, move)

    def apply(
        self, state: DogBladeState, seat: int, move: Move
    ) -> tuple[DogBladeState, list[Event]]:
        return rules.apply(state, seat, move)

    def outcome(self, state: DogBladeState) -> Outcome | None:
        return rules.outcome(state)

    def forfeit(self, state: DogBladeState, seat: int, reason: str) -> Outcome:
        return rules.forfeit(state, seat, reason)

    def view(self, state: DogBladeState, seat: int | None) -> dict[str, Any]:
        return seat_view.view(state, seat)

    def revealed_view(self, state: DogBladeState) -> dict[str, Any]:
        return seat_view.revealed_view(state)

    def sample_hidden(self, state: DogBladeState, seat: int, chance: Chance) -> DogBladeState:
        return seat_view.sample_hidden(state, seat, chance)
