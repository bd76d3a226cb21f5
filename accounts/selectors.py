"""Reads about players: names, their record, their recent matches, their vacation days."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db.models import F, Prefetch
from django.utils import timezone

from accounts.models import Profile
from games.engine import registry
from games.models import Match, Seat
from games.selectors import opponent_names

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@dataclass(frozen=True)
class PlayerRecord:
    """A player's results over finished matches in which they held a (joined) human seat."""

    played: int
    won: int
    resigned: int

    @property
    def lost(self) -> int:
        return self.played - self.won

    @property
    def win_rate(self) -> int | None:
        """Percentage of matches won, rounded; None before the first finished match."""
        if not self.played:
            return None
        return round(100 * self.won / self.played)


@dataclass(frozen=True)
class RecentMatch:
    """One finished match as the player's page shows it."""

    match_id: int
    url: str
    game_name: str
    finished: datetime | None
    result: str  # "won" | "lost" | "drawn"
    reason: str
    opponents: tuple[str, ...]

    @property
    def result_label(self) -> str:
        return {"won": "Won", "lost": "Lost", "drawn": "Draw"}[self.result]


def user_get_by_username(*, username: str) -> User | None:
    """The active user with this exact username (with their profile), or None."""
    user_model = get_user_model()
    return (
        user_model._default_manager.select_related("profile")
        .filter(**{user_model.USERNAME_FIELD: username, "is_active": True})
        .first()
    )


def display_name_is_taken(*, name: str, user: User | None = None) -> bool:
    """Whether `name` is, case-insensitively, another user's display name or username."""
    user_model = get_user_model()
    profiles = Profile.objects.filter(display_name__iexact=name)
    users = user_model._default_manager.filter(**{f"{user_model.USERNAME_FIELD}__iexact": name})
    if user is not None:
        profiles = profiles.exclude(user=user)
        users = users.exclude(pk=user.pk)
    return profiles.exists() or users.exists()


def _finished_seats(*, user: User):
    return Seat.objects.filter(
        user=user,
        kind=Seat.Kind.HUMAN,
        joined__isnull=False,
        match__status=Match.Status.FINISHED,
    )


def _seat_won(*, index: int, outcome: dict | None) -> bool:
    return index in ((outcome or {}).get("winners") or ())


def player_record(*, user: User) -> PlayerRecord:
    """Played / won / resigned over the user's finished matches.

    Counted in Python over (index, outcome) pairs: JSON containment differs between SQLite
    and PostgreSQL, and one row per finished match is cheap at this scale.
    """
    rows = _finished_seats(user=user).values_list("index", "match__outcome", "resigned")
    played = won = resigned = 0
    for index, outcome, has_resigned in rows:
        played += 1
        won += _seat_won(index=index, outcome=outcome)
        resigned += has_resigned
    return PlayerRecord(played=played, won=won, resigned=resigned)


def _game_name(slug: str) -> str:
    try:
        return registry.get(slug).name
    except registry.UnknownGame:
        return slug.replace("-", " ").title()


def _result(*, seat: Seat) -> str:
    outcome = seat.match.outcome or {}
    if _seat_won(index=seat.index, outcome=outcome):
        return "won"
    return "lost" if outcome.get("winners") else "drawn"


def player_recent_matches(*, user: User, limit: int = 10) -> list[RecentMatch]:
    """The user's latest finished matches, newest first, with their result and opponents."""
    seats = (
        _finished_seats(user=user)
        .select_related("match")
        .prefetch_related(
            Prefetch("match__seats", queryset=Seat.objects.select_related("user__profile"))
        )
        .order_by(F("match__finished").desc(nulls_last=True), "-match__pk")[:limit]
    )
    return [
        RecentMatch(
            match_id=seat.match.pk,
            url=seat.match.get_absolute_url(),
            game_name=_game_name(seat.match.game),
            finished=seat.match.finished,
            result=_result(seat=seat),
            reason=str((seat.match.outcome or {}).get("reason") or "").replace("_", " "),
            opponents=tuple(opponent_names(match=seat.match, seat_index=seat.index)),
        )
        for seat in seats
    ]


# --- vacations ------------------------------------------------------------------------------

VACATION_DAYS_PER_YEAR = 30


def vacation_days_left(*, profile: Profile, now: datetime | None = None) -> int:
    """Days of this calendar year's allowance the player has not taken."""
    now = now or timezone.now()
    used = profile.vacation_days_used if profile.vacation_year == now.year else 0
    return max(0, VACATION_DAYS_PER_YEAR - used)


def is_on_vacation(*, profile: Profile, now: datetime | None = None) -> bool:
    now = now or timezone.now()
    return profile.vacation_until is not None and profile.vacation_until > now
