"""The collection and deck-builder pages: bad input is a message and nothing written."""

from __future__ import annotations

import pytest
from django.urls import reverse

from arcana.models import ArcanaDeck, Collector, OwnedCard
from tests.arcana.conftest import AGGRESSIVE, DEFENSIVE, give

pytestmark = pytest.mark.django_db


def _deck_form(name: str, card_ids: list[str]) -> dict[str, str]:
    form = {"name": name}
    for card_id in card_ids:
        key = f"n_{card_id}"
        form[key] = str(int(form.get(key, "0")) + 1)
    return form


def test_the_pages_need_a_login(client) -> None:
    for name in ("arcana:collection", "arcana:decks", "arcana:deck_new"):
        assert client.get(reverse(name)).status_code == 302


def test_the_collection_shows_the_starter_set_and_locked_cards(client, alice) -> None:
    client.force_login(alice)
    page = client.get(reverse("arcana:collection"))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-testid="card-iron_wall"' in html and "Upgrade: 40 shards" in html
    assert "Locked" in html  # cards not owned yet
    assert '<svg viewBox="0 0 200 280"' in html  # the card partial


def test_an_upgrade_through_the_page(client, alice) -> None:
    client.force_login(alice)
    client.get(reverse("arcana:collection"))
    page = client.post(reverse("arcana:upgrade"), {"card": "iron_wall"}, follow=True)
    assert "costs 40 shards; you have 0" in page.content.decode()
    Collector.objects.filter(user=alice).update(shards=40)
    page = client.post(reverse("arcana:upgrade"), {"card": "iron_wall"}, follow=True)
    assert "Iron Wall is now level 2." in page.content.decode()
    page = client.post(reverse("arcana:upgrade"), {"card": "berserker_blade"}, follow=True)
    assert "You don&#x27;t own “Berserker Blade”" in page.content.decode()
    assert client.post(reverse("arcana:upgrade"), {"card": "x" * 500}).status_code == 400


def test_the_builder_saves_a_legal_deck(client, alice) -> None:
    client.force_login(alice)
    page = client.get(reverse("arcana:deck_new"))
    assert page.status_code == 200 and 'name="n_iron_wall"' in page.content.decode()
    page = client.post(reverse("arcana:deck_new"), _deck_form("Wall", DEFENSIVE))
    assert page.status_code == 302
    assert sorted(ArcanaDeck.objects.get(owner=alice, name="Wall").card_ids) == sorted(DEFENSIVE)


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        (DEFENSIVE[:6], "A deck holds exactly 12 cards; this one has 6."),
        (AGGRESSIVE, "You don&#x27;t own “Berserker Blade”."),
        ([*DEFENSIVE[:11], "no_such_card"], "There is no card “no_such_card”."),
    ],
)
def test_the_builder_refuses_a_bad_deck_with_its_message(client, alice, cards, message) -> None:
    client.force_login(alice)
    page = client.post(reverse("arcana:deck_new"), _deck_form("Bad", cards))
    assert page.status_code == 422
    assert message in page.content.decode()
    assert not ArcanaDeck.objects.filter(name="Bad").exists()


def test_the_builder_answers_htmx_with_its_fragment(client, alice) -> None:
    client.force_login(alice)
    page = client.post(
        reverse("arcana:deck_new"), _deck_form("Bad", DEFENSIVE[:3]), HTTP_HX_REQUEST="true"
    )
    assert page.status_code == 422
    html = page.content.decode()
    assert html.lstrip().startswith('<form id="builder"') and "<html" not in html
    page = client.post(
        reverse("arcana:deck_new"), _deck_form("Good", DEFENSIVE), HTTP_HX_REQUEST="true"
    )
    assert page.status_code == 200 and page["HX-Redirect"] == reverse("arcana:decks")


def test_the_live_check_writes_nothing(client, alice) -> None:
    client.force_login(alice)
    client.get(reverse("arcana:decks"))
    before = ArcanaDeck.objects.count()
    page = client.post(reverse("arcana:deck_check"), _deck_form("x", DEFENSIVE[:4]))
    assert page.status_code == 200
    assert "<strong>4</strong> / 12 cards" in page.content.decode()
    assert ArcanaDeck.objects.count() == before


@pytest.mark.parametrize("count", ["-1", "²", "9" * 30, "1.5"])
def test_junk_counts_are_a_400(client, alice, count) -> None:
    client.force_login(alice)
    page = client.post(reverse("arcana:deck_new"), {"name": "J", "n_iron_wall": count})
    assert page.status_code == 400
    assert not ArcanaDeck.objects.filter(name="J").exists()


def test_another_players_deck_is_not_found(client, alice, bob) -> None:
    client.force_login(alice)
    client.get(reverse("arcana:decks"))
    deck = ArcanaDeck.objects.get(owner=alice)
    client.force_login(bob)
    assert client.get(reverse("arcana:deck_edit", args=[deck.pk])).status_code == 404
    page = client.post(reverse("arcana:deck_delete", args=[deck.pk]), follow=True)
    assert "You have no such deck." in page.content.decode()
    assert ArcanaDeck.objects.filter(pk=deck.pk).exists()


def test_edit_and_delete_my_deck(client, alice) -> None:
    client.force_login(alice)
    client.get(reverse("arcana:decks"))
    deck = ArcanaDeck.objects.get(owner=alice)
    give(alice, "hex")
    cards = [*DEFENSIVE[:-1], "hex"]
    page = client.post(reverse("arcana:deck_edit", args=[deck.pk]), _deck_form("Hexed", cards))
    assert page.status_code == 302
    deck.refresh_from_db()
    assert deck.name == "Hexed" and "hex" in deck.card_ids
    client.post(reverse("arcana:deck_delete", args=[deck.pk]))
    assert not ArcanaDeck.objects.filter(pk=deck.pk).exists()
    assert OwnedCard.objects.filter(user=alice).exists()  # the cards stay
