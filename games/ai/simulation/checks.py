"""What a simulation may be asked to play, checked before anything is played.

Each check returns the value to play with, or raises `SimulationError` with a message a
person can act on (the command prints it as its error).

Invariants (the standard library, `games.engine` and `games.ai` only):
- A seat plays an AI level of games.ai.levels that players are offered; a ladder (and
  the Arcana balance report) may also name a benchmark level (the oracle) or one of the
  house's Arcana opponents (the archetypes, the boss), never the tutorial's tutor.
- Match options are checked by the game itself (`game.new`), at the run's table size.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from games.ai import levels
from games.ai.simulation.deals import match_seed
from games.engine import registry
from games.engine.core import Game, InvalidOptions


class SimulationError(ValueError):
    """A run that cannot be played as asked; `message` is for people."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def game_get(slug: str) -> Game:
    try:
        return registry.get(slug)
    except registry.UnknownGame as error:
        known = ", ".join(registry.slugs())
        raise SimulationError(f"{error.message} Known games: {known}.") from None


def counts_check(*, matches: int, max_plies: int) -> None:
    if matches < 1:
        raise SimulationError("--matches must be at least 1.")
    if max_plies < 1:
        raise SimulationError("--max-plies must be at least 1.")


def seats_check(game: Game, seats: int) -> None:
    if not game.min_seats <= seats <= game.max_seats:
        allowed = (
            f"exactly {game.min_seats}"
            if game.min_seats == game.max_seats
            else f"{game.min_seats} to {game.max_seats}"
        )
        players = "player" if game.max_seats == 1 else "players"
        raise SimulationError(f"{game.name} is played by {allowed} {players}, not {seats}.")


def seat_level_ids() -> list[str]:
    """The levels a seat of a plain run may play: those offered to players."""
    return [level.id for level in levels.offered()]


def ladder_level_ids() -> list[str]:
    """The levels a ladder may name: those offered, then the benchmark-only ones, then
    the house's Arcana opponents."""
    others = [
        level.id
        for level in levels.LEVELS.values()
        if not level.is_offered and level.id != levels.TUTOR and not level.sees_state
    ]
    benchmark = [level.id for level in levels.LEVELS.values() if level.sees_state]
    return seat_level_ids() + benchmark + others


def seat_levels(
    game: Game, text: str, seats: int | None, known: Sequence[str] | None = None
) -> list[str]:
    """The level of each seat from "easy,hard" (one name fills every seat); `known`: the
    levels allowed (default: those offered to players)."""
    names = _level_list(text, seat_level_ids() if known is None else known)
    if len(names) == 1:
        names *= game.min_seats if seats is None else seats
    elif seats is not None and seats != len(names):
        raise SimulationError(f"--seats {seats} does not match the {len(names)} levels given.")
    seats_check(game, len(names))
    return names


def ladder_levels(game: Game, text: str | None, seats: int) -> list[str]:
    """The ladder's levels, Easy first (None: every level offered to players)."""
    names = seat_level_ids() if text is None else _level_list(text, ladder_level_ids())
    if len(set(names)) != len(names):
        raise SimulationError(f"--levels names a level twice: {', '.join(names)}.")
    if seats > 1 and len(names) < 2:
        raise SimulationError(f"A ladder of {game.name} needs at least 2 levels, got {len(names)}.")
    return names


def _level_list(text: str, known: Sequence[str]) -> list[str]:
    names = [name.strip() for name in text.split(",")]
    for name in names:
        if name not in known:
            raise SimulationError(f"There is no AI level “{name}” (known: {', '.join(known)}).")
    return names


def match_options(game: Game, text: str | None, *, seats: int, seed: int) -> dict[str, Any] | None:
    """Match options from JSON, checked by the game at the run's table size (None: the
    game's defaults)."""
    if text is None:
        return None
    try:
        parsed = json.loads(text)
    except json.JSONDecodeError as error:
        raise SimulationError(f"--options is not JSON: {error.msg}.") from None
    if not isinstance(parsed, dict):
        raise SimulationError("--options must be a JSON object, e.g. '{\"hp\": 20}'.")
    try:
        game.new(seats, match_seed(seed, 0), parsed)
    except InvalidOptions as error:
        raise SimulationError(f"--options: {error.message}") from None
    return parsed
