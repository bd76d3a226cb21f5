"""Quick pairing: "play anyone" for one game and time control (docs/lobby.md).

A seek waits in its pool (game, time control) until a compatible one arrives: the other
player's seek in the same pool, rated with rated and casual with casual, whose rating is
within the wider of the two seeks' windows (`window`, widening the longer a seek waits).
Two compatible seeks become one match at once.

Lock order: every write here first locks the pool's `SeekPool` row, then the seek rows
(`select_for_update`), then match_create's rows. Two players clicking at once in one pool
therefore run one after the other: the second sees the first's seek and pairs with it, so
no click makes two matches and none is lost. A player has one open seek at most (a new one
replaces the old; a unique constraint backs it). A seek expires after `SEEK_MINUTES`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import admission, selectors
from games.boards import has_board
from games.engine import registry
from games.errors import CannotCreate, MatchError, NotSeated, SeatUnavailable
from games.models import Match, Seek, SeekPool
from games.services import clock, tables

SEEK_MINUTES = 10
RATING_WINDOW = 200  # a new seek accepts opponents this close in rating...
WIDEN_PER_MINUTE = 100  # ...and this much more for every minute it has waited
START_RATING = 1500  # a player with no rating in the game yet

# Checks other apps add when they start: check(*, user, is_rated) -> a reason a player can
# read, or None. Asked before a seek is made or accepted (botapi: a bot account joins rated
# pools only when its owner lets it, docs/bot-api.md).
POOL_CHECKS: list[Callable[..., str | None]] = []


def _pool_admits(user: Any, *, is_rated: bool) -> None:
    for check in POOL_CHECKS:
        reason = check(user=user, is_rated=is_rated)
        if reason:
            raise CannotCreate(reason)


def quick_games() -> list[Any]:
    """The games quick pairing offers: those two people can play (with a board)."""
    return [
        game
        for game in registry.all()
        if has_board(game.slug) and game.min_seats <= 2 <= game.max_seats
    ]


def quick_time_controls() -> dict[str, str]:
    """Every time control with a clock (a match between people needs one)."""
    return {key: label for key, (label, seconds) in clock.TIME_CONTROLS.items() if seconds}


def window(seek: Seek, now: dt.datetime) -> int:
    waited = max(0.0, (now - seek.created).total_seconds()) / 60
    return RATING_WINDOW + int(waited * WIDEN_PER_MINUTE)


# A player's rating in a game: rating(user=..., game=...) -> float, or None for no rating
# yet. The ratings app registers it from its AppConfig.ready (`games` imports nothing of
# it); with none, every player seeks at START_RATING.
_rating: Callable[..., float | None] | None = None


def rating_source_register(rating: Callable[..., float | None]) -> None:
    """Match seeks by `rating(user=..., game=...)`. Registering again replaces it."""
    global _rating
    _rating = rating


def rating_of(*, user: Any, game_slug: str) -> int:
    found = _rating(user=user, game=game_slug) if _rating is not None else None
    return round(found) if found is not None else START_RATING


def _check(game_slug: str, time_control: str) -> None:
    if game_slug not in {game.slug for game in quick_games()}:
        raise CannotCreate("Choose one of the games on offer for quick pairing.")
    if time_control not in quick_time_controls():
        raise CannotCreate("Choose one of the time controls on offer for quick pairing.")


def _lock_pool(game_slug: str, time_control: str) -> None:
    key = f"{game_slug}/{time_control}"
    SeekPool.objects.bulk_create([SeekPool(key=key)], ignore_conflicts=True)
    SeekPool.objects.select_for_update().get(key=key)


def seek_create(*, user: Any, game_slug: str, time_control: str, is_rated: bool = True) -> Seek:
    """Look for an opponent: pair at once with a compatible seek, else wait in the pool.

    The returned seek is "paired" with its `match` set, or "open". Any open seek of the
    player in another pool is cancelled: one search at a time.
    """
    _check(game_slug, time_control)
    _pool_admits(user, is_rated=is_rated)
    tables.check_load(user)
    now = timezone.now()
    with transaction.atomic():
        _lock_pool(game_slug, time_control)
        for old in Seek.objects.select_for_update().filter(user=user, status=Seek.Status.OPEN):
            old.status = Seek.Status.CANCELLED
            old.save(update_fields=["status"])
        seek = Seek.objects.create(
            user=user,
            game=game_slug,
            time_control=time_control,
            is_rated=is_rated,
            rating=rating_of(user=user, game_slug=game_slug),
            expires=now + dt.timedelta(minutes=SEEK_MINUTES),
        )
        _pair(seek, now)
    return seek


def seek_refresh(*, user: Any, seek_id: int) -> Seek:
    """The waiting page's poll: pair again with the wider window the wait has earned."""
    seek = _own(user, seek_id)
    now = timezone.now()
    with transaction.atomic():
        _lock_pool(seek.game, seek.time_control)
        seek = Seek.objects.select_for_update().get(pk=seek.pk)
        if seek.status == Seek.Status.OPEN and not seek.is_expired(now):
            _pair(seek, now)
    return seek


def seek_cancel(*, user: Any, seek_id: int) -> Seek:
    seek = _own(user, seek_id)
    with transaction.atomic():
        _lock_pool(seek.game, seek.time_control)
        seek = Seek.objects.select_for_update().get(pk=seek.pk)
        if seek.status == Seek.Status.PAIRED:
            raise SeatUnavailable("You were paired already: your match is waiting for you.")
        seek.status = Seek.Status.CANCELLED
        seek.save(update_fields=["status"])
    return seek


def seek_accept(*, user: Any, seek_id: int) -> Match:
    """Play a seek picked from the list (whatever the ratings): its player and I, at once."""
    seek = Seek.objects.filter(pk=seek_id).first()
    if seek is None:
        raise SeatUnavailable("That player is no longer looking for a match.")
    if seek.user_id == user.pk:
        raise CannotCreate("That is your own search: wait for someone to accept it.")
    _pool_admits(user, is_rated=seek.is_rated)
    tables.check_load(user)
    now = timezone.now()
    with transaction.atomic():
        _lock_pool(seek.game, seek.time_control)
        seek = Seek.objects.select_for_update().get(pk=seek.pk)
        if seek.status != Seek.Status.OPEN or seek.is_expired(now):
            raise SeatUnavailable("That player is no longer looking for a match.")
        for mine in Seek.objects.select_for_update().filter(user=user, status=Seek.Status.OPEN):
            mine.status = Seek.Status.CANCELLED
            mine.save(update_fields=["status"])
        match = _match_for(seek, user)
        _mark_paired(match, seek)
    return match


def _own(user: Any, seek_id: int) -> Seek:
    seek = selectors.seek_get(user=user, seek_id=seek_id)
    if seek is None:
        raise NotSeated("You have no such search.")
    return seek


def _compatible(seek: Seek, other: Seek, now: dt.datetime) -> bool:
    reach = max(window(seek, now), window(other, now))
    return other.is_rated == seek.is_rated and abs(other.rating - seek.rating) <= reach


def _pair(seek: Seek, now: dt.datetime) -> None:
    """With the pool locked: match `seek` with the closest compatible seek, if any."""
    candidates = (
        Seek.objects.select_for_update()
        .filter(
            game=seek.game,
            time_control=seek.time_control,
            status=Seek.Status.OPEN,
            expires__gt=now,
        )
        .exclude(user=seek.user_id)
        .order_by("created")
    )
    fitting = [other for other in candidates if _compatible(seek, other, now)]
    for other in sorted(fitting, key=lambda other: abs(other.rating - seek.rating)):
        try:
            with transaction.atomic():  # a savepoint: a refused pairing writes nothing
                match = _match_for(other, seek.user)
        except MatchError:
            continue  # e.g. that player reached the cap of timed matches meanwhile, or
            # one of the two blocked the other (games.admission): both wait on
        _mark_paired(match, other, seek)
        return


def _match_for(waiting: Seek, joiner: Any) -> Match:
    """The match of two seeks: the player who waited in seat 0, both seated at once.

    Refused (CannotCreate, in the joiner's words) when games.admission keeps the two apart.
    """
    reason = admission.refusal(user=joiner, others=[waiting.user])
    if reason:
        raise CannotCreate(reason)
    return tables.match_create(
        creator=waiting.user,
        game_slug=waiting.game,
        others=[tables.SeatSpec(kind="player", username=joiner.get_username())],
        time_control=waiting.time_control,
        is_casual=not waiting.is_rated,
        all_seated=True,
    )


def _mark_paired(match: Match, *seeks: Seek) -> None:
    for seek in seeks:
        seek.status = Seek.Status.PAIRED
        seek.match = match
        seek.save(update_fields=["status", "match"])
