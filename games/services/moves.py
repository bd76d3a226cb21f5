"""Moves: a player's move, resigning, and the forfeit of a seat that leaves (resigning, or
losing on time: `match_settle_overdue`)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from config import metrics
from config.compiled import insert_row, save_fields
from games import effects, replay, selectors
from games.boards import tutorial_for
from games.boards.tutorial import CONCEDE, LOSING_MOVE, REFUSE
from games.engine import registry
from games.engine.core import IllegalMove
from games.errors import (
    BadMove,
    InvalidMove,
    MatchError,
    MatchFinished,
    MatchNotStarted,
    MatchPaused,
    NotSeated,
    NotYourTurn,
    OffScript,
    StaleMove,
    TimeRanOut,
)
from games.models import Match, Move, Seat
from games.services import clock
from games.services._shared import FORFEIT, MoveResult, finish, locked, to_act

MAX_MOVE_BYTES = 4096


@metrics.timed_move_submit(refused=MatchError)
def move_submit(
    *,
    match_id: int,
    user: Any,
    ply: int,
    move: Any,
    move_id: str | None = None,
    mover_page: str = "",
) -> MoveResult:
    """A player's move for `ply` (a whole number, read by config.inputs in the view). A repeat
    of a committed `move_id` returns the first answer. `mover_page`: the socket of the page
    that sent the move and takes the new board as its answer (no push to it follows)."""
    _check_payload(move)
    with transaction.atomic():
        match = locked(match_id, with_seats=True)
        if move_id and ply != match.ply:
            # A committed move moved the match on, so a retry of it always comes with an
            # older ply: only then is the move id worth looking up.
            repeat = _committed(match, move_id, user)
            if repeat is not None:
                return repeat
        seat = selectors.seat_of(match=match, user=user)
        if seat is None or seat.joined is None:
            raise NotSeated("You are not playing in this match.")
        is_late = match.is_overdue(seat, timezone.now())
        if not is_late:
            return apply_locked(
                match, seat, ply, move, user=user, move_id=move_id or None, mover_page=mover_page
            )
    # Too late: nothing of the move is written; the timeout is settled on its own.
    match_settle_overdue(match_id=match_id)
    raise TimeRanOut("Your time for this move ran out, so the match was settled on time.")


def _committed(match: Match, move_id: str, user: Any) -> MoveResult | None:
    logged = Move.objects.filter(match=match, move_id=move_id).first()
    if logged is None:
        return None
    if logged.user_id != user.pk:
        raise BadMove("That move id belongs to another move.")
    events = replay.match_position(match=match, ply=logged.ply + 1).events_of(logged.ply)
    return MoveResult(match, logged.ply, events, is_repeat=True)


def apply_locked(
    match: Match,
    seat: Seat,
    ply: int,
    move: Any,
    *,
    user: Any,
    move_id: str | None,
    mover_page: str = "",
) -> MoveResult:
    if match.status == Match.Status.WAITING:
        raise MatchNotStarted("The match has not started yet: waiting for every seat to be taken.")
    if match.is_finished:
        raise MatchFinished("This match is over.")
    if match.is_paused:
        raise MatchPaused("The match is paused: resume it to play on.")
    if ply != match.ply and not _is_simultaneous_catch_up(match, seat, ply):
        raise StaleMove("The board changed since you saw it. Here is the current position.")
    if seat.index not in match.seats_to_act:
        raise NotYourTurn("It is not your turn.")
    if move.get("type") == FORFEIT:
        raise BadMove("To leave the match, resign.")
    if _check_tutorial(match, seat, move) == CONCEDE:
        tutor = next(other for other in match.seats.all() if other.index != seat.index)
        tutor_concede(match, tutor)
        return MoveResult(match, match.ply, ())
    return _append(match, seat, move, user=user, move_id=move_id, mover_page=mover_page)


def _check_tutorial(match: Match, seat: Seat, move: Any) -> str | None:
    """A tutorial cannot be lost (games.boards.tutorial): while scripted, the player's
    off-script move is taken back (refused before the engine sees it, nothing written) with
    the coach's reason; after the script, so is a move that would lose. CONCEDE: every
    move of the player loses, so the tutor resigns instead."""
    tutorial = tutorial_for(match.tutorial) if match.tutorial else None
    if tutorial is None or seat.index != tutorial.player_seat:
        return None
    reason = tutorial.refusal(match.ply, move)
    if reason is not None:
        raise OffScript(reason)
    if tutorial.expected_move(match.ply) is not None:
        return None
    game = registry.get(match.game)
    verdict = tutorial.verdict(game, replay.match_position(match=match).state, move)
    if verdict == REFUSE:
        raise OffScript(LOSING_MOVE)
    return verdict


def tutor_concede(match: Match, tutor: Seat) -> None:
    """The tutor resigns a tutorial it could only win (games.boards.tutorial)."""
    tutor.resigned = True
    tutor.save(update_fields=["resigned"])
    forfeit_seat(match, tutor, "resign", user=None)


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


def _append(
    match: Match, seat: Seat, move: Any, *, user: Any, move_id: str | None, mover_page: str
) -> MoveResult:
    """Apply `move` for `seat` at the match's current ply and log it (the row is locked).

    The unique (match, ply) and (match, move_id) constraints are the last guard: a
    violation rolls the whole transaction back as a stale move.
    """
    game = registry.get(match.game)
    before = replay.match_position(match=match)
    try:
        state, events = game.apply(before.state, seat.index, move)
    except IllegalMove as error:
        raise InvalidMove(error.message) from None
    ply = match.ply
    try:
        insert_row(
            Move(match=match, ply=ply, seat=seat.index, payload=move, move_id=move_id, user=user)
        )
    except IntegrityError as error:
        if "move_id" in str(error) or "move_unique_client_id" in str(error):
            raise BadMove("That move id belongs to another move.") from None
        raise StaleMove("That turn was already played. Here is the current position.") from None
    # The new position is kept before anything downstream (progression, pushes) reads it.
    replay.match_remember(
        match=match, position=before.then(seat=seat.index, state=state, events=events)
    )
    match.ply = ply + 1
    match.to_act = to_act(game.to_act(state))
    effects.match_changed(match=match, mover_page=mover_page)
    outcome = game.outcome(state)
    if outcome is not None:
        finish(match, outcome, fields=("ply",))
    else:
        save_fields(match, ("ply", "to_act", "updated"))
    clock.clocks_update(match, moved_seat=seat.index)
    return MoveResult(match, ply, tuple(events))


def _check_payload(move: Any) -> None:
    if not isinstance(move, dict) or not isinstance(move.get("type"), str):
        raise BadMove('A move is a JSON object with a "type", such as {"type": "attack"}.')
    if len(repr(move)) > MAX_MOVE_BYTES:
        raise BadMove("That move is far too large.")


def match_resign(*, match_id: int, user: Any) -> Match:
    with transaction.atomic():
        match = locked(match_id, with_seats=True)
        seat = selectors.seat_of(match=match, user=user)
        if seat is None or seat.joined is None:
            raise NotSeated("You are not playing in this match.")
        if match.status != Match.Status.ACTIVE:
            raise MatchFinished("Only a match in play can be resigned.")
        seat.resigned = True
        seat.save(update_fields=["resigned"])
        forfeit_seat(match, seat, "resign", user=user)
    return match


def forfeit_seat(match: Match, seat: Seat, reason: str, *, user: Any) -> None:
    """`seat` leaves the match: it ends (two-player games), or, where the game plays on
    without the seat, the forfeit is logged as that seat's move, whoever's turn it is."""
    game = registry.get(match.game)
    if getattr(game, "forfeit_is_a_move", False):
        _append(
            match, seat, {"type": FORFEIT, "reason": reason}, user=user, move_id=None, mover_page=""
        )
        return
    effects.match_changed(match=match)
    outcome = game.forfeit(replay.match_position(match=match).state, seat.index, reason)
    if outcome is not None:
        finish(match, outcome)
    else:
        match.save(update_fields=["updated"])
    clock.clocks_update(match)


def match_settle_overdue(*, match_id: int, now: dt.datetime | None = None) -> int:
    """Every seat of this match whose deadline has passed loses on time; returns how many.

    Safe to run twice or at the same moment as a move: under the match lock the deadline is
    checked again, so a move that got in first leaves nothing to settle.
    """
    now = now or timezone.now()
    settled = 0
    with transaction.atomic():
        match = locked(match_id)
        for seat in match.seats.select_for_update().order_by("index"):
            if not match.is_overdue(seat, now):
                continue
            seat.timed_out = True
            seat.save(update_fields=["timed_out"])
            forfeit_seat(match, seat, "timeout", user=None)
            settled += 1
    return settled
