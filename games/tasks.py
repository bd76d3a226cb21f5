"""Celery tasks: thin, idempotent wrappers over services, taking ids."""

from __future__ import annotations

from celery import shared_task

from games import services


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def advance_automatic_seats(match_id: int) -> int:
    """Play the moves due from AI and auto-play seats. Safe to run twice or concurrently."""
    return services.automation_run(match_id=match_id)


@shared_task(ignore_result=True)
def sweep_clocks() -> dict[str, int]:
    """Settle every overdue turn, end forgotten pauses, expire unjoined tables. Idempotent."""
    return services.clock.sweep()
