"""Grimhand Arcana through the Bot API, as the lobby opens it: `{"variant": "arcana"}` in
the options (with `"deck": id`, one of my decks), and `?deck=` when accepting a seat."""

from __future__ import annotations

import pytest

from arcana import services as arcana
from arcana.default_pool import load_default_pool
from arcana.models import ArcanaCard, ArcanaDeck
from games.models import Match

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _pool(db):
    load_default_pool(ArcanaCard)  # a transactional test run earlier flushes data migrations'


def _problem(response, status):
    assert response.status_code == status, response.content
    return response.json()


def test_an_arcana_match_against_the_ai_with_my_deck(alice, api_for):
    arcana.starter_ensure(user=alice)
    deck = ArcanaDeck.objects.get(owner=alice)
    api = api_for(alice)

    made = api.post(
        "/api/v1/matches",
        {
            "game": "grimhand",
            "options": {"variant": "arcana", "deck": deck.pk},
            "opponent": {"ai": "normal"},
        },
    )

    assert made.status_code == 201, made.content
    match = Match.objects.get(pk=made.json()["id"])
    assert match.options["variant"] == "arcana"
    assert sorted(match.options["decks"][0]) == sorted(deck.card_ids)
    seen = api.get(f"/api/v1/matches/{match.pk}").json()
    assert "pool" not in seen and "seed" not in seen


def test_an_arcana_table_invites_and_the_guest_accepts_with_a_deck(alice, bob, api_for):
    arcana.starter_ensure(user=bob)
    deck = ArcanaDeck.objects.get(owner=bob)
    made = api_for(alice).post(
        "/api/v1/matches",
        {"game": "grimhand", "options": {"variant": "arcana"}, "opponent": {"user": "bob"}},
    )
    assert made.status_code == 201, made.content
    match_id = made.json()["id"]

    accepted = api_for(bob).post(f"/api/v1/matches/{match_id}/accept?deck={deck.pk}")

    assert accepted.status_code == 200, accepted.content
    match = Match.objects.get(pk=match_id)
    assert match.status == Match.Status.ACTIVE
    assert match.options["decks"][0] is None  # alice: the house's archetype deck
    assert sorted(match.options["decks"][1]) == sorted(deck.card_ids)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game": "grimhand", "options": {"variant": "cosmic"}}, "options.variant"),
        ({"game": "dogblade", "options": {"variant": "arcana"}}, "options.variant"),
        ({"game": "grimhand", "options": {"deck": 3}}, "options.deck"),
        ({"game": "grimhand", "options": {"variant": "arcana", "deck": "three"}}, "options.deck"),
    ],
)
def test_bad_arcana_options_are_refused_and_nothing_is_written(alice, api_for, body, field):
    before = Match.objects.count()
    answer = _problem(
        api_for(alice).post("/api/v1/matches", {**body, "opponent": {"ai": "easy"}}), 400
    )
    assert answer["field"] == field and answer["message"]
    assert Match.objects.count() == before


def test_a_deck_that_is_not_mine_is_refused_and_nothing_is_written(alice, bob, api_for):
    arcana.starter_ensure(user=bob)
    bobs = ArcanaDeck.objects.get(owner=bob)
    before = Match.objects.count()
    response = api_for(alice).post(
        "/api/v1/matches",
        {
            "game": "grimhand",
            "options": {"variant": "arcana", "deck": bobs.pk},
            "opponent": {"ai": "easy"},
        },
    )
    assert response.status_code in (400, 404), response.content
    assert response.json()["field"] == "deck"
    assert Match.objects.count() == before
