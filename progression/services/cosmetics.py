"""Equipping cosmetics. Owning one comes from players.grant_apply (levels, quests, the
pass, achievements, an admin grant); starter items are everyone's."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from progression import selectors
from progression.errors import NotFound, NotOwned
from progression.models import Cosmetic, PlayerProgress
from progression.services.players import progress_locked

SLOT_FIELD = {
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
