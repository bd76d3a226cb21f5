"""Grimhand's rules page explains Arcana and shows every enabled ability card, drawn as the
deck builder and the board draw them (issue 17: a card gallery on the rules page)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from arcana.models import ArcanaCard

pytestmark = pytest.mark.django_db


def _cards_shown(page: str) -> set[str]:
    gallery = page[page.index('data-testid="arcana-rules"') :]
    return set(re.findall(r'<figure class="arcana-card[^"]*" data-card="([^"]+)"', gallery))


def test_the_rules_page_shows_every_enabled_card_by_slot(client) -> None:
    enabled = set(ArcanaCard.objects.filter(is_enabled=True).values_list("card_id", flat=True))
    assert len(enabled) >= 20  # the default pool, loaded by a data migration
    page = client.get(reverse("games:rules", args=["grimhand"])).content.decode()
    assert 'href="#arcana"' in page and "Arcana mode and its cards" in page
    assert _cards_shown(page) == enabled
    for slot in ("attack", "defense", "spell"):
        assert f'data-testid="gallery-{slot}"' in page
    assert "Berserker Blade" in page and "costs 1 energy" in page  # each card's label


def test_a_disabled_card_leaves_the_gallery_and_none_says_so(client) -> None:
    blade = ArcanaCard.objects.get(card_id="berserker_blade")
    blade.is_enabled = False
    blade.save(update_fields=["is_enabled"])
    page = client.get(reverse("games:rules", args=["grimhand"])).content.decode()
    assert "berserker_blade" not in _cards_shown(page) and _cards_shown(page)

    ArcanaCard.objects.update(is_enabled=False)
    page = client.get(reverse("games:rules", args=["grimhand"])).content.decode()
    assert _cards_shown(page) == set() and 'data-testid="gallery-empty"' in page
