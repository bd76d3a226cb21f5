"""Loading the engine's default deck (games/engine/banira/default_deck.py) as the "Classic"
deck list. Idempotent: cards are matched by id and brought up to date, and the list gets
its entries only when it has none (an admin's edits to Classic are kept).

Written against the model classes it is given, so the data migration can pass its
historical models and the management command the real ones.
"""

from __future__ import annotations

from typing import Any

from games.engine.banira.default_deck import DEFAULT_DECK

CLASSIC_SLUG = "classic"
CLASSIC_NAME = "Classic"
CLASSIC_DESCRIPTION = (
    "The balanced default list: 7 cards of each element (8 Diamond), 18 Sun, 18 Moon, "
    "14 Star; 7 rainbow, 11 gold, 12 silver, 13 bronze, 7 shiny."
)
CARD_FIELDS = ("name", "element", "type", "rarity", "points", "stamina", "draws")


def load_default_deck(card_model: Any, list_model: Any, entry_model: Any) -> tuple[Any, int]:
    """(the Classic list, how many card definitions were created or changed)."""
    changed = 0
    cards = []
    for row in DEFAULT_DECK:
        values = {field: row[field] for field in CARD_FIELDS}
        card, created = card_model.objects.get_or_create(card_id=row["id"], defaults=values)
        if not created and any(getattr(card, field) != value for field, value in values.items()):
            for field, value in values.items():
                setattr(card, field, value)
            card.save()
            created = True
        changed += created
        cards.append(card)
    classic, created = list_model.objects.get_or_create(
        slug=CLASSIC_SLUG,
        defaults={"name": CLASSIC_NAME, "description": CLASSIC_DESCRIPTION, "is_active": True},
    )
    if not entry_model.objects.filter(deck_list=classic).exists():
        entry_model.objects.bulk_create(
            entry_model(deck_list=classic, card=card, position=position, count=1)
            for position, card in enumerate(cards, start=1)
        )
    return classic, changed
