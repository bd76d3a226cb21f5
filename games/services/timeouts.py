"""The sweeper: settle overdue turns, end pauses left too long, expire unjoined tables.

A seat whose deadline has passed loses on time (`moves.match_settle_overdue`, idempotent
under the match lock). Overdue turns are settled by the beat (`games.tasks.sweep`, every
minute), when a player's match list is read (`settle_for_user`), and by `manage.py
settle_overdue`. This module sits above `moves` and `clock`, which never import it.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from games.models import Match, Seat
from games.services import clock
from games.services.moves import match_settle_overdue


def overdue_match_ids(now: dt.datetime | None = None, *, user: Any = None) -> list[int]:
    """Active, unpaused matches with a deadline passed (the sweeper's indexed query); with
    `user`, only the matches that user plays in."""
    now = now or timezone.now()
    seats = Seat.objects.filter(
        deadline__lte=now, match__status=Match.Status.ACTIVE, match__paused_at__isnull=True
    )
    if user is not None:
        seats = seats.filter(match__seats__user=user)
    return list(seats.values_list("match_id", flat=True).distinct().order_by("match_id"))


def settle_for_user(*, user: Any, now: dt.datetime | None = None) -> int:
    """Settle the overdue turns of this user's matches (when their match list is read)."""
    return sum(
        match_settle_overdue(match_id=pk, now=now) for pk in overdue_match_ids(now, user=user)
    )


def sweep(now: dt.datetime | None = None) -> dict[str, int]:
    """The beat sweeper: settle overdue turns, end long pauses, expire unjoined tables."""
    now = now or timezone.now()
    timeouts = sum(match_settle_overdue(match_id=pk, now=now) for pk in overdue_match_ids(now))
    resumed = clock.pauses_end_long(now=now)
    expired = clock.tables_expire(now=now)
    return {"timeouts": timeouts, "resumed": resumed, "expired": expired}
