"""Reads for the notification centre, the header bell, the digest and the reminder scans."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import Count, Q, QuerySet

from games.models import Match, Seat
from games.selectors import opponent_names
from inbox.models import Notification, PushSubscription


def unread_count(*, user: Any) -> int:
    """The bell's number: unread rows of the centre, as `inbox.centre` groups them (every
    notice about one match is one row; a notice without a match is a row of its own), so
    five unread turns of one match count once. One query."""
    if user is None or not user.is_authenticated:
        return 0
    counts = Notification.objects.filter(user=user, in_app=True, read_at__isnull=True).aggregate(
        matches=Count("match_id", distinct=True), alone=Count("pk", filter=Q(match__isnull=True))
    )
    return counts["matches"] + counts["alone"]


def push_device_count(*, user: Any) -> int:
    """How many browsers the player turned Web Push on for."""
    return PushSubscription.objects.filter(user=user).count()


def notification_of(*, user: Any, notification_id: int) -> Notification | None:
    return Notification.objects.filter(user=user, pk=notification_id, in_app=True).first()


def existing_keys(*, keys: list[tuple[int, str]]) -> set[tuple[int, str]]:
    """Which (user id, key) pairs already have their notification (one query)."""
    if not keys:
        return set()
    found = Notification.objects.filter(
        user_id__in={user_id for user_id, _ in keys}, key__in={key for _, key in keys}
    ).values_list("user_id", "key")
    return set(found) & set(keys)


def _running_turns() -> QuerySet[Seat]:
    """Running human turns at a table of two or more (a solo run is never reminded)."""
    return Seat.objects.filter(
        kind=Seat.Kind.HUMAN,
        user__isnull=False,
        turn_started__isnull=False,
        match__status=Match.Status.ACTIVE,
        match__size__gt=1,
    ).select_related("match", "user")


def turns_started_since(*, since: dt.datetime) -> QuerySet[Seat]:
    """Human seats whose turn started after `since` and is still running."""
    return _running_turns().filter(turn_started__gte=since).order_by("pk")


def turns_with_deadline_after(*, now: dt.datetime) -> QuerySet[Seat]:
    """Running timed turns (the indexed `deadline` range), unpaused: late-reminder candidates."""
    return (
        _running_turns()
        .filter(deadline__gt=now, match__paused_at__isnull=True)
        .order_by("deadline", "pk")
    )


def matches_waiting_for(*, user: Any) -> list[Match]:
    """Active matches where it is this player's turn, oldest turn first (for the digest)."""
    seats = _running_turns().filter(user=user).order_by("turn_started")
    return [seat.match for seat in seats if seat.index in seat.match.seats_to_act]


def opponents_of(*, match: Match, user_id: int | None) -> list[str]:
    mine = next(
        (seat.index for seat in match.seats.all() if seat.user_id == user_id and not seat.is_ai),
        None,
    )
    return opponent_names(match=match, seat_index=mine)
