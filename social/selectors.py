"""Reads of follows, blocks and presence. Nothing here writes.

`blocked_between` and `blocked_ids_for` are what other apps read (chat, the admission
check): a block counts in both directions.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.urls import reverse

from accounts.names import display_name
from games import presence
from games.models import Match, Seat
from social.models import Block, Follow, Visibility

MAX_PRESENCE_MATCHES = 50  # the most friends' matches read for presence on one page


def blocked_between(user_a: Any, user_b: Any) -> bool:
    """Has either player blocked the other?"""
    if user_a is None or user_b is None or user_a.pk == user_b.pk:
        return False
    return Block.objects.filter(
        Q(blocker=user_a.pk, blocked=user_b.pk) | Q(blocker=user_b.pk, blocked=user_a.pk)
    ).exists()


def blocked_ids_for(user: Any) -> set[int]:
    """The ids of every player `user` has blocked or been blocked by."""
    if user is None or not getattr(user, "is_authenticated", True):
        return set()
    rows = Block.objects.filter(Q(blocker=user.pk) | Q(blocked=user.pk)).values_list(
        "blocker_id", "blocked_id"
    )
    return {other for pair in rows for other in pair if other != user.pk}


def has_blocked(*, user: Any, other: Any) -> bool:
    """Has `user` blocked `other` (one direction: what their page offers to undo)?"""
    return Block.objects.filter(blocker=user.pk, blocked=other.pk).exists()


def block_refusal(*, user: Any, others: Iterable[Any], doing: str = "play") -> str | None:
    """games.admission's check: a reason `user` may not sit with `others` (or, with
    `doing="follow"`, follow them), or None."""
    ids = {other.pk: other for other in others}
    if not ids:
        return None
    rows = Block.objects.filter(
        Q(blocker=user.pk, blocked__in=ids) | Q(blocked=user.pk, blocker__in=ids)
    ).values_list("blocker_id", "blocked_id")
    for blocker, blocked in rows:
        if blocker == user.pk:
            name = ids[blocked].get_username()
            verb = "play with" if doing == "play" else doing
            return f"You have blocked {name}: unblock them on their page to {verb} them."
        name = ids[blocker].get_username()
        return f"{name} is not taking {'matches' if doing == 'play' else 'follows'} from you."
    return None


def is_following(*, user: Any, other: Any) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    return Follow.objects.filter(follower=user.pk, followed=other.pk).exists()


def followed_ids(user: Any) -> set[int]:
    """The ids of the players `user` follows (their friends)."""
    if not getattr(user, "is_authenticated", False):
        return set()
    return set(Follow.objects.filter(follower=user.pk).values_list("followed_id", flat=True))


def shows_online(user: Any) -> bool:
    return Visibility.objects.filter(user=user.pk, shows_online=True).exists()


@dataclass(frozen=True)
class Friend:
    """A player I follow, as the friends page shows them."""

    username: str
    name: str
    url: str
    is_online: bool | None  # None: they keep it to themselves (or presence is unknown)
    follows_back: bool


def friends_of(*, user: Any) -> list[Friend]:
    """The players `user` follows, online ones first (where they consent to show it)."""
    follows = (
        Follow.objects.filter(follower=user.pk)
        .select_related("followed__profile", "followed__visibility")
        .order_by("followed__username")
    )
    players = [follow.followed for follow in follows if follow.followed.is_active]
    back = set(
        Follow.objects.filter(followed=user.pk, follower__in=players).values_list(
            "follower_id", flat=True
        )
    )
    consenting = [player.pk for player in players if _consents(player)]
    online = online_ids(user_ids=consenting)
    friends = [
        Friend(
            username=player.get_username(),
            name=display_name(player),
            url=reverse("player", args=[player.get_username()]),
            is_online=(player.pk in online)
            if online is not None and player.pk in consenting
            else None,
            follows_back=player.pk in back,
        )
        for player in players
    ]
    return sorted(friends, key=lambda friend: not friend.is_online)


def _consents(player: Any) -> bool:
    visibility = getattr(player, "visibility", None)
    return visibility is not None and visibility.shows_online


def online_ids(*, user_ids: Iterable[int]) -> set[int] | None:
    """Which of `user_ids` are online: have one of their matches open in a page right now.

    Presence is what games.presence already records for reminders (one entry per player and
    match page, kept alive by the match socket's heartbeat): nothing is tracked twice. None
    when the cache cannot tell (Redis down)."""
    user_ids = set(user_ids)
    if not user_ids:
        return set()
    seats = (
        Seat.objects.filter(
            user__in=user_ids,
            joined__isnull=False,
            match__status__in=[Match.Status.ACTIVE, Match.Status.WAITING],
        )
        .order_by("-match__updated")
        .values_list("match_id", "user_id")[: MAX_PRESENCE_MATCHES * 4]
    )
    by_match: dict[int, list[int]] = defaultdict(list)
    for match_id, user_id in seats:
        if len(by_match) < MAX_PRESENCE_MATCHES or match_id in by_match:
            by_match[match_id].append(user_id)
    online: set[int] = set()
    for match_id, players in by_match.items():
        looking = presence.looking(match_id=match_id, user_ids=players)
        if looking.is_unknown:
            return None
        online |= looking.user_ids
    return online


def is_online(*, player: Any) -> bool | None:
    """`player` online (True/False) if they consent to show it, else None."""
    if not shows_online(player):
        return None
    online = online_ids(user_ids=[player.pk])
    return None if online is None else player.pk in online


@dataclass(frozen=True)
class PlayerRelation:
    """What a player page offers the viewer: follow or unfollow, block or unblock."""

    is_self: bool
    is_following: bool
    has_blocked: bool
    is_blocked_by: bool
    is_online: bool | None


def relation(*, viewer: Any, player: Any) -> PlayerRelation | None:
    """None for a visitor who is not signed in."""
    if not getattr(viewer, "is_authenticated", False):
        return None
    if viewer.pk == player.pk:
        return PlayerRelation(True, False, False, False, is_online(player=player))
    blocks = set(
        Block.objects.filter(
            Q(blocker=viewer.pk, blocked=player.pk) | Q(blocker=player.pk, blocked=viewer.pk)
        ).values_list("blocker_id", flat=True)
    )
    return PlayerRelation(
        is_self=False,
        is_following=is_following(user=viewer, other=player),
        has_blocked=viewer.pk in blocks,
        is_blocked_by=player.pk in blocks,
        is_online=is_online(player=player),
    )


def blocked_players(*, user: Any) -> list[Any]:
    """The players `user` has blocked (for the friends page's list to undo)."""
    return [
        block.blocked
        for block in Block.objects.filter(blocker=user.pk).select_related("blocked__profile")
    ]
