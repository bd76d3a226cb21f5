"""Steps every write shares: the row lock, finishing a match, and the after-commit hook."""

from __future__ import annotations

import contextvars
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import selectors
from games.engine.core import Event, Outcome
from games.errors import MatchNotFound
from games.models import Match
from games.signals import match_finished

AI_LEVELS = {"random": "Easy", "greedy": "Normal", "ismcts": "Hard"}  # offered in the lobby
TUTOR = "tutorial"  # the scripted opponent of a tutorial match
FORFEIT = "forfeit"  # the move type of a resignation, in games that play on without the seat

# Set while automatic seats are being played in a loop, so each move's on-commit hook does
# not start another loop (with eager Celery that would recurse once per move).
automation_running: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "automation", default=False
)


@dataclass(frozen=True)
class MoveResult:
    match: Match
    ply: int  # the ply of the move just made (or found already committed)
    events: tuple[Event, ...]
    is_repeat: bool = False


def locked(match_id: Any) -> Match:
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    if match is None:
        raise MatchNotFound("There is no such match.")
    return match


def finish(match: Match, outcome: Outcome) -> None:
    """Record the result and save the (locked) match with every field the caller changed.

    `games.signals.match_finished` is sent here, inside the transaction that records the
    result, so what listens (ratings, XP, quests) commits or rolls back with it.
    """
    match.status = Match.Status.FINISHED
    match.finished = timezone.now()
    match.outcome = outcome.to_json()
    match.to_act = ""
    match.save()
    match_finished.send(sender=Match, match=match)


def to_act(seats: tuple[int, ...]) -> str:
    return ",".join(str(seat) for seat in seats)


def after_commit(match: Match) -> None:
    match_id = match.pk
    # robust: a failed push or enqueue is logged, never turned into an error for a move
    # that has already been committed.
    transaction.on_commit(lambda: _after_change(match_id), robust=True)


def _after_change(match_id: int) -> None:
    from games import notifications, tasks
    from games.services.automation import automatic_seat_to_act

    notifications.match_changed(match_id=match_id)
    if automation_running.get():
        return
    match = selectors.match_get(match_id=match_id)
    is_active = match is not None and match.status == Match.Status.ACTIVE
    if is_active and automatic_seat_to_act(match) is not None:
        tasks.advance_automatic_seats.delay(match_id)
