"""Celery tasks of progression: thin, idempotent wrappers over progression.services."""

from __future__ import annotations

from celery import shared_task

from progression import services


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def match_result_process(match_id: int) -> int:
    """Credit a finished match's players if not done yet (safe to repeat)."""
    return len(services.match_result_process(match_id=match_id))


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def quests_rotate() -> int:
    """Draw today's quests for players whose local day has just begun."""
    return services.quests_rotate()


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def season_rollover() -> int | None:
    """Close a season that is over, give its unclaimed rewards, open the next."""
    season = services.season_rollover()
    return season.pk if season else None
