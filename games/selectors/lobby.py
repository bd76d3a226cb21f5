"""Reads of the lobby: private tables by link, a table's rules and kind, the seek list.

Nothing here writes (games.services.tables and games.services.pairing do).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from games import rule_options
from games.models import Match, Seek

TOKEN_MAX = 64

# Whether a table of a game with so many seats can be rated: check(game=slug, seats=n). The
# ratings app knows the systems and registers it from its AppConfig.ready (`games` imports
# nothing of it); with no check, no table is rated.
_rateable: Callable[..., bool] | None = None


def rateable_register(check: Callable[..., bool]) -> None:
    """Ask `check(game=..., seats=...)` whether a table can be rated. Registering again
    replaces it."""
    global _rateable
    _rateable = check


def _is_rateable(*, game: str, seats: int) -> bool:
    return _rateable is not None and _rateable(game=game, seats=seats)


def match_id_by_invite(*, token: Any) -> int | None:
    """The waiting private table whose link holds `token`; None for any other text."""
    if not isinstance(token, str) or not token or len(token) > TOKEN_MAX:
        return None
    return (
        Match.objects.filter(invite_token=token, status=Match.Status.WAITING)
        .values_list("pk", flat=True)
        .first()
    )


def match_by_invite(*, token: Any) -> Match | None:
    match_id = match_id_by_invite(token=token)
    return Match.objects.filter(pk=match_id).first() if match_id is not None else None


def table_kind(*, match: Match) -> str:
    """ "Casual", "Rated" (a table between people that will be rated), or "" (it cannot be:
    an AI seat, a tutorial, a weekly run, a game with no rating)."""
    if match.is_casual:
        return "Casual"
    if match.tutorial or match.private_until is not None:
        return ""
    seats = list(match.seats.all())
    if len(seats) < 2 or any(seat.is_ai for seat in seats):
        return ""
    return "Rated" if _is_rateable(game=match.game, seats=len(seats)) else ""


@dataclass(frozen=True)
class TableRules:
    kind: str  # table_kind
    changed: list[rule_options.Shown]  # the options away from the standard rules
    every: list[rule_options.Shown]  # every offered option, defaults included


def table_rules(*, match: Match) -> TableRules:
    return TableRules(
        kind=table_kind(match=match),
        changed=rule_options.changed(match.game, match.options),
        every=rule_options.summary(match.game, match.options),
    )


def seek_get(*, user: Any, seek_id: int) -> Seek | None:
    """The user's own seek (None: not theirs, or no such seek)."""
    if not user.is_authenticated:
        return None
    return Seek.objects.filter(pk=seek_id, user=user).select_related("match").first()


def seek_open_of(*, user: Any) -> Seek | None:
    if not user.is_authenticated:
        return None
    return Seek.objects.filter(user=user, status=Seek.Status.OPEN).first()


# A block between two players, either way, by the user's relations (social's Block, named
# by its related names as the open tables' list does: games.selectors.lists).
BLOCKED_BY_SEEKER, BLOCKED_SEEKER = "user__blocks__blocked", "user__blocked_by__blocker"


def seek_list(*, user: Any, limit: int = 50) -> list[Seek]:
    """Open seeks of other players that have not expired, oldest first: the seek list.
    A player blocked either way is not listed (picking their seek would be refused)."""
    seeks = Seek.objects.filter(status=Seek.Status.OPEN, expires__gt=timezone.now())
    if user.is_authenticated:
        seeks = seeks.exclude(user=user)
        seeks = seeks.exclude(**{BLOCKED_BY_SEEKER: user}).exclude(**{BLOCKED_SEEKER: user})
    return list(seeks.select_related("user").order_by("created")[:limit])
