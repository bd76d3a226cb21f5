"""Loading the engine's DEFAULT_POOL (games/engine/grimhand/arcana/cards.py) as ArcanaCard
rows. Idempotent: a card already there (by id) is left as an admin may have edited it.

Written against the model class it is given, so the data migration can pass its
historical model and tests the real one.
"""

from __future__ import annotations

from typing import Any

from arcana.engine import DEFAULT_POOL

CARD_FIELDS = ("name", "slot", "value", "cost", "effect", "params", "rarity", "text")


def load_default_pool(card_model: Any) -> int:
    """Create the default cards that are missing; returns how many were created."""
    created = 0
    for card in DEFAULT_POOL:
        row = card.to_json()
        values = {name: row[name] for name in CARD_FIELDS}
        _, is_new = card_model.objects.get_or_create(card_id=card.id, defaults=values)
        created += is_new
    return created
