"""Arcana's rules editions on the site (docs/rules/grimhand.md, Arcana, "Editions"): a new
match is written with today's edition, the migrations stamp the stored ones with the
edition they were created under (1, then 2), and a rematch plays today's rules."""

from __future__ import annotations

import importlib
import os

import pytest
from django.apps import apps
from django.urls import reverse

from games.engine.grimhand.arcana.state import EDITION
from games.models import Match
from games.services.tables import _options_turned

pytestmark = pytest.mark.django_db

stamp = importlib.import_module("games.migrations.0007_arcana_edition")
stamp_2 = importlib.import_module("games.migrations.0008_arcana_edition_2_stamp")


def test_the_lobby_writes_todays_edition_into_a_new_arcana_match(client, alice) -> None:
    client.force_login(alice)
    form = {"game": "grimhand", "players": "2", "opponent": "ai", "ai_level": "normal"}
    response = client.post(reverse("games:lobby"), {**form, "variant": "arcana"})
    assert response.status_code == 302, response.content[:500]
    assert Match.objects.get().options["edition"] == EDITION == 3


def _stored(game: str, options: dict, alice) -> Match:
    seed = os.urandom(32)
    return Match.objects.create(
        game=game,
        options=options,
        size=2,
        seed=seed,
        seed_commitment=Match.commitment_for(seed),
        created_by=alice,
    )


def test_the_migration_stamps_stored_arcana_matches_with_edition_1(alice) -> None:
    old = _stored("grimhand", {"variant": "arcana"}, alice)
    new = _stored("grimhand", {"variant": "arcana", "edition": 2}, alice)
    classic = _stored("grimhand", {"hp": 40}, alice)
    other = _stored("dogblade", {}, alice)
    stamp.forwards(apps, None)
    for match in (old, new, classic, other):
        match.refresh_from_db()
    assert old.options == {"variant": "arcana", "edition": 1}
    assert new.options == {"variant": "arcana", "edition": 2}
    assert classic.options == {"hp": 40} and other.options == {}
    stamp.backwards(apps, None)
    old.refresh_from_db()
    new.refresh_from_db()
    assert old.options == {"variant": "arcana"} and new.options["edition"] == 2


def test_the_second_migration_stamps_arcana_matches_naming_no_edition_with_edition_2(
    alice,
) -> None:
    """Until edition 3, a match naming none was played under edition 2: it keeps its
    hidden tops rather than showing them halfway through."""
    unnamed = _stored("grimhand", {"variant": "arcana", "hp": 30}, alice)
    first = _stored("grimhand", {"variant": "arcana", "edition": 1}, alice)
    classic = _stored("grimhand", {}, alice)
    stamp_2.forwards(apps, None)
    for match in (unnamed, first, classic):
        match.refresh_from_db()
    assert unnamed.options == {"variant": "arcana", "hp": 30, "edition": 2}
    assert first.options["edition"] == 1 and classic.options == {}


def test_a_rematch_is_played_under_todays_edition() -> None:
    options = {"variant": "arcana", "decks": [["a"], None], "edition": 1}
    assert _options_turned(options, 2) == {"variant": "arcana", "decks": [None, ["a"]]}
