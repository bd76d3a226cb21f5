"""The cheating oracle: a search run on the TRUE state (benchmarks and tests only).

It measures what hidden information is worth: the "oracle" level of games.ai.levels
wraps Hard's own search and budget for the game, but every "determinization" it draws
is the real state, hidden cards and future draws included.

Invariants:
- Never offered to players: the "oracle" level is not `is_offered`, so no seat may hold
  it; only `manage.py simulate` and tests build it (tests/engine/test_oracle.py checks
  this).
- It is handed the state only by `games.ai.play.play_match`, which gives a bot with
  `sees_state` a `Revealed` (the true state) instead of a `Determinizer`.
"""

from __future__ import annotations

from typing import Any

from games.ai.base import Bot
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
    """`search` (a bot that takes `sample=`) on the true state."""

    name = "oracle"
    sees_state = True  # play_match passes `truth=Revealed(state, seat)`

    def __init__(self, search: Bot) -> None:
        if not getattr(search, "wants_samples", False):
            raise ValueError(f"the oracle needs a searching bot, not {search.name!r}")
        self.search = search

    def choose(
        self,
        game: Game,
        view: dict[str, Any],
        legal_moves: list[Move],
        chance: Chance,
        *,
        truth: Revealed,
    ) -> Move:
        return self.search.choose(game, view, legal_moves, chance, sample=truth)  # type: ignore[call-arg]
