"""Reads of follows, blocks and presence. Nothing here writes.

`blocked_between` and `blocked_ids_for` are what other apps read (chat, the admission
check): a block counts in both directions.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Q

from social.models import Block, Follow, Visibility


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


def block_refusal(*, user: Any, others: Iterable[Any]) -> str | None:
    """games.admission's check: a reason `user` may not sit with `others`, or None."""
    others = list(others)
    ids = {other.pk: other for other in others}
    rows = Block.objects.filter(
        Q(blocker=user.pk, blocked__in=ids) | Q(blocked=user.pk, blocker__in=ids)
    ).values_list("blocker_id", "blocked_id")
    for blocker, blocked in rows:
        if blocker == user.pk:
            name = ids[blocked].get_username()
            return f"You have blocked {name}: unblock them on their page to play with them."
        name = ids[blocker].get_username()
        return f"{name} is not taking matches with you."
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
