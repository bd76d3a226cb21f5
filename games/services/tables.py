"""Tables: creating a match (or a tutorial), joining, filling with AI, cancelling."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games import effects, selectors, tutorials
from games.boards import has_board
from games.engine import registry
from games.engine.core import Game, InvalidOptions
from games.errors import CannotCreate, LimitReached, MatchFinished, NotSeated, SeatUnavailable
from games.models import Match, Seat
from games.services import clock
from games.services._shared import AI_LEVELS, TUTOR, locked, to_act

OPPONENTS = ("ai", "player", "open")


def tutorial_start(*, user: Any, game_slug: str) -> Match:
    """A first match against the tutor: the tutorial's fixed deal and scripted opening."""
    tutorial = tutorials.get(game_slug)
    if tutorial is None:
        raise CannotCreate("There is no tutorial for that game yet.")
    return match_create(
        creator=user,
        game_slug=game_slug,
        opponent="ai",
        ai_level=TUTOR,
        options=tutorial.options,
        tutorial=game_slug,
    )


@dataclass(frozen=True)
class SeatSpec:
    """Who takes one of the other seats of a new table."""

    kind: str  # "ai", "player" (a named, invited player) or "open" (anyone may take it)
    ai_level: str = "random"
    username: str = ""


def match_create(
    *,
    creator: Any,
    game_slug: str,
    opponent: str = "",
    invitee_username: str = "",
    ai_level: str = "random",
    options: Mapping[str, Any] | None = None,
    tutorial: str = "",
    others: Sequence[SeatSpec] | None = None,
    private_until: Any = None,
    seed: bytes | None = None,
    time_control: str = "",
) -> Match:
    """Open a table: the creator in seat 0, then `others` in order.

    For a two-seat game `opponent` (+ `invitee_username` / `ai_level`) is the short form of
    a one-seat `others`. The match starts as soon as every seat is taken. `seed` is a fresh
    random 32 bytes unless given (a weekly challenge run deals from the week's seed).
    `time_control` is a key of clock.TIME_CONTROLS; "" picks the table's default (a day
    per move with other players, no clock against the AI alone).
    """
    game = _open_game(game_slug)
    if others is None:
        others = _short_form(game, opponent, invitee_username, ai_level)
    size = len(others) + 1
    if not game.min_seats <= size <= game.max_seats:
        raise CannotCreate(f"{game.name} is played by {_seat_range(game)} players.")
    invitees = _check_others(creator, others)
    move_seconds = clock.move_seconds_for(
        time_control, has_other_players=any(spec.kind != "ai" for spec in others)
    )
    if move_seconds is not None:
        _check_load(creator)
    seed = os.urandom(32) if seed is None else bytes(seed)
    options = dict(options or {})
    try:
        game.new(size, seed, options)
    except InvalidOptions as error:
        raise CannotCreate(error.message) from None
    now = timezone.now()
    with transaction.atomic():
        match = Match.objects.create(
            game=game.slug,
            options=options,
            size=size,
            seed=seed,
            seed_commitment=Match.commitment_for(seed),
            created_by=creator,
            tutorial=tutorial,
            private_until=private_until,
            move_seconds=move_seconds,
        )
        _seat_add(match, 0, user=creator, joined=now)
        for index, (spec, invitee) in enumerate(zip(others, invitees, strict=True), start=1):
            if spec.kind == "ai":
                _seat_add(match, index, ai_level=spec.ai_level, joined=now)
            else:
                _seat_add(match, index, user=invitee)
        clock.clocks_new_table(match)
        _start_if_full(match)
    return match


def _seat_add(
    match: Match, index: int, *, user: Any = None, ai_level: str = "", joined: Any = None
) -> Seat:
    """One seat of a new table: the AI (`ai_level`), a player (`joined` when seated at
    once, else invited, which is announced), or an open seat (no user)."""
    if ai_level:
        return Seat.objects.create(
            match=match, index=index, kind=Seat.Kind.AI, ai_level=ai_level, joined=joined
        )
    seat = Seat.objects.create(match=match, index=index, user=user, joined=joined)
    if user is not None and joined is None:
        effects.seat_invited(match=match, seat=seat)
    return seat


def _open_game(game_slug: str) -> Game:
    try:
        game = registry.get(game_slug)
    except registry.UnknownGame as error:
        raise CannotCreate(error.message) from None
    if not has_board(game.slug):
        raise CannotCreate(f"{game.name} is not open for play yet.")
    return game


def _short_form(game: Game, opponent: str, username: str, ai_level: str) -> list[SeatSpec]:
    if game.max_seats == 1:
        return []
    if opponent not in OPPONENTS:
        raise CannotCreate("Choose an opponent: the AI, a named player, or an open seat.")
    return [SeatSpec(kind=opponent, ai_level=ai_level, username=username)]


def _seat_range(game: Game) -> str:
    if game.min_seats == game.max_seats:
        return f"exactly {game.min_seats}"
    return f"{game.min_seats} to {game.max_seats}"


def _check_others(creator: Any, others: Sequence[SeatSpec]) -> list[Any]:
    """The invited users, seat by seat (None for AI and open seats), after every check."""
    invitees = []
    for spec in others:
        if spec.kind not in OPPONENTS:
            raise CannotCreate("Each seat is the AI, a named player, or an open seat.")
        if spec.kind == "ai" and spec.ai_level not in AI_LEVELS and spec.ai_level != TUTOR:
            raise CannotCreate("Choose one of the AI levels on offer.")
        invitees.append(_invitee(creator, spec.username) if spec.kind == "player" else None)
    named = [user.pk for user in invitees if user is not None]
    if len(named) != len(set(named)):
        raise CannotCreate("Each invited player can take only one seat.")
    return invitees


def _invitee(creator: Any, username: str) -> Any:
    username = username.strip()
    if not username:
        raise CannotCreate("Type the username of the player you want to invite.")
    invitee = get_user_model().objects.filter(username__iexact=username, is_active=True).first()
    if invitee is None:
        raise CannotCreate(f"There is no player called “{username}”.")
    if invitee.pk == creator.pk:
        raise CannotCreate(
            "You cannot invite yourself: pick another player, the AI or an open seat."
        )
    return invitee


def match_join(*, match_id: int, user: Any) -> Match:
    """Take an open seat, or accept an invitation. Starts the match once every seat is taken."""
    with transaction.atomic():
        match = locked(match_id)
        if match.is_finished:
            raise MatchFinished("This match is over.")
        if match.status != Match.Status.WAITING:
            raise SeatUnavailable("This match has already started.")
        seats = list(match.seats.select_for_update())
        mine = next((seat for seat in seats if seat.user_id == user.pk), None)
        if mine is not None:
            if mine.joined is not None:
                raise SeatUnavailable("You already have a seat at this table.")
            seat = mine
        else:
            seat = next((seat for seat in seats if seat.is_open), None)
            if seat is None:
                raise SeatUnavailable("This match is full.")
            seat.user = user
        if match.is_timed:
            _check_load(user)
        seat.joined = timezone.now()
        seat.save(update_fields=["user", "joined"])
        _start_if_full(match)
    return match


def match_fill_with_ai(*, match_id: int, user: Any, ai_level: str = "random") -> Match:
    """The host seats the AI in every seat not yet taken (open or still invited); it starts."""
    if ai_level not in AI_LEVELS:
        raise CannotCreate("Choose one of the AI levels on offer.")
    with transaction.atomic():
        match = locked(match_id)
        if match.status != Match.Status.WAITING:
            raise SeatUnavailable("Only a table that has not started can be filled.")
        if match.created_by_id != user.pk:
            raise NotSeated("Only the host can fill the table with AI players.")
        now = timezone.now()
        for seat in match.seats.select_for_update().filter(joined__isnull=True):
            seat.kind, seat.user, seat.ai_level, seat.joined = Seat.Kind.AI, None, ai_level, now
            seat.save(update_fields=["kind", "user", "ai_level", "joined"])
        _start_if_full(match)
    return match


def match_cancel(*, match_id: int, user: Any) -> Match:
    """Withdraw from a match that has not started: the creator cancels, an invitee declines."""
    with transaction.atomic():
        match = locked(match_id)
        if match.status != Match.Status.WAITING:
            raise SeatUnavailable("Only a match that has not started can be cancelled.")
        if selectors.seat_of(match=match, user=user) is None:
            raise NotSeated("You have no seat at this table.")
        match.status = Match.Status.CANCELLED
        match.finished = timezone.now()
        match.save(update_fields=["status", "finished", "updated"])
        effects.match_changed(match=match)
    return match


def _start_if_full(match: Match) -> None:
    if any(seat.joined is None for seat in match.seats.all()):
        match.save(update_fields=["updated"])
        effects.match_changed(match=match)
        return
    game = registry.get(match.game)
    state = game.new(match.size, bytes(match.seed), match.options)
    match.status = Match.Status.ACTIVE
    match.started = timezone.now()
    match.to_act = to_act(game.to_act(state))
    match.save(update_fields=["status", "started", "to_act", "updated"])
    clock.clocks_update(match)
    effects.match_changed(match=match)


def _check_load(user: Any) -> None:
    """The cap on simultaneous correspondence matches, which grows with finished ones."""
    load = selectors.correspondence_load(user=user)
    if load.playing >= load.cap:
        raise LimitReached(
            f"You are in {load.playing} timed matches already, the most for now. Finish some"
            " first: every two finished matches raise your limit by one."
        )


def match_rematch(*, match_id: int, user: Any) -> Match:
    """Play again: the same players, game, options and clock, seats turned by one.

    The first player to ask opens the new table (seated at once; the others are invited
    and AI seats sit down); any other player asking joins it, so it takes one click each.
    """
    with transaction.atomic():
        match = locked(match_id)
        seat = selectors.seat_of(match=match, user=user)
        if seat is None or seat.joined is None:
            raise NotSeated("Only the players of a match can ask for a rematch.")
        if match.status != Match.Status.FINISHED:
            raise SeatUnavailable("A rematch can be asked for once the match is over.")
        if match.tutorial or match.private_until is not None:
            raise CannotCreate("This match cannot be replayed as a rematch.")
        rematch = Match.objects.filter(rematch_of=match).first()
        if rematch is None:
            return _rematch_open(match, user)
    if rematch.status == Match.Status.WAITING:
        mine = selectors.seat_of(match=rematch, user=user)
        if mine is None or mine.joined is None:
            return match_join(match_id=rematch.pk, user=user)
    return rematch


def _rematch_open(match: Match, user: Any) -> Match:
    if match.is_timed:
        _check_load(user)
    old_seats = list(match.seats.all())
    now = timezone.now()
    seed = os.urandom(32)
    rematch = Match.objects.create(
        game=match.game,
        options=match.options,
        size=match.size,
        seed=seed,
        seed_commitment=Match.commitment_for(seed),
        created_by=user,
        move_seconds=match.move_seconds,
        rematch_of=match,
    )
    for old in old_seats:
        index = (old.index + 1) % match.size
        if old.is_ai:
            _seat_add(rematch, index, ai_level=old.ai_level, joined=now)
        else:
            _seat_add(rematch, index, user=old.user, joined=now if old.user_id == user.pk else None)
    clock.clocks_new_table(rematch)
    _start_if_full(rematch)
    return rematch
