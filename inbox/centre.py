"""The notification centre's list, grouped and paged, and which turn notices are not worth a row.

Reads only (like `inbox.selectors`): the views and services call it.

Grouping: every notice about one match is one row, showing its newest notice (the match's
latest state: "your turn", then "over: you won"), how many notices it holds, how many are
unread, and what kinds they were. A notice without a match (none today but a link-only
one) is a row of its own. Rows are ordered by their newest notice and come PAGE_SIZE at a
time, older pages behind an "Older" link; a kind filter (`?kind=turn`) shows only the
groups holding that kind, counted by that kind alone.

Quiet: a player alone at a table (a solo run) is never notified about it, and "your turn"
or "running late" against the AI only waits for the beat (AI_GRACE after the turn began)
and is skipped, not recorded, while the player has the board open (docs/notifications.md).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db.models import Case, Count, F, Max, Q, QuerySet, Value, When

from games.selectors import is_against_ai_only
from inbox.models import Notification

PAGE_SIZE = 20  # groups per page
AI_GRACE = dt.timedelta(minutes=1)  # "your turn" against the AI: only from the beat, after this
QUIET_KINDS = frozenset({"turn", "late"})  # what "against the AI, on the board" silences
KINDS = {  # the kind filter's choices (digests are email only), in the list's order
    kind.value: kind.label for kind in Notification.Kind if kind != Notification.Kind.DIGEST
}


# --- which notices are not worth a row -------------------------------------------------------


def turn_notice_waits(*, match: Any, user_id: int | None, turn_started: Any, now: Any) -> bool:
    """Against the AI only, "your turn" is the beat's, once AI_GRACE has passed since the
    turn began: the AI answers at once, and a player who just made a move or opened the
    table is on the board by then (and is then not notified at all)."""
    is_ai_only = is_against_ai_only(match=match, user_id=user_id)
    return is_ai_only and now - turn_started < AI_GRACE


# --- the grouped, paged list -----------------------------------------------------------------


@dataclass(frozen=True)
class Group:
    latest: Notification  # the newest notice of the group: its text, link and time
    count: int
    unread: int
    kinds: list[tuple[str, int]]  # (label, how many), most frequent first

    @property
    def is_read(self) -> bool:
        return self.unread == 0

    @property
    def match_id(self) -> int | None:
        return self.latest.match_id


@dataclass(frozen=True)
class Page:
    groups: list[Group]
    number: int  # 1 is the newest
    has_older: bool
    kind: str  # "" for every kind
    total_unread: int

    @property
    def has_newer(self) -> bool:
        return self.number > 1


def _shown(*, user: Any, kind: str = "") -> QuerySet[Notification]:
    rows = Notification.objects.filter(user=user, in_app=True).exclude(
        kind=Notification.Kind.DIGEST
    )
    return rows.filter(kind=kind) if kind else rows


def page_for(*, user: Any, number: int = 1, kind: str = "", size: int = PAGE_SIZE) -> Page:
    """Page `number` (1: the newest) of `user`'s groups; `kind` keeps that kind only.

    Three queries: the groups of the page (aggregated in the database, one more than asked
    to know whether an older page exists), their newest notices, and their kinds."""
    rows = _shown(user=user, kind=kind)
    # The group: its match, else the notice itself (a notice without a match stands alone).
    # No ordering inside the union's parts (the notices' Meta.ordering): SQLite refuses it.
    heads = list(
        rows.filter(match_id__isnull=False)
        .order_by()
        .values("match_id")
        .annotate(
            latest_id=Max("pk"),
            latest_at=Max("created"),
            count=Count("pk"),
            unread=Count("pk", filter=Q(read_at__isnull=True)),
        )
        .values_list("latest_id", "latest_at", "count", "unread")
        .union(
            rows.filter(match_id__isnull=True)
            .order_by()
            .annotate(
                latest_id=F("pk"),
                latest_at=F("created"),
                count=Value(1),
                unread=Case(When(read_at__isnull=True, then=Value(1)), default=Value(0)),
            )
            .values_list("latest_id", "latest_at", "count", "unread"),
            all=True,
        )
        .order_by("-latest_at", "-latest_id")[(number - 1) * size : number * size + 1]
    )
    has_older = len(heads) > size
    heads = heads[:size]
    latest = Notification.objects.select_related("match").in_bulk([head[0] for head in heads])
    kinds = _kinds_of(rows=rows, notices=[latest[head[0]] for head in heads])
    groups = [
        Group(latest[latest_id], count, unread, kinds.get(_group_key(latest[latest_id]), []))
        for latest_id, _at, count, unread in heads
    ]
    total_unread = _shown(user=user).filter(read_at__isnull=True).count()
    return Page(groups, number, has_older, kind, total_unread)


def _group_key(notice: Notification) -> tuple[str, int]:
    return ("match", notice.match_id) if notice.match_id is not None else ("self", notice.pk)


def _kinds_of(
    *, rows: QuerySet[Notification], notices: list[Notification]
) -> dict[tuple[str, int], list[tuple[str, int]]]:
    """How many of each kind every group on the page holds (one query)."""
    match_ids = [notice.match_id for notice in notices if notice.match_id is not None]
    found: dict[tuple[str, int], list[tuple[str, int]]] = {}
    for notice in notices:
        if notice.match_id is None:
            found[("self", notice.pk)] = [(notice.get_kind_display(), 1)]
    counted = (
        rows.filter(match_id__in=match_ids)
        .values_list("match_id", "kind")
        .annotate(count=Count("pk"))
        .order_by("match_id", "-count", "kind")
    )
    for match_id, kind, count in counted:
        found.setdefault(("match", match_id), []).append((KINDS.get(kind, kind), count))
    return found
