"""Every write of the social app: follows, blocks, the online-consent setting, challenges.

Each write is one statement or one transaction; adding what exists already (a second
follow or block, a double click) changes nothing, backed by the unique constraints
(`get_or_create` re-reads after losing a race). A refusal writes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.db.models import Q

from accounts.selectors import user_get_by_username
from games import selectors as games_selectors
from games import services as games_services
from games.models import Match
from social import selectors
from social.errors import Blocked, NoSuchPlayer, NotWithYourself
from social.models import Block, Follow, Visibility


def player_get(*, username: str) -> Any:
    player = user_get_by_username(username=username)
    if player is None:
        raise NoSuchPlayer(f"There is no player called “{username}”.")
    return player


def _other(user: Any, username: str, doing: str) -> Any:
    other = player_get(username=username)
    if other.pk == user.pk:
        raise NotWithYourself(f"You cannot {doing} yourself.")
    return other


def follow_create(*, user: Any, username: str) -> Follow:
    """Follow a player: they join my friends. Refused across a block."""
    other = _other(user, username, "follow")
    reason = selectors.block_refusal(user=user, others=[other], doing="follow")
    if reason:
        raise Blocked(reason)
    follow, _created = Follow.objects.get_or_create(follower=user, followed=other)
    return follow


def follow_delete(*, user: Any, username: str) -> Any:
    other = _other(user, username, "unfollow")
    Follow.objects.filter(follower=user, followed=other).delete()
    return other


def block_create(*, user: Any, username: str) -> Block:
    """Block a player: neither may invite, challenge, join or be paired with the other
    (games.admission), the follows between them end, and an invitation still open between
    them, either way, is withdrawn: the blocker cancels or declines that table, as they
    could by hand (`games.services.match_cancel`; a match under way plays on)."""
    other = _other(user, username, "block")
    with transaction.atomic():
        block, _created = Block.objects.get_or_create(blocker=user, blocked=other)
        Follow.objects.filter(
            Q(follower=user, followed=other) | Q(follower=other, followed=user)
        ).delete()
        for match_id in games_selectors.tables_waiting_with(user=user, other=other):
            games_services.match_cancel(match_id=match_id, user=user)
    return block


def block_delete(*, user: Any, username: str) -> Any:
    other = _other(user, username, "unblock")
    Block.objects.filter(blocker=user, blocked=other).delete()
    return other


def visibility_set(*, user: Any, shows_online: bool) -> Visibility:
    visibility, _created = Visibility.objects.update_or_create(
        user=user, defaults={"shows_online": shows_online}
    )
    return visibility


def challenge_create(
    *,
    user: Any,
    username: str,
    game_slug: str,
    time_control: str = "",
    options: Mapping[str, Any] | None = None,
    rules: Mapping[str, Any] | None = None,
    is_casual: bool = False,
) -> Match:
    """Challenge a player: a table with them invited to its other seat, made by
    games.services.match_create (which asks games.admission: a block refuses it there,
    writing nothing, with its MatchError)."""
    other = _other(user, username, "challenge")
    return games_services.match_create(
        creator=user,
        game_slug=game_slug,
        opponent="player",
        invitee_username=other.get_username(),
        time_control=time_control,
        options=options,
        rules=rules,
        is_casual=is_casual,
    )
