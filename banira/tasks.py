"""Celery tasks of the BaniraCards site: thin, idempotent wrappers over banira.services."""

from __future__ import annotations

from celery import shared_task

from banira import services


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def weekly_rollover() -> int | None:
    """Reveal the weeks that are over and create this week's challenge (safe to repeat)."""
    challenge = services.weekly_rollover()
    return challenge.pk if challenge else None


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def weekly_prizes() -> int:
    """Grant the prizes of every week that is over and has none yet (once per week, however
    often this runs, and however many run at once)."""
    return services.weekly_prizes_award_due()
