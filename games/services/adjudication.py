"""An admin's ruling on a stuck or disputed match: abort it, or adjudicate its result.

Both lock the match row like every other write (`_shared.locked`), check the ruling, write
it, and hand what follows to `games.effects` (docs/operations-admin.md):

- **abort**: a waiting or running match is called off (status cancelled, outcome reason
  `"aborted"`). Cancelled matches are never rated and earn no XP: nothing else is set off.
- **adjudicate**: a running match is given a result (a winner, or a draw), outcome reason
  `"adjudicated"`, and finishes through `_shared.finish`, so ratings and progression treat
  it exactly as that result (`effects.match_finished`).

Either way the ruling (who, when, why) is kept in the outcome under `"ruling"`, every
player of the match is told after the commit (`effects.match_ruled`), and the seats'
clocks stop. A second ruling on a match already over writes nothing and says so
(`Ruling.changed` is false): running an admin action twice does nothing the second time.

Lock order: the Match row (then whatever `effects.match_finished` locks after it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import effects
from games.engine.core import Outcome
from games.errors import MatchError
from games.models import Match, Seat
from games.services import clock
from games.services._shared import finish, locked

ABORTED = "aborted"
ADJUDICATED = "adjudicated"
MAX_REASON = 500


class RulingRefused(MatchError):
    """The ruling itself is malformed (no reason, an unknown winner): nothing is written."""

    status = 400


@dataclass(frozen=True)
class Ruling:
    match: Match
    changed: bool  # false: the match was already over, nothing was written
    message: str


def match_abort(*, match_id: int, admin: Any, reason: str) -> Ruling:
    """Call off a waiting or running match: unrated, no XP, its players told why."""
    note = _reason(reason)
    with transaction.atomic():
        match = locked(match_id, with_seats=True)
        if match.is_finished:
            return Ruling(match, False, f"{match} was already over: nothing changed.")
        now = timezone.now()
        match.status = Match.Status.CANCELLED
        match.finished = now
        match.to_act = ""
        match.outcome = {
            **Outcome((), (), ABORTED).to_json(),
            "ruling": _ruling(ABORTED, admin, note, now),
        }
        match.save(update_fields=["status", "finished", "to_act", "outcome", "updated"])
        clock.clocks_update(match, now=now)
        effects.match_changed(match=match)
        effects.match_ruled(match=match)
    return Ruling(match, True, f"{match} aborted.")


def match_adjudicate(*, match_id: int, admin: Any, reason: str, winner: int | None) -> Ruling:
    """Give a running match a result: `winner` is a seat index, or None for a draw. Rated
    and credited as that result (`effects.match_finished`), its players told why."""
    note = _reason(reason)
    with transaction.atomic():
        match = locked(match_id, with_seats=True)
        if match.is_finished:
            return Ruling(match, False, f"{match} was already over: nothing changed.")
        if match.status != Match.Status.ACTIVE:
            raise RulingRefused(
                f"{match} has not started: there is no game to adjudicate. Abort it instead."
            )
        seats = sorted(match.seats.all(), key=lambda seat: seat.index)
        outcome = _outcome(seats, winner)
        effects.match_changed(match=match)
        finish(match, outcome)  # ratings and progression credit, as for any result
        match.outcome = {
            **outcome.to_json(),
            "ruling": _ruling(ADJUDICATED, admin, note, match.finished),
        }
        match.save(update_fields=["outcome"])
        clock.clocks_update(match)
        effects.match_ruled(match=match)
    said = "a draw" if winner is None else f"won by seat {winner} ({seats[winner].label})"
    return Ruling(match, True, f"{match} adjudicated: {said}.")


def _reason(reason: str) -> str:
    note = " ".join((reason or "").split())
    if not note:
        raise RulingRefused("Give a reason: the players are told it.")
    if len(note) > MAX_REASON:
        raise RulingRefused(f"Keep the reason under {MAX_REASON} characters.")
    return note


def _outcome(seats: list[Seat], winner: int | None) -> Outcome:
    players = tuple(seat.index for seat in seats)
    if winner is None:
        return Outcome((), (players,), ADJUDICATED)
    if winner not in players:
        raise RulingRefused(f"Seat {winner} is not a seat of this match.")
    others = tuple(index for index in players if index != winner)
    return Outcome((winner,), ((winner,), others), ADJUDICATED)


def _ruling(kind: str, admin: Any, note: str, when: Any) -> dict[str, Any]:
    return {"kind": kind, "by": admin.pk, "note": note, "at": when.isoformat()}
