"""Equipping cosmetics. Owning one comes from players.grant_apply (levels, quests, the
pass, achievements, an admin grant); starter items are everyone's."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from progression import selectors
from progression.errors import NotFound, NotOwned, ProgressionError
from progression.models import Cosmetic, Ownership, PlayerProgress
from progression.services.players import progress_locked

SLOT_FIELD: dict[str, str] = {  # a cosmetic kind (read from a row: a plain str) -> its slot
    Cosmetic.Kind.CARD_BACK: "card_back",
    Cosmetic.Kind.BOARD_THEME: "board_theme",
    Cosmetic.Kind.AVATAR_FRAME: "avatar_frame",
}


def cosmetic_equip(*, user: Any, cosmetic_id: int) -> PlayerProgress:
    """Wear an item I own in its slot (a starter item clears the slot: the default look)."""
    cosmetic = Cosmetic.objects.filter(pk=cosmetic_id, is_active=True).first()
    if cosmetic is None:
        raise NotFound("There is no such item.")
    if not selectors.is_owned(user=user, cosmetic=cosmetic):
        raise NotOwned(
            f"You don't own “{cosmetic.name}” yet. Items come from levels, quests, "
            "achievements and the season pass."
        )
    with transaction.atomic():
        progress = progress_locked(user)
        field = SLOT_FIELD[cosmetic.kind]
        setattr(progress, field, None if cosmetic.is_starter else cosmetic)
        progress.save(update_fields=[field])
    return progress


def cosmetic_revoke(*, user: Any, cosmetic_id: int) -> Ownership | None:
    """An admin takes an item back (docs/operations-admin.md): the player no longer owns it
    and, if they wore it, its slot falls back to the default look. Returns the ownership
    removed, or None when they did not own it (nothing written: revoking twice is harmless).
    Starter items are everyone's and cannot be taken back. Lock: the player's progress row.
    """
    cosmetic = Cosmetic.objects.filter(pk=cosmetic_id).first()
    if cosmetic is None:
        raise NotFound("There is no such item.")
    if cosmetic.is_starter:
        raise ProgressionError(f"“{cosmetic.name}” is a starter item: every player owns it.")
    with transaction.atomic():
        progress = progress_locked(user)
        owned = Ownership.objects.filter(user=user, cosmetic=cosmetic).first()
        if owned is None:
            return None
        owned.delete()
        field = SLOT_FIELD[cosmetic.kind]
        if getattr(progress, f"{field}_id") == cosmetic.pk:
            setattr(progress, field, None)
            progress.save(update_fields=[field])
    return owned
