"""Every write to a player's profile goes through here."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from accounts.models import Profile
from accounts.selectors import display_name_is_taken

DISPLAY_NAME_MAX_LENGTH = 40


def profile_ensure(*, user: AbstractBaseUser) -> Profile:
    """The user's profile, created empty if they have none yet (idempotent)."""
    profile, _created = Profile.objects.get_or_create(user=user)
    return profile


def display_name_clean(*, user: AbstractBaseUser, display_name: str) -> str:
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
def profile_update(*, user: AbstractBaseUser, display_name: str) -> Profile:
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
