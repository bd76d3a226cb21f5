"""Steps every write shares: the row lock and finishing a match."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from games import effects, selectors
from games.ai import levels
from games.engine.core import Event, Outcome
from games.errors import MatchNotFound
from games.models import Match

TUTOR = levels.TUTOR  # the scripted opponent of a tutorial match
FORFEIT = "forfeit"  # the move type of a resignation, in games that play on without the seat

# Every field a finished match changes, for `save(update_fields=...)`.
FINISH_FIELDS = ["status", "finished", "outcome", "to_act", "updated"]


@dataclass(frozen=True)
class MoveResult:
    match: Match
    ply: int  # the ply of the move just made (or found already committed)
    events: tuple[Event, ...]
    is_repeat: bool = False


def locked(match_id: Any, *, with_seats: bool = False) -> Match:
    """The match row, locked for this transaction (`select_for_update`).

    `with_seats` also loads its seats with their players, in one more query: the move path
    then reads and changes those same seat objects (clocks, resignation), and the boards
    pushed after the commit are drawn from them. Paths that change seats through their own
    querysets leave it off, so nothing reads a stale copy.
    """
    match = selectors.match_read(
        match_id=match_id, lock=True, seats=with_seats, with_players=with_seats
    )
    if match is None:
        raise MatchNotFound("There is no such match.")
    return match


def finish(match: Match, outcome: Outcome, *, fields: tuple[str, ...] = ()) -> None:
    """Record the result, save the (locked) match's result fields and `fields`, and set off
    what a result sets off (`effects.match_finished`: ratings, progression, the notice)."""
    match.status = Match.Status.FINISHED
    match.finished = timezone.now()
    match.outcome = outcome.to_json()
    match.to_act = ""
    match.save(update_fields=[*FINISH_FIELDS, *fields])
    effects.match_finished(match=match)


def to_act(seats: tuple[int, ...]) -> str:
    return ",".join(str(seat) for seat in seats)
