"""Reads across matches: a player's match lists, open and live tables, reliability, load.

Nothing here writes. One match's reads (its replayed state, board, clocks) are in
`games.selectors.matches`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import CharField, Count, Exists, F, OuterRef, Q, Value
from django.db.models.functions import Cast, Concat
from django.utils import timezone

from games.models import Match, Seat
from games.selectors.lobby import table_rules
from games.selectors.matches import opponent_names

# The players a user follows, and the blocks between a host and a user, reached through
# social's Follow and Block rows by their query names so that games imports nothing of it.
FOLLOWED_BY = "followers__follower"
BLOCKED_BY_HOST, BLOCKED_HOST = "created_by__blocks__blocked", "created_by__blocked_by__blocker"


def matches_for_user(*, user: Any, friends_only: bool = False) -> dict[str, list[Match]]:
    """The user's matches, grouped: their turn first, then waiting on others, invites, done.

    `friends_only`: only matches with a player the user follows (docs/social.md)."""
    seats = Seat.objects.filter(user=user)
    if friends_only:
        with_friends = Match.objects.filter(**{f"seats__user__{FOLLOWED_BY}": user})
        seats = seats.filter(match__in=with_friends.values("pk"))
    seats = (
        seats.select_related("match")
        .prefetch_related("match__seats__user__profile")
        .order_by("-match__updated")
    )
    groups: dict[str, list[Match]] = {
        "my_turn": [],
        "their_turn": [],
        "invites": [],
        "waiting": [],
        "finished": [],
    }
    for seat in seats[:200]:
        match = seat.match
        match.my_seat = seat
        match.opponent_names = opponent_names(match=match, seat_index=seat.index)
        if match.status == Match.Status.ACTIVE:
            groups["my_turn" if seat.index in match.seats_to_act else "their_turn"].append(match)
        elif match.status == Match.Status.WAITING:
            groups["invites" if seat.joined is None else "waiting"].append(match)
        else:
            groups["finished"].append(match)
    groups["finished"] = groups["finished"][:20]
    # The most urgent first: the nearest deadline (untimed matches after the timed ones).
    groups["my_turn"].sort(key=lambda m: (m.my_seat.deadline is None, m.my_seat.deadline or 0))
    return groups


def open_matches(
    *, user: Any, min_reliability: int | None = None, friends_only: bool = False
) -> list[Match]:
    """Waiting matches with a seat anyone may take, not the user's own, not yet expired,
    never a private table (docs/lobby.md).

    Each carries `host_reliability` (`reliability` of its creator); with
    `min_reliability` (a percentage), only hosts at least that reliable are listed (a new
    player, with too few matches to tell, passes only a filter of 0). `friends_only`: only
    tables hosted by a player the user follows. A table whose host and the user are kept
    apart by a block is never listed.
    """
    cutoff = timezone.now() - timedelta(hours=settings.OPEN_TABLE_HOURS)
    matches = Match.objects.filter(
        status=Match.Status.WAITING,
        created__gt=cutoff,
        invite_token="",  # a private table is reached by its link only
        seats__kind=Seat.Kind.HUMAN,
        seats__user__isnull=True,
    ).distinct()
    if user.is_authenticated:
        matches = matches.exclude(seats__user=user)
        if friends_only:
            matches = matches.filter(**{f"created_by__{FOLLOWED_BY}": user})
        # Nor tables whose host and I are kept apart by a block (either way): the seat
        # would be refused (games.admission).
        matches = matches.exclude(**{BLOCKED_BY_HOST: user}).exclude(**{BLOCKED_HOST: user})
    matches = matches.select_related("created_by").prefetch_related("seats__user__profile")
    listed = []
    by_host: dict[Any, Reliability] = {}  # one host often has several tables open
    for match in matches.order_by("-created")[:200]:
        if match.created_by_id not in by_host:
            by_host[match.created_by_id] = reliability(user=match.created_by)
        match.host_reliability = by_host[match.created_by_id]
        match.table_rules = table_rules(match=match)
        if min_reliability and not match.host_reliability.at_least(min_reliability):
            continue
        listed.append(match)
    return listed[:50]


def live_matches(*, user: Any, limit: int = 20) -> list[Match]:
    """Public matches in play between people, most recently moved first, to watch."""
    matches = (
        Match.objects.filter(
            status=Match.Status.ACTIVE, private_until__isnull=True, tutorial="", invite_token=""
        )
        .annotate(humans=Count("seats", filter=Q(seats__kind=Seat.Kind.HUMAN)))
        .filter(humans__gte=2)
        .prefetch_related("seats__user__profile")
        .order_by("-updated")
    )
    if user.is_authenticated:
        matches = matches.exclude(seats__user=user)
    return list(matches[:limit])


@dataclass(frozen=True)
class Reliability:
    """How often a player sees a match with other players through: the share of finished
    matches not lost on time and not abandoned (resigned without making a single move)."""

    finished: int
    kept: int

    MIN_MATCHES = 3  # fewer finished matches than this: too new to tell

    @property
    def percent(self) -> int | None:
        if self.finished < self.MIN_MATCHES:
            return None
        return round(100 * self.kept / self.finished)

    def at_least(self, percent: int) -> bool:
        return self.percent is not None and self.percent >= percent


def reliability(*, user: Any) -> Reliability:
    if user is None:
        return Reliability(0, 0)
    seats = Seat.objects.filter(
        user=user, joined__isnull=False, match__status=Match.Status.FINISHED
    ).annotate(
        humans=Count("match__seats", filter=Q(match__seats__kind=Seat.Kind.HUMAN)),
        my_moves=Count(
            "match__moves", filter=Q(match__moves__seat=F("index"), match__moves__user=user)
        ),
    )
    seats = seats.filter(humans__gte=2)
    finished = kept = 0
    for seat in seats.only("timed_out", "resigned", "index"):
        finished += 1
        is_abandoned = seat.resigned and seat.my_moves == 0
        kept += not (seat.timed_out or is_abandoned)
    return Reliability(finished, kept)


@dataclass(frozen=True)
class Load:
    """Timed (correspondence) matches a player is in, and how many they may be in at once."""

    playing: int
    cap: int


BASE_CAP, MAX_CAP = 10, 100


def correspondence_load(*, user: Any) -> Load:
    playing = Seat.objects.filter(
        user=user,
        match__move_seconds__isnull=False,
        match__status__in=[Match.Status.WAITING, Match.Status.ACTIVE],
    ).count()
    finished = Seat.objects.filter(
        user=user, joined__isnull=False, match__status=Match.Status.FINISHED
    ).count()
    return Load(playing=playing, cap=min(MAX_CAP, BASE_CAP + finished // 2))


def turn_count_for(*, user: Any) -> int:
    if not user.is_authenticated:
        return 0
    return sum(
        1
        for seat in Seat.objects.filter(
            user=user, match__status=Match.Status.ACTIVE
        ).select_related("match")
        if seat.index in seat.match.seats_to_act
    )


def automation_stalled_ids(*, since: Any) -> list[int]:
    """Running, unpaused matches unchanged since `since` where an AI seat is to act: the
    task that should have moved for it was lost (a broker outage, a killed worker)."""
    index = Cast("index", CharField())
    is_to_act = (
        Q(match__to_act=index)
        | Q(match__to_act__startswith=Concat(index, Value(",")))
        | Q(match__to_act__endswith=Concat(Value(","), index))
        | Q(match__to_act__contains=Concat(Value(","), index, Value(",")))
    )
    ai_to_act = Seat.objects.filter(is_to_act, match=OuterRef("pk"), kind=Seat.Kind.AI)
    return list(
        Match.objects.filter(
            Exists(ai_to_act),
            status=Match.Status.ACTIVE,
            paused_at__isnull=True,
            updated__lte=since,
        )
        .order_by("updated")
        .values_list("pk", flat=True)
    )


def tables_waiting_with(*, user: Any, other: Any) -> list[int]:
    """The ids of the tables not started yet where `user` and `other` both have a seat and
    one of them has not taken it: an invitation between them, either way, still open."""
    both = Match.objects.filter(status=Match.Status.WAITING, seats__user=user).filter(
        seats__user=other
    )
    unjoined = Seat.objects.filter(
        match=OuterRef("pk"), user__in=[user.pk, other.pk], joined__isnull=True
    )
    return list(
        both.filter(Exists(unjoined)).order_by("pk").values_list("pk", flat=True).distinct()
    )
