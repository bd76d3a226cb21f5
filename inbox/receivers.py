"""Where the games app tells us something happened. Each receiver runs inside the sender's
transaction and only schedules a task for after the commit (robust: a failure there is
logged, never an error for the move or the table that was committed).

- games.signals.turn_started (sent by games.services.clock when a seat's clock starts)
- games.signals.turn_ended (my turn is over: its reminders are no longer unread)
- games.signals.match_finished
- games.signals.seat_invited (a named player invited to a new table or a rematch)
- games.signals.pause_requested (a player asked to pause; the others must agree)
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.dispatch import receiver

from games.models import Match, Seat
from games.signals import (
    match_finished,
    pause_requested,
    seat_invited,
    turn_ended,
    turn_started,
)


def _later(task: Any, *args: Any) -> None:
    transaction.on_commit(lambda: task.delay(*args), robust=True)


@receiver(turn_started, dispatch_uid="inbox-turn-started")
def on_turn_started(sender: Any, seat: Seat, match: Match, **kwargs: Any) -> None:
    from inbox import tasks

    if seat.is_ai or seat.user_id is None or seat.turn_started is None:
        return
    _later(tasks.remind_turn, seat.pk, seat.turn_started.isoformat())


@receiver(turn_ended, dispatch_uid="inbox-turn-ended")
def on_turn_ended(sender: Any, seat: Seat, match: Match, **kwargs: Any) -> None:
    from inbox import services

    if seat.user_id is not None:
        services.turn_notifications_settle(user_id=seat.user_id, match_id=match.pk)


@receiver(match_finished, dispatch_uid="inbox-match-finished")
def on_match_finished(sender: Any, match: Match, **kwargs: Any) -> None:
    from inbox import tasks

    _later(tasks.notify_finished, match.pk)


@receiver(seat_invited, dispatch_uid="inbox-seat-invited")
def on_seat_invited(sender: Any, seat: Seat, match: Match, **kwargs: Any) -> None:
    from inbox import tasks

    _later(tasks.notify_invitation, seat.pk)


@receiver(pause_requested, dispatch_uid="inbox-pause-requested")
def on_pause_requested(sender: Any, match: Match, seat: Seat, **kwargs: Any) -> None:
    from inbox import tasks

    _later(tasks.notify_pause, match.pk, match.pause_votes, match.updated.isoformat())
