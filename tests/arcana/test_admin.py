"""The cards in the admin: the preview, an invalid definition refused with the engine's
message (nothing saved), uploaded SVG cleaned, the engine check."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from arcana import checks
from arcana.models import ArcanaCard

pytestmark = pytest.mark.django_db


def _form(card: ArcanaCard, **changes) -> dict:
    data = {
        "card_id": card.card_id,
        "name": card.name,
        "slot": card.slot,
        "value": card.value,
        "cost": card.cost,
        "effect": card.effect,
        "params": '{"turns": 2}',
        "rarity": card.rarity,
        "text": card.text,
        "flavour": "",
        "art": "",
        "art_svg": "",
        "is_enabled": "on",
        "season": "",
    }
    data.update(changes)
    return data


def test_the_list_filters_and_change_page_show_the_card(admin_client) -> None:
    url = reverse("admin:arcana_arcanacard_changelist")
    page = admin_client.get(url, {"slot": "spell", "rarity": "epic", "is_enabled": "1"})
    assert page.status_code == 200 and "Scrying Orb" in page.content.decode()
    card = ArcanaCard.objects.get(card_id="scrying_orb")
    page = admin_client.get(reverse("admin:arcana_arcanacard_change", args=[card.pk]))
    html = page.content.decode()
    assert page.status_code == 200
    assert 'class="arcana-card rarity-epic slot-spell"' in html and "Scrying Orb" in html
    assert admin_client.get(reverse("admin:arcana_arcanacard_add")).status_code == 200


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"params": '{"turns": 99}'}, "Parameter “turns”"),
        ({"params": "[1, 2]"}, "Parameters are a JSON object"),
        ({"params": "{nope"}, "Enter a valid JSON"),
        ({"value": "0"}, "its value is at least 1"),
    ],
)
def test_an_invalid_definition_is_a_form_error_and_nothing_is_saved(
    admin_client, changes, message
) -> None:
    card = ArcanaCard.objects.get(card_id="bleeding_edge")
    before = card.to_engine_card()
    url = reverse("admin:arcana_arcanacard_change", args=[card.pk])
    page = admin_client.post(url, _form(card, **changes))
    assert page.status_code == 200  # the form again, with the error
    assert message in page.content.decode()
    card.refresh_from_db()
    assert card.to_engine_card() == before


def test_a_new_card_with_uploaded_svg_is_saved_clean(admin_client) -> None:
    template = ArcanaCard.objects.get(card_id="bleeding_edge")
    art = SimpleUploadedFile(
        "art.svg",
        b'<svg xmlns="http://www.w3.org/2000/svg" onload="x()"><script>x</script>'
        b'<circle cx="50" cy="50" r="40" fill="#a00"/></svg>',
        content_type="image/svg+xml",
    )
    form = _form(template, card_id="bleeding_edge_2", name="Bleeding Edge II", art_file=art)
    page = admin_client.post(reverse("admin:arcana_arcanacard_add"), form)
    assert page.status_code == 302, page.content.decode()[:2000]
    card = ArcanaCard.objects.get(card_id="bleeding_edge_2")
    assert "<circle" in card.art_svg and "script" not in card.art_svg
    assert "onload" not in card.art_svg


def test_the_engine_check_action_reports_play_rate_and_win_rate(admin_client, monkeypatch):
    monkeypatch.setattr(checks, "CHECK_MATCHES", 4)
    monkeypatch.setattr(checks.card_check, "__defaults__", (4,))
    card = ArcanaCard.objects.get(card_id="iron_wall")
    page = admin_client.post(
        reverse("admin:arcana_arcanacard_changelist"),
        {"action": "check_with_engine", "_selected_action": [card.pk]},
        follow=True,
    )
    html = page.content.decode()
    assert "“Iron Wall” (iron_wall) is valid." in html
    assert "AI matches" in html


def test_the_check_of_an_invalid_card_says_why(db) -> None:
    card = ArcanaCard.objects.get(card_id="iron_wall")
    card.params = {"nonsense": 1}
    check = checks.card_check(card=card)
    assert not check.is_valid and "has no parameter" in check.summary()
