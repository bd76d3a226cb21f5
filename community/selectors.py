"""Reads of chat, reports and sanctions. Chat reads never touch a board: a line is what its
sender typed or the emote they chose, and nothing else."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from community.models import ChatMessage, ChatSetting, Report, Sanction
from games import selectors as games_selectors
from games.models import Match, Seat
from social import selectors as social_selectors

CHAT_SHOWN = 50  # lines a chat panel shows (the newest)


def room_for(*, match: Match, user: Any) -> str | None:
    """The chat room `user` reads and writes in this match: the seats' for a player who
    took a seat (a waiting table's too), the spectators' for anyone else signed in who may
    watch it (an invitee not yet seated watches, as its socket does); None for a visitor,
    or a match this user may not see."""
    if user is None or not user.is_authenticated:
        return None
    if not games_selectors.can_view(match=match, user=user):
        return None
    seat = games_selectors.seat_of(match=match, user=user)
    if seat is not None and seat.joined is not None:
        return ChatMessage.Room.SEATS
    return ChatMessage.Room.WATCH


def is_chat_on(*, user_id: int) -> bool:
    setting = ChatSetting.objects.filter(user_id=user_id).first()
    return setting is None or setting.is_chat_on


def sanction_active(*, user_id: int, kind: str, now: datetime | None = None) -> Sanction | None:
    """The user's current sanction of this kind that lasts longest, or None."""
    now = now or timezone.now()
    return (
        Sanction.objects.filter(user_id=user_id, kind=kind, starts__lte=now, expires__gt=now)
        .order_by("-expires")
        .first()
    )


def is_banned(*, user_id: int) -> bool:
    return sanction_active(user_id=user_id, kind=Sanction.Kind.BAN) is not None


def blocked_ids(*, user: Any) -> set[int]:
    """Everyone `user` blocked or was blocked by (social's blocks, either way): chat between
    them never reaches either."""
    return set(social_selectors.blocked_ids_for(user))


def chat_reaches(*, user: Any, sender_id: int) -> bool:
    """Does a line from `sender_id` reach `user`'s page? Not their own (their page shows
    it already), not with chat off, never across a block."""
    if user is None or not user.is_authenticated or user.pk == sender_id:
        return False
    return is_chat_on(user_id=user.pk) and sender_id not in blocked_ids(user=user)


def messages_for(*, match: Match, room: str, user: Any) -> list[ChatMessage]:
    """The room's newest lines `user` may read, oldest first: not removed, none across a
    block."""
    hidden = blocked_ids(user=user)
    lines = (
        ChatMessage.objects.filter(match=match, room=room, removed__isnull=True)
        .exclude(sender_id__in=hidden)
        .select_related("sender__profile")
        .order_by("-created", "-pk")[:CHAT_SHOWN]
    )
    return list(reversed(lines))


def line_readable(*, message_id: int, user: Any) -> ChatMessage | None:
    """The chat line, if `user` can read it in the room they are in (to report it)."""
    line = ChatMessage.objects.filter(pk=message_id, removed__isnull=True).first()
    if line is None:
        return None
    match = games_selectors.match_get(match_id=line.match_id)
    if match is None or room_for(match=match, user=user) != line.room:
        return None
    if line.sender_id in blocked_ids(user=user):
        return None
    return line


def recent_count(*, user_id: int, since: datetime) -> int:
    return ChatMessage.objects.filter(sender_id=user_id, created__gte=since).count()


@dataclass(frozen=True)
class ChatPanel:
    match: Match
    room: str | None  # None: no chat for this viewer (a visitor, an invitee)
    is_on: bool
    lines: list[ChatMessage]
    muted_until: datetime | None
    muted_reason: str

    @property
    def room_label(self) -> str:
        return "Players' chat" if self.room == ChatMessage.Room.SEATS else "Spectators' chat"


def chat_panel(*, match: Match, user: Any) -> ChatPanel:
    room = room_for(match=match, user=user)
    if room is None:
        return ChatPanel(match, None, False, [], None, "")
    is_on = is_chat_on(user_id=user.pk)
    mute = sanction_active(user_id=user.pk, kind=Sanction.Kind.MUTE)
    lines = messages_for(match=match, room=room, user=user) if is_on else []
    return ChatPanel(
        match, room, is_on, lines, mute.expires if mute else None, mute.reason if mute else ""
    )


# --- the moderators' queue --------------------------------------------------------------------

AROUND = 5  # lines shown before and after a reported one
RECENT_MATCHES = 5


def messages_around(*, message: ChatMessage) -> list[ChatMessage]:
    """The reported line with the AROUND lines before and after it in its room (removed
    lines too: a moderator sees everything)."""
    room = ChatMessage.objects.filter(match_id=message.match_id, room=message.room)
    before = room.filter(
        Q(created__lt=message.created) | Q(created=message.created, pk__lt=message.pk)
    ).order_by("-created", "-pk")[:AROUND]
    after = room.filter(
        Q(created__gt=message.created) | Q(created=message.created, pk__gt=message.pk)
    ).order_by("created", "pk")[:AROUND]
    before_lines = list(before.select_related("sender__profile"))
    return [*reversed(before_lines), message, *after.select_related("sender__profile")]


def matches_recent(*, user_id: int) -> list[Match]:
    seats = Seat.objects.filter(user_id=user_id).values("match_id")
    return list(Match.objects.filter(pk__in=seats).order_by("-created")[:RECENT_MATCHES])


def reports_open() -> QuerySet[Report]:
    return Report.objects.filter(resolved__isnull=True)


def tables_of_banned(*, user_id: int) -> tuple[list[int], list[int]]:
    """The matches a ban ends for `user_id`: (running matches where they still play, tables
    they created or are invited to that have not started), ids in order."""
    running = (
        Match.objects.filter(
            status=Match.Status.ACTIVE,
            seats__user_id=user_id,
            seats__joined__isnull=False,
            seats__resigned=False,
        )
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    waiting = (
        Match.objects.filter(status=Match.Status.WAITING, seats__user_id=user_id)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    return list(dict.fromkeys(running)), list(dict.fromkeys(waiting))
