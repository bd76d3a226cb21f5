"""Celery tasks: thin, idempotent wrappers over services, taking ids."""

from __future__ import annotations

import datetime as dt

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from games import selectors, services


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def advance_automatic_seats(match_id: int) -> int:
    """Play the moves due from AI and auto-play seats. Safe to run twice or concurrently."""
    return services.automation_run(match_id=match_id)


@shared_task(ignore_result=True)
def sweep_clocks() -> dict[str, int]:
    """Settle every overdue turn, end forgotten pauses, expire unjoined tables. Idempotent."""
    return services.timeouts.sweep()


@shared_task(ignore_result=True)
def sweep_automation() -> int:
    """Send the AI task again for every match an AI seat has held up for
    AUTOMATION_STALL_SECONDS: the one sent after the last move was lost (the broker was
    down, a worker was killed). Safe to overlap a late task: each ply is made once."""
    since = timezone.now() - dt.timedelta(seconds=settings.AUTOMATION_STALL_SECONDS)
    match_ids = selectors.automation_stalled_ids(since=since)
    for match_id in match_ids:
        advance_automatic_seats.delay(match_id)
    return len(match_ids)
