"""Clocks: time controls, the time bank, pauses, and moving a player's deadlines for a
vacation (the vacation itself is the account's: accounts.services).

A timed match gives each human seat `move_seconds` per move plus a time bank. When a seat
comes to act, its deadline is now + move time + bank (+ what is left of its player's
vacation). When it has moved, the time it used beyond the move time comes out of the bank,
and the bank grows by a tenth of the move time, up to twice the move time. A seat whose
deadline passes loses on time: the game's own `forfeit(state, seat, "timeout")` decides what
that means (two-player games end, Shield plays on without the seat, a BaniraCards run ends).

Settling a seat on time is a forfeit, so it is `moves.match_settle_overdue`'s; the sweeper
that finds overdue turns is `games.services.timeouts`. Settling is idempotent: it locks the
match, re-checks the deadline, and a move arriving at the same moment waits on that lock
and then finds the match settled (or the other way round).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from config.compiled import save_fields
from games import effects
from games.errors import CannotCreate, MatchFinished, NotSeated
from games.models import Match, Seat
from games.services._shared import locked

# Offered when a table is created: key → (label, seconds per move). "none" only vs the AI.
TIME_CONTROLS: dict[str, tuple[str, int | None]] = {
    "none": ("No clock (only against the AI)", None),
    "1h": ("1 hour per move", 3600),
    "12h": ("12 hours per move", 12 * 3600),
    "1d": ("1 day per move", 24 * 3600),
    "3d": ("3 days per move", 3 * 24 * 3600),
    "7d": ("7 days per move", 7 * 24 * 3600),
}
DEFAULT_WITH_PLAYERS = "1d"
MAX_PAUSE = dt.timedelta(days=14)  # a pause nobody ends resumes by itself after this


def bank_start(move_seconds: int) -> int:
    return move_seconds // 2


def bank_increment(move_seconds: int) -> int:
    return move_seconds // 10


def bank_cap(move_seconds: int) -> int:
    return 2 * move_seconds


def move_seconds_for(time_control: str, *, has_other_players: bool) -> int | None:
    """The seconds per move of a new table; "" picks the default for the table."""
    if not time_control:
        time_control = DEFAULT_WITH_PLAYERS if has_other_players else "none"
    if time_control not in TIME_CONTROLS:
        raise CannotCreate("Choose one of the time controls on offer.")
    seconds = TIME_CONTROLS[time_control][1]
    if seconds is None and has_other_players:
        raise CannotCreate(
            "A match with other players needs a clock, so nobody waits forever: "
            "choose a time per move."
        )
    return seconds


# --- keeping the clocks as the turn moves on (called inside the services' transactions) ---


def clocks_update(
    match: Match, *, moved_seat: int | None = None, now: dt.datetime | None = None
) -> None:
    """Start and stop the seats' clocks after the match (locked) changed.

    A seat that has just moved, or no longer acts, stops its clock and banks its time; a
    seat that acts now and has no clock running starts one. A finished match stops all.
    """
    now = now or timezone.now()
    to_act = set(match.seats_to_act) if match.status == Match.Status.ACTIVE else set()
    for seat in match.seats.all():
        is_running = seat.turn_started is not None
        if is_running and (seat.index not in to_act or seat.index == moved_seat):
            _stop(match, seat, now)
        if seat.index in to_act and seat.turn_started is None and not seat.is_ai:
            _start(match, seat, now)


def _stop(match: Match, seat: Seat, now: dt.datetime) -> None:
    move_seconds = match.move_seconds  # None: an untimed match (not `is_timed`)
    if move_seconds is not None and seat.deadline is not None and seat.turn_started is not None:
        used = (now - seat.turn_started).total_seconds()
        overflow = max(0, int(used) - move_seconds)
        bank = max(0, seat.bank_seconds - overflow) + bank_increment(move_seconds)
        seat.bank_seconds = min(bank_cap(move_seconds), bank)
    seat.turn_started = seat.deadline = seat.paused_seconds_left = None
    save_fields(seat, ("turn_started", "deadline", "bank_seconds", "paused_seconds_left"))
    effects.turn_ended(match=match, seat=seat, ended=now)


def _start(match: Match, seat: Seat, now: dt.datetime) -> None:
    seat.turn_started = now
    if match.move_seconds is not None:  # `is_timed`
        seconds = match.move_seconds + seat.bank_seconds
        if match.is_paused:
            seat.paused_seconds_left = seconds
        else:
            seat.deadline = now + dt.timedelta(seconds=seconds) + _vacation_left(seat.user, now)
    save_fields(seat, ("turn_started", "deadline", "paused_seconds_left"))
    effects.turn_started(match=match, seat=seat)


def _vacation_left(user: Any, now: dt.datetime) -> dt.timedelta:
    profile = getattr(user, "profile", None) if user is not None else None
    if profile is None or profile.vacation_until is None or profile.vacation_until <= now:
        return dt.timedelta(0)
    return profile.vacation_until - now


def clocks_new_table(match: Match) -> None:
    """Fill every human seat's time bank when a timed match is created."""
    if match.move_seconds is not None:  # `is_timed`
        match.seats.filter(kind=Seat.Kind.HUMAN).update(bank_seconds=bank_start(match.move_seconds))


# --- long pauses and unjoined tables (the sweeper's: games.services.timeouts) ---------------


def pauses_end_long(*, now: dt.datetime) -> int:
    """Resume every match paused for longer than MAX_PAUSE; returns how many."""
    resumed = 0
    for pk in Match.objects.filter(
        status=Match.Status.ACTIVE, paused_at__lte=now - MAX_PAUSE
    ).values_list("pk", flat=True):
        with transaction.atomic():
            match = locked(pk)
            if match.is_paused:
                _resume_locked(match, now)
                resumed += 1
    return resumed


def tables_expire(*, now: dt.datetime | None = None) -> int:
    """Cancel tables still waiting for players after OPEN_TABLE_HOURS."""
    now = now or timezone.now()
    cutoff = now - dt.timedelta(hours=settings.OPEN_TABLE_HOURS)
    expired = 0
    for pk in Match.objects.filter(status=Match.Status.WAITING, created__lte=cutoff).values_list(
        "pk", flat=True
    ):
        with transaction.atomic():
            match = locked(pk)
            if match.status != Match.Status.WAITING or match.created > cutoff:
                continue
            match.status = Match.Status.CANCELLED
            match.finished = now
            match.outcome = {"winners": [], "ranking": [], "reason": "expired", "scores": None}
            match.save(update_fields=["status", "finished", "outcome", "updated"])
            effects.match_changed(match=match)
            expired += 1
    return expired


# --- pausing by agreement ------------------------------------------------------------------


def _players(match: Match) -> list[Seat]:
    return [
        seat
        for seat in match.seats.all()
        if not seat.is_ai and seat.joined is not None and not seat.resigned and not seat.timed_out
    ]


def _my_seat(match: Match, user: Any) -> Seat:
    seat = next((seat for seat in _players(match) if seat.user_id == user.pk), None)
    if seat is None:
        raise NotSeated("Only the players of this match can pause or resume it.")
    return seat


def match_pause_request(*, match_id: int, user: Any, now: dt.datetime | None = None) -> Match:
    """Ask to pause; once every player still in the match has asked, every clock stops."""
    now = now or timezone.now()
    with transaction.atomic():
        match = locked(match_id)
        seat = _my_seat(match, user)
        if match.status != Match.Status.ACTIVE:
            raise MatchFinished("Only a match in play can be paused.")
        if not match.is_timed:
            raise CannotCreate("This match has no clock, so there is nothing to pause.")
        if match.is_paused:
            raise CannotCreate("This match is already paused.")
        votes = set(match.pause_seats) | {seat.index}
        if votes >= {player.index for player in _players(match)}:
            match.paused_at, match.pause_votes = now, ""
            for other in match.seats.all():
                if other.deadline is not None:
                    left = max(0, int((other.deadline - now).total_seconds()))
                    other.paused_seconds_left, other.deadline = left, None
                    other.save(update_fields=["paused_seconds_left", "deadline"])
        else:
            match.pause_votes = ",".join(str(index) for index in sorted(votes))
        match.save(update_fields=["paused_at", "pause_votes", "updated"])
        effects.match_changed(match=match)
        if match.pause_votes:
            effects.pause_requested(match=match, seat=seat)
    return match


def match_pause_withdraw(*, match_id: int, user: Any) -> Match:
    """Take back (or turn down) a request to pause: the votes so far are cleared."""
    with transaction.atomic():
        match = locked(match_id)
        _my_seat(match, user)
        if not match.pause_votes:
            raise CannotCreate("Nobody has asked to pause this match.")
        match.pause_votes = ""
        match.save(update_fields=["pause_votes", "updated"])
        effects.match_changed(match=match)
    return match


def match_resume(*, match_id: int, user: Any, now: dt.datetime | None = None) -> Match:
    """Any player may end a pause: the clocks go on with the time each had left."""
    with transaction.atomic():
        match = locked(match_id)
        _my_seat(match, user)
        if not match.is_paused:
            raise CannotCreate("This match is not paused.")
        _resume_locked(match, now or timezone.now())
    return match


def _resume_locked(match: Match, now: dt.datetime) -> None:
    """Restart every stopped clock with the time it had left (the match row is locked and
    paused)."""
    assert match.paused_at is not None  # the callers check `is_paused`
    paused_for = now - match.paused_at
    for seat in match.seats.all():
        if seat.paused_seconds_left is not None:
            seat.deadline = now + dt.timedelta(seconds=seat.paused_seconds_left)
            seat.paused_seconds_left = None
            if seat.turn_started is not None:
                seat.turn_started += paused_for
            seat.save(update_fields=["deadline", "paused_seconds_left", "turn_started"])
    match.paused_at = None
    match.save(update_fields=["paused_at", "updated"])
    effects.match_changed(match=match)


# --- deadlines moved for a player (a vacation: accounts.services) ---------------------------


def deadlines_shift(*, user: Any, by: dt.timedelta, now: dt.datetime | None = None) -> None:
    """Move the deadlines of `user`'s running turns by `by`, never closer than an hour
    from now: what a vacation does when it starts (by its length) and when it ends early
    (back by the days left). Each match is locked in turn, and its boards are pushed.

    The caller owns the reason: accounts.services writes the vacation and calls this in
    the same transaction (lock order: the profile row, then each match row).
    """
    now = now or timezone.now()
    floor = now + dt.timedelta(hours=1)
    for match_id in _running_timed_matches(user):
        with transaction.atomic():
            match = locked(match_id)
            for seat in match.seats.filter(user=user, deadline__isnull=False):
                deadline = seat.deadline
                assert deadline is not None  # deadline__isnull=False
                seat.deadline = max(deadline + by, min(deadline, floor))
                seat.save(update_fields=["deadline"])
            effects.match_changed(match=match)


def _running_timed_matches(user: Any) -> Iterable[int]:
    return (
        Match.objects.filter(
            Q(seats__user=user),
            status=Match.Status.ACTIVE,
            move_seconds__isnull=False,
        )
        .values_list("pk", flat=True)
        .distinct()
    )
