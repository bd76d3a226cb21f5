"""Fixtures of the Arcana app's tests: the default pool (loaded by the data migration),
players with the starter set, and cards to give them."""

from __future__ import annotations

import pytest

from arcana import services
from arcana.engine import ARCHETYPE_DECKS
from arcana.models import ArcanaCard, OwnedCard


@pytest.fixture(autouse=True)
def _default_pool(request):
    """The default pool, as the data migration loads it: a transactional test run earlier
    flushes every table, data migrations' rows included."""
    if "db" in request.fixturenames or request.node.get_closest_marker("django_db"):
        from arcana.default_pool import load_default_pool

        request.getfixturevalue("db")
        load_default_pool(ArcanaCard)


@pytest.fixture
def starter(alice):
    """alice with her starter set (the defensive archetype's cards and the Starter deck)."""
    services.starter_ensure(user=alice)
    return alice


def give(user, *card_ids: str, copies: int = 2, level: int = 1) -> None:
    """Own `card_ids` outright (tests only: players get cards from progression)."""
    for card_id in card_ids:
        OwnedCard.objects.update_or_create(
            user=user,
            card=ArcanaCard.objects.get(card_id=card_id),
            defaults={"copies": copies, "level": level},
        )


AGGRESSIVE = list(ARCHETYPE_DECKS["aggressive"])
DEFENSIVE = list(ARCHETYPE_DECKS["defensive"])
