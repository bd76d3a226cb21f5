"""First-match tutorials: a fixed deal, a scripted AI opponent and a coach's line per ply.

Data only: the match is an ordinary match (same engine, same services); the coach reads the
ply and, for scripted steps, points at the move to make. A game's tutorial lives in its
board's folder (`games/boards/<slug>/tutorial.py`) and is named by its board
(`BoardPresenter.tutorial`, or `EXTRA_TUTORIALS` for a further one);
`games.boards.tutorial_for(slug)` finds it.

A tutorial cannot be lost while it is scripted. Decision (issue 18): an off-script move is
explained and taken back, in the shared machinery, for every game: while the coach points
at a move (`CoachStep.move`), `games.services.moves` refuses any other move of the player
before the engine sees it (`Tutorial.refusal`): the board answers with the coach's reason,
nothing is written, and the position stays the one the script expects. The board still
shows every legal move (it shows the game as it is) and marks the coached one. The tutor
follows its script while its move is legal, so the match never leaves the script. Where
the script ends, the coach lets go (a step with no move, or the farewell) and the match
plays on as an ordinary one; Dog Blade, Shield, BaniraCards and Arcana are scripted to the
win. Resigning stays possible. (Moves are not hidden from the board instead: every board
would need its own filter, and a new game would be losable until it had one.)
"""

from __future__ import annotations

from collections.abc import Sequence
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
    off_script: str = (
        "You found your own way: from here on the coach keeps quiet about the cards. "
        "Play on as you like!"
    )
    # Said when an off-script move is taken back, before the step's own line.
    off_script_refusal: str = (
        "Not yet: that move is yours to try once the lesson is over, so it was taken back."
    )
    extra: dict[str, Any] = field(default_factory=dict)

    def coach(
        self, *, ply: int, is_finished: bool, moves: Sequence[Move] | None = None
    ) -> CoachStep | None:
        """The coach's line at `ply`, given the moves logged so far (`moves`, in ply order;
        None: taken to follow the script). The lines describe the scripted bout, cards
        included: once a move leaves the script they could name a card the tutor holds
        unseen, so the coach says so and nothing more."""
        if is_finished:
            return None
        if moves is not None and not self.is_on_script(moves):
            return CoachStep(self.off_script)
        if ply in self.steps:
            return self.steps[ply]
        if ply > max(self.steps, default=-1):
            return CoachStep(self.farewell)
        return None

    def expected_move(self, ply: int) -> Move | None:
        """The move the coach points at for the player at `ply`, if the step is scripted."""
        step = self.steps.get(ply)
        return step.move if step is not None else None

    def refusal(self, ply: int, move: Move) -> str | None:
        """Why the player's `move` at `ply` is taken back (None: it may be played): while a
        step is scripted, only its move is; the reason names what the step teaches."""
        expected = self.expected_move(ply)
        if expected is None or _same_move(move, expected):
            return None
        step = self.steps[ply]
        return f"{self.off_script_refusal} {step.text}"

    def is_on_script(self, moves: Sequence[Move]) -> bool:
        """Every logged move is the one the script expects at its ply (the coached move,
        or the tutor's), where the script expects one."""
        for ply, move in enumerate(moves):
            step = self.steps.get(ply)
            expected = self.ai_script.get(ply) or (step.move if step else None)
            if expected is not None and not _same_move(move, expected):
                return False
        return True


def _same_move(move: Move, expected: Move) -> bool:
    """The same move, whatever the order of its cards."""

    def canonical(value: Any) -> Any:
        return sorted(value) if isinstance(value, list) else value

    keys = set(move) | set(expected)
    return all(canonical(move.get(key)) == canonical(expected.get(key)) for key in keys)
