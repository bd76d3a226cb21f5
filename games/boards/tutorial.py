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
plays on; Dog Blade, Shield, BaniraCards and Arcana are scripted to the win. Resigning
stays possible. (Moves are not hidden from the board instead: every board would need its
own filter, and a new game would be losable until it had one.)

Where the coach has let go (Classic Grimhand and Haymaker hand over control before the
end), the tutorial still cannot be lost: at every unscripted ply the coach looks one move
ahead on the true position (`Tutorial.verdict`, `Tutorial.tutor_moves`):
- a move of the player that would lose (or draw) the match, or leave them to move with
  nothing but losing moves, is explained and taken back (`LOSING_MOVE`), like an
  off-script move: nothing is written;
- the tutor never plays such a move against the player, and plays a move that makes the
  player win whenever it has one (so a match of the worst moves still ends, and soon);
- when every move left loses for the player (the tutor's side), the tutor concedes: it
  resigns and the player wins (`TUTOR_CONCEDES`). The same holds should the player ever be
  cornered, though the tutor's check keeps that from happening.
The refusal tells the player only that the move would lose, never why (not which card lies
on top): the tutorial's deal is fixed and public anyway, and no other person's secret is
in the match.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games.engine.core import Game, IllegalMove, Move

# What the coach says when a move that would lose the match is taken back (after hand-over).
LOSING_MOVE = (
    "The coach took that move back: it would lose the match, and a tutorial is not for "
    "losing. In a real match it would stand. Try another move."
)
PLAY, REFUSE, CONCEDE = "play", "refuse", "concede"  # a `Tutorial.verdict`


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

    # --- after hand-over: the player cannot lose (see the module's docstring) -------------

    def verdict(self, game: Game, state: Any, move: Move) -> str:
        """PLAY the player's `move` (at an unscripted ply), REFUSE it (it would lose and
        another move would not: `LOSING_MOVE`) or CONCEDE (every move loses: the tutor
        resigns instead). A move the engine refuses is PLAYed: the engine's message says
        why."""
        player = self.player_seat
        if _is_safe(game, state, player, move, player):
            return PLAY
        others = game.legal_moves(state, player)
        if any(_is_safe(game, state, player, other, player) for other in others):
            return REFUSE
        return CONCEDE

    def tutor_moves(self, game: Game, state: Any, seat: int, legal: list[Move]) -> list[Move]:
        """The tutor's choices among `legal` at an unscripted ply: those that end the match
        with the player's win if any, else those that neither win for the tutor nor leave
        the player only losing moves. Empty: the tutor concedes."""
        player = self.player_seat
        winning = [move for move in legal if _wins(game, state, seat, move, player)]
        if winning:
            return winning
        return [move for move in legal if _is_safe(game, state, seat, move, player)]


def _wins(game: Game, state: Any, seat: int, move: Move, player: int) -> bool:
    """`seat`'s `move` ends the match with `player` among the winners."""
    after, _ = game.apply(state, seat, move)
    outcome = game.outcome(after)
    return outcome is not None and player in outcome.winners


def _is_safe(game: Game, state: Any, seat: int, move: Move, player: int) -> bool:
    """After `seat`'s `move`, `player` has not lost: the match is over with `player` among
    the winners, or it goes on and, if `player` is to act, one of their listed moves does
    not lose at once. A move the engine refuses counts as safe (it is never applied)."""
    try:
        after, _ = game.apply(state, seat, move)
    except IllegalMove:
        return True
    outcome = game.outcome(after)
    if outcome is not None:
        return player in outcome.winners
    if player not in game.to_act(after):
        return True
    return any(_holds(game, after, player, other) for other in game.legal_moves(after, player))


def _holds(game: Game, state: Any, player: int, move: Move) -> bool:
    """`player`'s `move` does not end the match without them among the winners."""
    after, _ = game.apply(state, player, move)
    outcome = game.outcome(after)
    return outcome is None or player in outcome.winners


def _same_move(move: Move, expected: Move) -> bool:
    """The same move, whatever the order of its cards."""

    def canonical(value: Any) -> Any:
        return sorted(value) if isinstance(value, list) else value

    keys = set(move) | set(expected)
    return all(canonical(move.get(key)) == canonical(expected.get(key)) for key in keys)
