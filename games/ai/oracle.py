"""The cheating oracle: Hard's search run on the TRUE state (benchmarks and tests only).

It measures what hidden information is worth: the same search and budget as the Hard
level (`games.ai.hard`), but every "determinization" is the real state, hidden cards and
future draws included.

Invariants:
- Never registered in `games.ai.get_bot` (the registry the site's levels come from), so
  no player can ever face it; only `manage.py simulate --ladder --levels ...,oracle` and
  tests build it (tests/engine/test_oracle.py checks this).
- It is handed the state only by `games.ai.play.play_match`, which gives a bot with
  `sees_state` a `Revealed` (the true state) instead of a `Determinizer`.
"""

from __future__ import annotations

from typing import Any

from games.ai.hard import HardBot
from games.engine.core import Chance, Game, Move


class Revealed:
    """A "sampler" that always returns the true state (what a Determinizer never does)."""

    __slots__ = ("seat", "state")

    def __init__(self, state: Any, seat: int) -> None:
        self.seat = seat
        self.state = state

    def __call__(self, chance: Chance) -> Any:
        return self.state


class OracleBot:
    """Hard's per-game search on the true state."""

    name = "oracle"
    sees_state = True  # play_match passes `truth=Revealed(state, seat)`

    def __init__(self, seconds: float | None = None) -> None:
        self.seconds = seconds

    def choose(
        self,
        game: Game,
        view: dict[str, Any],
        legal_moves: list[Move],
        chance: Chance,
        *,
        truth: Revealed,
    ) -> Move:
        hard = HardBot(self.seconds)
        return hard.choose(game, view, legal_moves, chance, sample=truth)  # type: ignore[arg-type]
