"""Celery tasks: thin, idempotent wrappers over inbox.services, taking ids.

Each is safe to run twice: a notification is keyed (unique per user) and its email claimed
before it is sent.
"""

from __future__ import annotations

import datetime as dt

from celery import shared_task

from games.models import Seat
from inbox import services

TASK = {"acks_late": True, "reject_on_worker_lost": True, "ignore_result": True}


@shared_task(**TASK)
def remind_turn(seat_id: int, turn_started: str) -> bool:
    """“Your turn”, sent right after the move that started it was committed."""
    seat = Seat.objects.select_related("match", "user").filter(pk=seat_id).first()
    if seat is None:
        return False
    started = dt.datetime.fromisoformat(turn_started)
    return services.turn_remind(seat=seat, turn_started=started) is not None


@shared_task(ignore_result=True)
def send_due_reminders() -> dict[str, int]:
    """The beat scan (every minute): missed “your turn” and due “running late” reminders."""
    return services.reminders_send_due()


@shared_task(ignore_result=True)
def send_digests() -> int:
    """The daily digest (the beat runs it hourly; each player gets it once, at their hour)."""
    return services.digests_send()


@shared_task(ignore_result=True)
def prune_notifications() -> int:
    """The daily clean-up: notifications older than 90 days whose match is over."""
    return services.notifications_prune()


@shared_task(**TASK)
def email_notification(notification_id: int) -> bool:
    return services.notification_email(notification_id=notification_id)


@shared_task(**TASK)
def push_notification(notification_id: int) -> int:
    """The Web Push of a notification to each of its player's devices (claimed once)."""
    return services.notification_push(notification_id=notification_id)


@shared_task(**TASK)
def notify_invitation(seat_id: int) -> bool:
    return services.invitation_notify(seat_id=seat_id) is not None


@shared_task(**TASK)
def notify_finished(match_id: int) -> int:
    return services.finished_notify(match_id=match_id)


@shared_task(**TASK)
def notify_ruled(match_id: int) -> int:
    return services.ruling_notify(match_id=match_id)


@shared_task(**TASK)
def notify_pause(match_id: int, votes: str, asked_at: str) -> int:
    return services.pause_notify(match_id=match_id, votes=votes, asked_at=asked_at)
