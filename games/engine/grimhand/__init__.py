"""Grimhand Tactics (rules/grimhand-tactics.md): draw from an attack or a defense deck, or
attack with every attack card; a 13 kills unless a Lucky 7 saves you.

Decisions are in docs/rules/grimhand.md; the move vocabulary is in docs/move-log.md.
The package has the shape of every game (docs/architecture.md, "One game, one package"):
- `state`: the card vocabulary, the per-match `Setup` and the immutable `GrimhandState`;
- `options`: the match options (copies, overdraw, hp) and fixed deals, checked, and the
  first position;
- `rules`: whose turn it is, the legal moves, checking and applying a move, the outcome;
- `view`: what each seat may know (views, the attack preview) and `sample_hidden`.
This module holds only `Grimhand`, the game object the registry lists; each of its
methods hands the call to the module that owns it. The Arcana mode (`{"variant":
"arcana"}`, the sub-package `arcana`) has its own state class: `new` picks the mode from
the options, every other method dispatches on `isinstance(state, ArcanaState)`, so a
Classic call costs one isinstance check. `"variant": "classic"` is Classic itself.
Pure: imports the standard library, `games.engine.core` and this package's modules.
Invariants: two seats; exactly one seat is to act while the match runs; every card is
always somewhere; all chance comes from the match seed (the deal, the coin flip, the
reshuffles).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.core import (
    Chance,
    Event,
    InvalidOptions,
    Move,
    Outcome,
    forfeit_two_player,
)
from games.engine.grimhand import options as match_options
from games.engine.grimhand import rules
from games.engine.grimhand import view as seat_view
from games.engine.grimhand.arcana import options as arcana_options
from games.engine.grimhand.arcana import rules as arcana_rules
from games.engine.grimhand.arcana import view as arcana_view
from games.engine.grimhand.arcana.state import ArcanaState
from games.engine.grimhand.state import GrimhandState

State = GrimhandState | ArcanaState

__all__ = ["Grimhand"]


class Grimhand:
    slug = "grimhand"
    name = "Grimhand Tactics"
    min_seats = 2
    max_seats = 2
    has_choices = True

    def new(self, seats: int, seed: bytes, options: Mapping[str, Any] | None = None) -> State:
        variant = options.get("variant", "classic") if options else "classic"
        if variant == "arcana":
            return arcana_options.new_state(seats, seed, options)
        if variant != "classic":
            raise InvalidOptions(f"Grimhand has no variant {variant!r} (classic or arcana).")
        if options and "variant" in options:
            options = {name: value for name, value in options.items() if name != "variant"}
        return match_options.new_state(seats, seed, options)

    def to_act(self, state: State) -> tuple[int, ...]:
        if isinstance(state, ArcanaState):
            return arcana_rules.to_act(state)
        return rules.to_act(state)

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        if isinstance(state, ArcanaState):
            return arcana_rules.legal_moves(state, seat)
        return rules.legal_moves(state, seat)

    def is_legal(self, state: State, seat: int, move: Move) -> bool:
        if isinstance(state, ArcanaState):
            return arcana_rules.is_legal(state, seat, move)
        return rules.is_legal(state, seat, move)

    def apply(self, state: State, seat: int, move: Move) -> tuple[State, list[Event]]:
        if isinstance(state, ArcanaState):
            return arcana_rules.apply(state, seat, move)
        return rules.apply(state, seat, move)

    def outcome(self, state: State) -> Outcome | None:
        if isinstance(state, ArcanaState):
            return arcana_rules.outcome(state)
        return rules.outcome(state)

    def forfeit(self, state: State, seat: int, reason: str) -> Outcome:
        return forfeit_two_player(seat, reason)  # the other seat wins, in either mode

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        if isinstance(state, ArcanaState):
            return arcana_view.view(state, seat)
        return seat_view.view(state, seat)

    def revealed_view(self, state: State) -> dict[str, Any]:
        if isinstance(state, ArcanaState):
            return arcana_view.revealed_view(state)
        return seat_view.revealed_view(state)

    def sample_hidden(self, state: State, seat: int, chance: Chance) -> State:
        if isinstance(state, ArcanaState):
            return arcana_view.sample_hidden(state, seat, chance)
        return seat_view.sample_hidden(state, seat, chance)
