"""Where the games app tells us something happened. Each receiver runs inside the sender's
transaction and only schedules a task for after the commit (robust: a failure there is
logged, never an error for the move or the table that was committed).

- games.signals.turn_started (sent by games.services.clock when a seat's clock starts)
- games.signals.match_finished
- post_save of Seat (a new seat for a named player who has not joined: an invitation or a
  rematch offer) and of Match (the pause votes changed). The games services send no signal
  of their own for these; model signals keep this app from reaching into them.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from games.models import Match, Seat
from games.signals import match_finished, turn_started


def _later(task: Any, *args: Any) -> None:
    transaction.on_commit(lambda: task.delay(*args), robust=True)


@receiver(turn_started, dispatch_uid="inbox-turn-started")
def on_turn_started(sender: Any, seat: Seat, match: Match, **kwargs: Any) -> None:
    from inbox import tasks

    if seat.is_ai or seat.user_id is None or seat.turn_started is None:
        return
    _later(tasks.remind_turn, seat.pk, seat.turn_started.isoformat())


@receiver(match_finished, dispatch_uid="inbox-match-finished")
def on_match_finished(sender: Any, match: Match, **kwargs: Any) -> None:
    from inbox import tasks

    _later(tasks.notify_finished, match.pk)


@receiver(post_save, sender=Seat, dispatch_uid="inbox-seat-saved")
def on_seat_saved(sender: Any, instance: Seat, created: bool, **kwargs: Any) -> None:
    from inbox import tasks

    if created and instance.is_invited and instance.match.created_by_id != instance.user_id:
        _later(tasks.notify_invitation, instance.pk)


@receiver(post_save, sender=Match, dispatch_uid="inbox-match-saved")
def on_match_saved(sender: Any, instance: Match, update_fields: Any = None, **kwargs: Any) -> None:
    from inbox import tasks

    if update_fields and "pause_votes" in update_fields and instance.pause_votes:
        _later(tasks.notify_pause, instance.pk, instance.pause_votes, instance.updated.isoformat())
