"""Every write to a match goes through here.

Lock order and preconditions: each write opens one transaction, locks the Match row
(`select_for_update`), re-reads what it checks, writes, and schedules its side effects with
`transaction.on_commit` (socket pushes, automatic moves, progression). The unique
(match, ply) constraint backs the lock: no ply is ever applied twice.
"""

from __future__ import annotations

import contextvars
import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone

from games import selectors, tutorials
from games.ai import Bot, get_bot
from games.ai.ismcts import Determinizer
from games.ai.scripted import ScriptedBot
from games.boards import has_board
from games.engine import registry
from games.engine.core import Chance, Event, Game, IllegalMove, InvalidOptions, Outcome
from games.errors import (
    BadMove,
    CannotCreate,
    InvalidMove,
    MatchFinished,
    MatchNotFound,
    MatchNotStarted,
    NotSeated,
    NotYourTurn,
    SeatUnavailable,
    StaleMove,
)
from games.models import Match, Move, Seat

MAX_MOVE_BYTES = 4096
AI_LEVELS = {"random": "Easy", "greedy": "Normal", "ismcts": "Hard"}  # offered in the lobby
TUTOR = "tutorial"  # the scripted opponent of a tutorial match
FORFEIT = "forfeit"  # the move type of a resignation, in games that play on without the seat
OPPONENTS = ("ai", "player", "open")

# Set while automatic seats are being played in a loop, so each move's on-commit hook does
# not start another loop (with eager Celery that would recurse once per move).
_automation_running: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "automation", default=False
)


@dataclass(frozen=True)
class MoveResult:
    match: Match
    ply: int  # the ply of the move just made (or found already committed)
    events: tuple[Event, ...]
    is_repeat: bool = False


# --- creating and joining -------------------------------------------------------------


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
) -> Match:
    """Open a table: the creator in seat 0, then `others` in order.

    For a two-seat game `opponent` (+ `invitee_username` / `ai_level`) is the short form of
    a one-seat `others`. The match starts as soon as every seat is taken. `seed` is a fresh
    random 32 bytes unless given (a weekly challenge run deals from the week's seed).
    """
    game = _open_game(game_slug)
    if others is None:
        others = _short_form(game, opponent, invitee_username, ai_level)
    size = len(others) + 1
    if not game.min_seats <= size <= game.max_seats:
        raise CannotCreate(f"{game.name} is played by {_seat_range(game)} players.")
    invitees = _check_others(creator, others)
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
        )
        Seat.objects.create(match=match, index=0, user=creator, joined=now)
        for index, (spec, invitee) in enumerate(zip(others, invitees, strict=True), start=1):
            if spec.kind == "ai":
                Seat.objects.create(
                    match=match, index=index, kind=Seat.Kind.AI, ai_level=spec.ai_level, joined=now
                )
            else:
                Seat.objects.create(match=match, index=index, user=invitee)
        _start_if_full(match)
    return match


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
        match = _locked(match_id)
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
        seat.joined = timezone.now()
        seat.save(update_fields=["user", "joined"])
        _start_if_full(match)
    return match


def match_fill_with_ai(*, match_id: int, user: Any, ai_level: str = "random") -> Match:
    """The host seats the AI in every seat not yet taken (open or still invited); it starts."""
    if ai_level not in AI_LEVELS:
        raise CannotCreate("Choose one of the AI levels on offer.")
    with transaction.atomic():
        match = _locked(match_id)
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
        match = _locked(match_id)
        if match.status != Match.Status.WAITING:
            raise SeatUnavailable("Only a match that has not started can be cancelled.")
        if selectors.seat_of(match=match, user=user) is None:
            raise NotSeated("You have no seat at this table.")
        match.status = Match.Status.CANCELLED
        match.finished = timezone.now()
        match.save(update_fields=["status", "finished", "updated"])
        _after_commit(match)
    return match


def _start_if_full(match: Match) -> None:
    if any(seat.joined is None for seat in match.seats.all()):
        match.save(update_fields=["updated"])
        _after_commit(match)
        return
    game = registry.get(match.game)
    state = game.new(match.size, bytes(match.seed), match.options)
    match.status = Match.Status.ACTIVE
    match.started = timezone.now()
    match.to_act = _to_act(game.to_act(state))
    match.save(update_fields=["status", "started", "to_act", "updated"])
    _after_commit(match)


# --- moves ------------------------------------------------------------------------------


def move_submit(
    *, match_id: int, user: Any, ply: Any, move: Any, move_id: str | None = None
) -> MoveResult:
    """A player's move for `ply`. A repeat of a committed `move_id` returns the first answer."""
    _check_payload(move)
    ply = _ply_number(ply)
    with transaction.atomic():
        match = _locked(match_id)
        if move_id:
            repeat = _committed(match, move_id, user)
            if repeat is not None:
                return repeat
        seat = selectors.seat_of(match=match, user=user)
        if seat is None or seat.joined is None:
            raise NotSeated("You are not playing in this match.")
        return _apply_locked(match, seat, ply, move, user=user, move_id=move_id or None)


def _committed(match: Match, move_id: str, user: Any) -> MoveResult | None:
    logged = Move.objects.filter(match=match, move_id=move_id).first()
    if logged is None:
        return None
    if logged.user_id != user.pk:
        raise BadMove("That move id belongs to another move.")
    replayed = selectors.match_replay(match=match)
    events = replayed.log[logged.ply].events if logged.ply < len(replayed.log) else ()
    return MoveResult(match, logged.ply, tuple(events), is_repeat=True)


def _apply_locked(
    match: Match, seat: Seat, ply: int, move: Any, *, user: Any, move_id: str | None
) -> MoveResult:
    if match.status == Match.Status.WAITING:
        raise MatchNotStarted("The match has not started yet: waiting for every seat to be taken.")
    if match.is_finished:
        raise MatchFinished("This match is over.")
    if ply != match.ply and not _is_simultaneous_catch_up(match, seat, ply):
        raise StaleMove("The board changed since you saw it. Here is the current position.")
    if seat.index not in match.seats_to_act:
        raise NotYourTurn("It is not your turn.")
    if move.get("type") == FORFEIT:
        raise BadMove("To leave the match, resign.")
    return _append(match, seat, move, user=user, move_id=move_id)


def _is_simultaneous_catch_up(match: Match, seat: Seat, ply: int) -> bool:
    """In a phase where several seats act at once (a secret setup), other seats' moves since
    the board was loaded do not make this seat's move stale: it still applies, at the
    current ply. Anything this seat did itself since then still makes it stale."""
    return (
        ply < match.ply
        and len(match.seats_to_act) > 1
        and seat.index in match.seats_to_act
        and not match.moves.filter(ply__gte=ply, seat=seat.index).exists()
    )


def _append(match: Match, seat: Seat, move: Any, *, user: Any, move_id: str | None) -> MoveResult:
    """Apply `move` for `seat` at the match's current ply and log it (the row is locked)."""
    game = registry.get(match.game)
    replayed = selectors.match_replay(match=match)
    try:
        state, events = game.apply(replayed.state, seat.index, move)
    except IllegalMove as error:
        raise InvalidMove(error.message) from None
    ply = match.ply
    try:
        with transaction.atomic():
            Move.objects.create(
                match=match, ply=ply, seat=seat.index, payload=move, move_id=move_id, user=user
            )
    except IntegrityError:
        raise StaleMove("That turn was already played. Here is the current position.") from None
    match.ply = ply + 1
    match.to_act = _to_act(game.to_act(state))
    outcome = game.outcome(state)
    if outcome is not None:
        _finish(match, outcome)
    match.save()
    selectors.match_remember(
        match=match, replayed=replayed.then(seat=seat.index, state=state, events=events)
    )
    _after_commit(match)
    return MoveResult(match, ply, tuple(events))


def _check_payload(move: Any) -> None:
    if not isinstance(move, dict) or not isinstance(move.get("type"), str):
        raise BadMove('A move is a JSON object with a "type", such as {"type": "attack"}.')
    if len(repr(move)) > MAX_MOVE_BYTES:
        raise BadMove("That move is far too large.")


def _ply_number(ply: Any) -> int:
    try:
        number = int(ply)
    except (TypeError, ValueError):
        raise BadMove("The move is missing the turn number it was made for.") from None
    if number < 0:
        raise BadMove("The turn number of a move cannot be negative.")
    return number


# --- resigning, auto-play ----------------------------------------------------------------


def match_resign(*, match_id: int, user: Any) -> Match:
    with transaction.atomic():
        match = _locked(match_id)
        seat = selectors.seat_of(match=match, user=user)
        if seat is None or seat.joined is None:
            raise NotSeated("You are not playing in this match.")
        if match.status != Match.Status.ACTIVE:
            raise MatchFinished("Only a match in play can be resigned.")
        seat.resigned = True
        seat.save(update_fields=["resigned"])
        _forfeit(match, seat, "resign", user=user)
    return match


def _forfeit(match: Match, seat: Seat, reason: str, *, user: Any) -> None:
    """`seat` leaves the match: it ends (two-player games), or, where the game plays on
    without the seat, the forfeit is logged as that seat's move, whoever's turn it is."""
    game = registry.get(match.game)
    if getattr(game, "forfeit_is_a_move", False):
        _append(match, seat, {"type": FORFEIT, "reason": reason}, user=user, move_id=None)
        return
    state = selectors.match_replay(match=match).state
    _finish(match, game.forfeit(state, seat.index, reason))
    match.save()
    _after_commit(match)


def seat_set_autoplay(*, match_id: int, user: Any, is_enabled: bool) -> Seat:
    """Let the server play this seat's forced moves (those with exactly one legal choice)."""
    with transaction.atomic():
        match = _locked(match_id)
        seat = selectors.seat_of(match=match, user=user)
        if seat is None or seat.joined is None:
            raise NotSeated("You are not playing in this match.")
        if match.is_finished:
            raise MatchFinished("This match is over.")
        seat.autoplay = is_enabled
        seat.save(update_fields=["autoplay"])
        match.save(update_fields=["updated"])
        _after_commit(match)
    return seat


def automation_run(*, match_id: int, max_steps: int = 10_000) -> int:
    """Play every move due from AI seats and auto-play seats; returns how many this call made.

    Idempotent: the bot decides outside the lock from the seat's own view, then the move is
    applied only if the match is still at the ply it decided for. Running twice at once
    makes each ply once.
    """
    token = _automation_running.set(True)
    made = 0
    try:
        for _ in range(max_steps):
            step = _automatic_move(match_id)
            if step == "idle":
                break
            made += step == "made"
    finally:
        _automation_running.reset(token)
    return made


def _automatic_move(match_id: int) -> str:
    """One automatic move: "made", "raced" (someone else moved first: look again) or "idle"."""
    match = selectors.match_get(match_id=match_id)
    if match is None or match.status != Match.Status.ACTIVE:
        return "idle"
    seat = _automatic_seat_to_act(match)
    if seat is None:
        return "idle"
    move = _automatic_choice(match, seat)
    if move is None:
        return "idle"
    with transaction.atomic():
        locked = _locked(match_id)
        seat = locked.seats.get(index=seat.index)
        if locked.ply != match.ply or not _is_automatic(seat):
            return "raced"
        try:
            _apply_locked(locked, seat, match.ply, move, user=None, move_id=f"auto-{match.ply}")
        except StaleMove:
            return "raced"
    return "made"


def _automatic_choice(match: Match, seat: Seat) -> dict[str, Any] | None:
    """The AI's move from its own view, or the forced move of an auto-play seat."""
    game = registry.get(match.game)
    state = selectors.match_replay(match=match).state
    legal = game.legal_moves(state, seat.index)
    if not seat.is_ai:
        return legal[0] if len(legal) == 1 else None
    bot = _bot_for(match, seat)
    chance = Chance(bytes(match.seed), f"ai/{seat.index}/{match.ply}")
    view = game.view(state, seat.index)
    if getattr(bot, "wants_samples", False):
        # Searching bots get samples of what they cannot see, never the state itself.
        sample = Determinizer(game, state, seat.index)
        return bot.choose(game, view, legal, chance, sample=sample)
    return bot.choose(game, view, legal, chance)


def _bot_for(match: Match, seat: Seat) -> Bot:
    tutorial = tutorials.get(match.tutorial) if seat.ai_level == TUTOR else None
    if tutorial is not None:
        return ScriptedBot(tutorial.ai_script, fallback=get_bot("random"))
    return get_bot(seat.ai_level if seat.ai_level != TUTOR else "random")


def _is_automatic(seat: Seat) -> bool:
    return seat.is_ai or seat.autoplay


def _automatic_seat_to_act(match: Match) -> Seat | None:
    to_act = match.seats_to_act
    return next(
        (seat for seat in match.seats.all() if seat.index in to_act and _is_automatic(seat)), None
    )


# --- shared steps -------------------------------------------------------------------------


def _locked(match_id: Any) -> Match:
    match = Match.objects.select_for_update().filter(pk=match_id).first()
    if match is None:
        raise MatchNotFound("There is no such match.")
    return match


def _finish(match: Match, outcome: Outcome) -> None:
    match.status = Match.Status.FINISHED
    match.finished = timezone.now()
    match.outcome = outcome.to_json()
    match.to_act = ""


def _to_act(seats: tuple[int, ...]) -> str:
    return ",".join(str(seat) for seat in seats)


def _after_commit(match: Match) -> None:
    match_id = match.pk
    # robust: a failed push or enqueue is logged, never turned into an error for a move
    # that has already been committed.
    transaction.on_commit(lambda: _after_change(match_id), robust=True)


def _after_change(match_id: int) -> None:
    from games import notifications, tasks

    notifications.match_changed(match_id=match_id)
    if not _automation_running.get() and _has_automatic_turn(match_id):
        tasks.advance_automatic_seats.delay(match_id)


def _has_automatic_turn(match_id: int) -> bool:
    match = selectors.match_get(match_id=match_id)
    is_active = match is not None and match.status == Match.Status.ACTIVE
    return is_active and _automatic_seat_to_act(match) is not None


@contextmanager
def automation_paused() -> Iterator[None]:
    """For tests and tools: make moves without triggering automatic replies."""
    token = _automation_running.set(True)
    try:
        yield
    finally:
        _automation_running.reset(token)
