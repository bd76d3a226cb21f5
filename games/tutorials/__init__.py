"""First-match tutorials: a fixed deal, a scripted AI opponent and a coach's line per ply.

Data only: the match is an ordinary match (same engine, same services); the coach reads the
ply and, for scripted steps, points at the move to make.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.engine.core import Move


@dataclass(frozen=True)
class CoachStep:
    text: str
    move: Move | None = None  # the move the coach points at, if any


@dataclass(frozen=True)
class Tutorial:
    game: str
    title: str
    options: dict[str, Any]  # match options, with the fixed deal
    ai_script: dict[int, Move]  # the tutor's moves by ply
    steps: dict[int, CoachStep]  # the coach's line by ply (the last one stays after)
    player_seat: int = 0
    farewell: str = "You're on your own now. Good luck!"
    extra: dict[str, Any] = field(default_factory=dict)

    def coach(self, *, ply: int, is_finished: bool) -> CoachStep | None:
        if is_finished:
            return None
        if ply in self.steps:
            return self.steps[ply]
        if ply > max(self.steps, default=-1):
            return CoachStep(self.farewell)
        return None


_TUTORIALS: dict[str, Tutorial] = {}


def register(tutorial: Tutorial) -> Tutorial:
    _TUTORIALS[tutorial.game] = tutorial
    return tutorial


def get(game: str) -> Tutorial | None:
    _load()
    return _TUTORIALS.get(game)


def _load() -> None:
    if not _TUTORIALS:
        from games.tutorials import grimhand, haymaker  # noqa: F401  (each registers itself)
