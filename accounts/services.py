"""Every write to a player's profile goes through here: the profile itself, the display
name, the sound settings, and vacations.

A vacation is the account's: its days and dates are profile fields, written only here. What
it does to matches belongs to the games' clocks, so `vacation_start` and `vacation_end`
call `games.services.deadlines_shift` in the same transaction (accounts sits above games:
accounts may call games' services and selectors; games reads a player's profile only
through the user, never writes it). Lock order: the Profile row, then each match row.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.errors import SoundRefused, VacationRefused
from accounts.models import Profile
from accounts.selectors import display_name_is_taken, is_on_vacation, vacation_days_left
from games.services import deadlines_shift

if TYPE_CHECKING:
    from django.contrib.auth.models import User

DISPLAY_NAME_MAX_LENGTH = 40
SOUND_VOLUME_MAX = 100


def profile_ensure(*, user: AbstractBaseUser) -> Profile:
    """The user's profile, created empty if they have none yet (idempotent)."""
    profile, _created = Profile.objects.get_or_create(user=user)
    return profile


def display_name_clean(*, user: User, display_name: str) -> str:
    """`display_name` stripped, or ValidationError with a message a player can read."""
    name = display_name.strip()
    if not name:
        raise ValidationError("Enter a display name.", code="blank")
    if len(name) > DISPLAY_NAME_MAX_LENGTH:
        raise ValidationError(
            f"Keep your display name to {DISPLAY_NAME_MAX_LENGTH} characters or fewer "
            f"(it has {len(name)}).",
            code="too_long",
        )
    if not name.isprintable():
        raise ValidationError("A display name cannot contain control characters.", code="control")
    if display_name_is_taken(name=name, user=user):
        raise ValidationError(f"The name “{name}” is already taken.", code="taken")
    return name


@transaction.atomic
def profile_update(*, user: User, display_name: str) -> Profile:
    """Set the user's display name; raises ValidationError (nothing written) if it is not valid.

    The check gives the readable message; the unique index on lower(display_name) settles a
    race between two players renaming to the same name at once.
    """
    name = display_name_clean(user=user, display_name=display_name)
    profile = profile_ensure(user=user)
    profile.display_name = name
    try:
        with transaction.atomic():
            profile.save(update_fields=["display_name"])
    except IntegrityError:
        raise ValidationError(f"“{name}” was just taken by another player.") from None
    return profile


# --- sound ----------------------------------------------------------------------------------


def sound_update(*, user: User, volume: int, muted: bool) -> Profile:
    """Set the player's sound volume (0 to 100) and mute; SoundRefused (nothing written) if
    the volume is not a whole number in range."""
    if isinstance(volume, bool) or not isinstance(volume, int):
        raise SoundRefused("The volume must be a whole number from 0 to 100.")
    if not 0 <= volume <= SOUND_VOLUME_MAX:
        raise SoundRefused(f"The volume goes from 0 to {SOUND_VOLUME_MAX} (not {volume}).")
    profile = profile_ensure(user=user)
    profile.sound_volume, profile.sound_muted = volume, bool(muted)
    profile.save(update_fields=["sound_volume", "sound_muted"])
    return profile


# --- vacations ------------------------------------------------------------------------------


def vacation_start(*, user: User, days: Any, now: dt.datetime | None = None) -> Profile:
    """Take `days` of vacation from now: my running clocks wait that long, and turns that
    come to me meanwhile start counting when it ends (games.services.clock). Days come
    from a yearly allowance (`accounts.selectors.VACATION_DAYS_PER_YEAR`)."""
    now = now or timezone.now()
    try:
        days = int(days)
    except (TypeError, ValueError):
        raise VacationRefused("Give the number of vacation days as a whole number.") from None
    with transaction.atomic():
        profile = Profile.objects.select_for_update().get(user=user)
        if is_on_vacation(profile=profile, now=now):
            raise VacationRefused("You are on vacation already: end it first to change it.")
        left = vacation_days_left(profile=profile, now=now)
        if not 1 <= days <= left:
            raise VacationRefused(
                f"You can take 1 to {left} vacation days this year."
                if left
                else "You have used all your vacation days this year."
            )
        if profile.vacation_year != now.year:
            profile.vacation_year, profile.vacation_days_used = now.year, 0
        profile.vacation_days_used += days
        profile.vacation_until = now + dt.timedelta(days=days)
        profile.save(update_fields=["vacation_until", "vacation_year", "vacation_days_used"])
        deadlines_shift(user=user, by=dt.timedelta(days=days), now=now)
    return profile


def vacation_end(*, user: User, now: dt.datetime | None = None) -> Profile:
    """Back early: unused whole days return to the allowance and my clocks run again."""
    now = now or timezone.now()
    with transaction.atomic():
        profile = Profile.objects.select_for_update().get(user=user)
        if not is_on_vacation(profile=profile, now=now):
            raise VacationRefused("You are not on vacation.")
        assert profile.vacation_until is not None  # is_on_vacation says so
        unused = profile.vacation_until - now
        if profile.vacation_year == now.year:
            profile.vacation_days_used = max(0, profile.vacation_days_used - unused.days)
        profile.vacation_until = None
        profile.save(update_fields=["vacation_until", "vacation_days_used"])
        deadlines_shift(user=user, by=-unused, now=now)
    return profile
