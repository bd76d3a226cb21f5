"""The BaniraCards card pool: card definitions, deck lists, the engine's check, the admin."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from banira import services
from banira.models import CardDefinition, DeckEntry, DeckList
from games.engine.banira.cards import parse_deck
from games.engine.banira.default_deck import DEFAULT_DECK

pytestmark = pytest.mark.django_db


def _card(card_id: str = "t1", **fields) -> CardDefinition:
    values = {
        "name": "Test Card",
        "element": "ruby",
        "type": "sun",
        "rarity": "gold",
        "points": 3,
        "stamina": 3,
        "draws": 2,
    } | fields
    return CardDefinition.objects.create(card_id=card_id, **values)


def _list_of(card: CardDefinition, count: int, slug: str = "test") -> DeckList:
    deck_list = DeckList.objects.create(name=slug.title(), slug=slug)
    DeckEntry.objects.create(deck_list=deck_list, card=card, position=1, count=count)
    return deck_list


def test_the_classic_list_is_the_engines_default_deck() -> None:
    classic = DeckList.objects.get(slug="classic")  # loaded by the data migration
    assert classic.is_active
    assert classic.to_engine_deck() == DEFAULT_DECK
    assert CardDefinition.objects.count() == 50


def test_loading_the_default_deck_again_changes_nothing() -> None:
    services.deck_list_load_default()
    services.deck_list_load_default()
    assert DeckList.objects.filter(slug="classic").count() == 1
    assert DeckEntry.objects.filter(deck_list__slug="classic").count() == 50
    assert DeckList.objects.get(slug="classic").to_engine_deck() == DEFAULT_DECK


def test_loading_keeps_an_admins_edit_of_the_classic_list() -> None:
    classic = DeckList.objects.get(slug="classic")
    entry = classic.entries.first()
    entry.delete()
    services.deck_list_load_default()
    assert classic.entries.count() == 49


def test_copies_get_their_own_ids_and_the_engine_accepts_the_list() -> None:
    deck_list = _list_of(_card("blaze"), 50)
    deck = deck_list.to_engine_deck()
    assert [card["id"] for card in deck[:3]] == ["blaze", "blaze#2", "blaze#3"]
    assert deck[0] == {
        "id": "blaze",
        "name": "Test Card",
        "element": "ruby",
        "type": "sun",
        "rarity": "gold",
        "points": 3,
        "stamina": 3,
        "draws": 2,
    }
    assert len(parse_deck(deck)) == 50
    deck_list.full_clean()  # no error


def test_a_list_that_is_not_50_cards_is_refused_with_the_engines_message() -> None:
    deck_list = _list_of(_card(), 49)
    with pytest.raises(ValidationError) as error:
        deck_list.full_clean()
    assert "exactly 50 cards, not 49" in str(error.value)


@pytest.mark.parametrize(
    ("field", "value"),
    [("points", 21), ("stamina", -21), ("draws", 99), ("element", "opal"), ("rarity", "mythic")],
)
def test_a_card_outside_the_engines_rules_is_refused(field: str, value) -> None:
    card = CardDefinition(
        card_id="bad",
        name="Bad",
        element="ruby",
        type="moon",
        rarity="gold",
        points=1,
        stamina=1,
        draws=1,
    )
    setattr(card, field, value)
    with pytest.raises(ValidationError) as error:
        card.full_clean()
    assert field in error.value.message_dict


def test_card_stats_at_the_limits_are_fine() -> None:
    card = CardDefinition(
        card_id="edge",
        name="Edge",
        element="diamond",
        type="star",
        rarity="shiny",
        points=-20,
        stamina=20,
        draws=0,
    )
    card.full_clean()


# --- the admin ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "admin:banira_carddefinition_changelist",
        "admin:banira_carddefinition_add",
        "admin:banira_decklist_changelist",
        "admin:banira_decklist_add",
        "admin:banira_practicerun_changelist",
    ],
)
def test_admin_pages_load(admin_client, url: str) -> None:
    assert admin_client.get(reverse(url)).status_code == 200


def test_admin_filters_and_search(admin_client) -> None:
    url = reverse("admin:banira_carddefinition_changelist")
    page = admin_client.get(url, {"element": "ruby", "rarity": "gold", "type": "sun"})
    assert page.status_code == 200
    assert admin_client.get(url, {"q": "Tide"}).status_code == 200


def test_admin_change_page_of_a_list_shows_its_entries(admin_client) -> None:
    classic = DeckList.objects.get(slug="classic")
    page = admin_client.get(reverse("admin:banira_decklist_change", args=[classic.pk]))
    assert page.status_code == 200
    assert b"Aquamarine Tide" in page.content


def _inline_post(card: CardDefinition, count: int, slug: str) -> dict[str, str]:
    return {
        "name": slug.title(),
        "slug": slug,
        "description": "",
        "entries-TOTAL_FORMS": "1",
        "entries-INITIAL_FORMS": "0",
        "entries-MIN_NUM_FORMS": "0",
        "entries-MAX_NUM_FORMS": "1000",
        "entries-0-position": "1",
        "entries-0-card": str(card.pk),
        "entries-0-count": str(count),
    }


def test_admin_refuses_a_list_the_engine_refuses(admin_client) -> None:
    card = _card()
    page = admin_client.post(reverse("admin:banira_decklist_add"), _inline_post(card, 7, "short"))
    assert page.status_code == 200  # the form again, with the error
    assert "exactly 50 cards, not 7" in page.content.decode()
    assert not DeckList.objects.filter(slug="short").exists()


def test_admin_saves_a_list_the_engine_accepts(admin_client) -> None:
    card = _card()
    page = admin_client.post(reverse("admin:banira_decklist_add"), _inline_post(card, 50, "full"))
    assert page.status_code == 302
    assert len(DeckList.objects.get(slug="full").to_engine_deck()) == 50


def test_admin_action_checks_lists_with_the_engine(admin_client, monkeypatch) -> None:
    monkeypatch.setattr(services, "CHECK_RUNS", 5)
    classic = DeckList.objects.get(slug="classic")
    broken = _list_of(_card(), 3, slug="broken")
    page = admin_client.post(
        reverse("admin:banira_decklist_changelist"),
        {"action": "check_with_engine", "_selected_action": [classic.pk, broken.pk]},
        follow=True,
    )
    text = page.content.decode()
    assert "“Classic” is valid. Greedy bot over 5 runs: mean score" in text
    assert "“Broken” is not playable" in text and "exactly 50 cards, not 3" in text


def test_the_engine_check_reports_a_mean_score() -> None:
    check = services.deck_list_check(deck_list=DeckList.objects.get(slug="classic"), runs=10)
    assert check.is_valid and check.runs == 10
    assert check.mean_score > 50  # the greedy bot completes nearly every Classic run
