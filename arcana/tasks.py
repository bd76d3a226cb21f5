"""Celery tasks of Arcana: thin, idempotent wrappers over arcana's services."""

from __future__ import annotations

from celery import shared_task

from arcana import pve


@shared_task(acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def fight_settle(match_id: int) -> bool:
    """Settle a finished match's PvE fight if not done yet (safe to repeat)."""
    return pve.fight_settle(match_id=match_id) is not None
