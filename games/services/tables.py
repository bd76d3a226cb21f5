"""Tables: creating a match (or a tutorial), joining, filling with AI, cancelling."""

from __future__ import annotations

import hmac
import os
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games import admission, effects, rule_options, selectors
from games.ai import levels
from games.boards import has_board, tutorial_for
from games.engine import registry
from games.engine.core import Game, InvalidOptions
from games.errors import (
    CannotCreate,
    LimitReached,
    MatchError,
    MatchFinished,
    MatchNotFound,
    NotSeated,
    SeatUnavailable,
)
from games.models import Match, Seat
from games.services import clock
from games.services._shared import TUTOR, locked, to_act

OPPONENTS = ("ai", "player", "open")


def tutorial_start(*, user: Any, game_slug: str) -> Match:
    """A first match against the tutor: the tutorial's fixed deal and scripted opening."""
    tutorial = tutorial_for(game_slug)
    if tutorial is None:
        raise CannotCreate("There is no tutorial for that game yet.")
    return match_create(
        creator=user,
        game_slug=tutorial.game,  # a further tutorial's key ("grimhand-arcana") is no game
        opponent="ai",
        ai_level=TUTOR,
        options=tutorial.options,
        tutorial=game_slug,
    )


@dataclass(frozen=True)
class SeatSpec:
    """Who takes one of the other seats of a new table."""

    kind: str  # "ai", "player" (a named, invited player) or "open" (anyone may take it)
    ai_level: str = levels.DEFAULT
    username: str = ""


def match_create(
    *,
    creator: Any,
    game_slug: str,
    opponent: str = "",
    invitee_username: str = "",
    ai_level: str = levels.DEFAULT,
    options: Mapping[str, Any] | None = None,
    tutorial: str = "",
    others: Sequence[SeatSpec] | None = None,
    private_until: Any = None,
    seed: bytes | None = None,
    time_control: str = "",
    rules: Mapping[str, Any] | None = None,
    is_casual: bool = False,
    is_private: bool = False,
    all_seated: bool = False,
) -> Match:
    """Open a table: the creator in seat 0, then `others` in order.

    For a two-seat game `opponent` (+ `invitee_username` / `ai_level`) is the short form of
    a one-seat `others`. The match starts as soon as every seat is taken. `seed` is a fresh
    random 32 bytes unless given (a weekly challenge run deals from the week's seed).
    `time_control` is a key of clock.TIME_CONTROLS; "" picks the table's default (a day
    per move with other players, no clock against the AI alone).

    `rules` are the lobby's rule options as text, {option name: text} (games.rule_options):
    an unknown name is refused, values go to the engine, which says what is wrong.
    `is_casual`: never rated. `is_private`: the open seats are taken only through the
    table's link (`invite_token`), and it is never listed. `all_seated`: named players sit
    down at once, uninvited (a quick pairing: both asked to play).
    """
    game = _open_game(game_slug)
    if others is None:
        others = _short_form(game, opponent, invitee_username, ai_level)
    size = len(others) + 1
    if not game.min_seats <= size <= game.max_seats:
        raise CannotCreate(f"{game.name} is played by {_seat_range(game)} players.")
    invitees = _check_others(creator, others)
    _admit(creator, invitees, CannotCreate)
    move_seconds = clock.move_seconds_for(
        time_control, has_other_players=any(spec.kind != "ai" for spec in others)
    )
    if move_seconds is not None:
        check_load(creator)
    if is_private and not any(spec.kind == "open" for spec in others):
        raise CannotCreate(
            "A private table needs an open seat for its link to fill: choose “Anyone” as "
            "the opponent."
        )
    seed = os.urandom(32) if seed is None else bytes(seed)
    try:
        options = _with_rules(game, dict(options or {}), rules or {})
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
            is_casual=is_casual,
            invite_token=secrets.token_urlsafe(24) if is_private else "",
        )
        _seat_add(match, 0, user=creator, joined=now)
        for index, (spec, invitee) in enumerate(zip(others, invitees, strict=True), start=1):
            if spec.kind == "ai":
                _seat_add(match, index, ai_level=spec.ai_level, joined=now)
            else:
                _seat_add(match, index, user=invitee, joined=now if all_seated else None)
        clock.clocks_new_table(match)
        _start_if_full(match)
    return match


def _with_rules(game: Game, options: dict[str, Any], rules: Mapping[str, Any]) -> dict[str, Any]:
    """The options with the lobby's rule options added (InvalidOptions for an unknown one).

    An Arcana table (Grimhand, "variant": "arcana") takes only the rules it shares with
    Classic (`rule_options.ARCANA_SHOWN`); a Classic-only rule changed for it is refused.
    """
    chosen = rule_options.from_form(game.slug, rules)
    if options.get("variant") == "arcana":
        for name in chosen:
            if name not in rule_options.ARCANA_SHOWN:
                label = rule_options.RuleOption(game.slug, _option(game, name)).label
                raise InvalidOptions(f"“{label}” is a Classic rule: Arcana does not take it.")
    return {**options, **chosen}


def _option(game: Game, name: str) -> Any:
    return next(option for option in rule_options.schema(game.slug) if option.name == name)


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
        if spec.kind == "ai" and not _is_seatable(spec.ai_level):
            raise CannotCreate("Choose one of the AI levels on offer.")
        invitees.append(_invitee(creator, spec.username) if spec.kind == "player" else None)
    named = [user.pk for user in invitees if user is not None]
    if len(named) != len(set(named)):
        raise CannotCreate("Each invited player can take only one seat.")
    return invitees


def _is_seatable(level_id: str) -> bool:
    """A level on offer, the tutorial's tutor, or an Arcana house opponent (which the lobby
    form never offers: arcana.pve seats them)."""
    return levels.is_offered(level_id) or level_id == TUTOR or levels.is_house(level_id)


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


def _admit(user: Any, others: Any, error: type[MatchError]) -> None:
    """Refuse (`error`, writing nothing) when a check of games.admission keeps `user` from
    sitting with `others` (a block between them: social)."""
    reason = admission.refusal(user=user, others=others)
    if reason:
        raise error(reason)


PRIVATE_TABLE = "This table is private: only the link its host shared lets you take the seat."
NO_TABLE_AT_LINK = "There is no table at this link: it may have started or been called off."


def match_join_by_link(
    *, token: str, user: Any, seat_options: Mapping[str, Any] | None = None
) -> Match:
    """Take the open seat of the private table whose link holds `token` (`seat_options`:
    as for `match_join`)."""
    match_id = selectors.match_id_by_invite(token=token)
    if match_id is None:
        raise MatchNotFound(NO_TABLE_AT_LINK)
    return match_join(match_id=match_id, user=user, token=token, seat_options=seat_options)


def match_join(
    *, match_id: int, user: Any, token: str = "", seat_options: Mapping[str, Any] | None = None
) -> Match:
    """Take an open seat, or accept an invitation. Starts the match once every seat is taken.

    The open seat of a private table is taken only with its `token` (an invited player's
    own seat needs none). `seat_options` are the joining player's own entries of per-seat
    options (an Arcana deck and its card levels: `_seat_options_set`)."""
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
            if match.invite_token and not hmac.compare_digest(
                token.encode(), match.invite_token.encode()
            ):
                raise SeatUnavailable(PRIVATE_TABLE)
            free = next((seat for seat in seats if seat.is_open), None)
            if free is None:
                raise SeatUnavailable("This match is full.")
            seat = free
            seat.user = user
        others = [other.user_id for other in seats if other.user_id not in (None, user.pk)]
        _admit(user, get_user_model().objects.filter(pk__in=others), SeatUnavailable)
        if match.is_timed:
            check_load(user)
        if seat_options:
            _seat_options_set(match, seat.index, seat_options)
        seat.joined = timezone.now()
        seat.save(update_fields=["user", "joined"])
        _start_if_full(match)
    return match


def _seat_options_set(match: Match, index: int, chosen: Mapping[str, Any]) -> None:
    """Write seat `index`'s own entries of per-seat options before the match starts.

    A per-seat option is a list with one entry per seat (Arcana's "decks" and "levels");
    only such an option may be chosen at join, and the game's engine checks the result. The
    match (locked by the caller) is saved; a refusal writes nothing."""
    options = dict(match.options)
    for key, value in chosen.items():
        entries = options.get(key)
        if not isinstance(entries, list) or len(entries) != match.size:
            raise SeatUnavailable("This table has no choice to make when you join.")
        options[key] = [value if at == index else entry for at, entry in enumerate(entries)]
    try:
        registry.get(match.game).new(match.size, bytes(match.seed), options)
    except InvalidOptions as error:
        raise SeatUnavailable(error.message) from None
    match.options = options
    match.save(update_fields=["options"])


def match_fill_with_ai(*, match_id: int, user: Any, ai_level: str = levels.DEFAULT) -> Match:
    """The host seats the AI in every seat not yet taken (open or still invited); it starts."""
    if not levels.is_offered(ai_level):
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


def check_load(user: Any) -> None:
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


# Options with one entry per seat (Grimhand Arcana's chosen decks and card levels): in a
# rematch they follow their players round the table.
SEAT_OPTIONS = ("decks", "levels")


# The option that names the rules' edition a match was created under (Grimhand Arcana's):
# a rematch is a new match, played under today's rules, so it does not carry it over.
EDITION_OPTION = "edition"


def _options_turned(options: Mapping[str, Any], size: int) -> dict[str, Any]:
    """The options of a rematch whose seats are turned by one: a per-seat entry of old seat
    i goes to seat i + 1, as its player does; an old rules edition is not carried over."""
    turned = {key: value for key, value in options.items() if key != EDITION_OPTION}
    for key in SEAT_OPTIONS:
        value = options.get(key)
        if isinstance(value, list) and len(value) == size:
            turned[key] = [value[(index - 1) % size] for index in range(size)]
    return turned


def _rematch_open(match: Match, user: Any) -> Match:
    if match.is_timed:
        check_load(user)
    old_seats = list(match.seats.select_related("user"))
    _admit(user, [old.user for old in old_seats], CannotCreate)
    now = timezone.now()
    seed = os.urandom(32)
    rematch = Match.objects.create(
        game=match.game,
        options=_options_turned(match.options or {}, match.size),
        size=match.size,
        seed=seed,
        seed_commitment=Match.commitment_for(seed),
        created_by=user,
        move_seconds=match.move_seconds,
        rematch_of=match,
        is_casual=match.is_casual,
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
