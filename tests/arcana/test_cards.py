"""Cards as data: the default pool, the engine as the judge of a definition, SVG art."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from arcana.default_pool import load_default_pool
from arcana.engine import DEFAULT_POOL
from arcana.models import ArcanaCard
from arcana.svg import UnsafeSvg, svg_clean

pytestmark = pytest.mark.django_db


def test_the_data_migration_loads_the_engines_default_pool() -> None:
    assert set(ArcanaCard.objects.values_list("card_id", flat=True)) == {
        card.id for card in DEFAULT_POOL
    }
    for card in DEFAULT_POOL:
        row = ArcanaCard.objects.get(card_id=card.id)
        assert row.to_engine_card() == card.to_json()


def test_loading_again_keeps_an_admins_edit() -> None:
    ArcanaCard.objects.filter(card_id="purge").update(name="Cleanse")
    assert load_default_pool(ArcanaCard) == 0
    assert ArcanaCard.objects.get(card_id="purge").name == "Cleanse"


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("params", {"turns": 99}, "Parameter"),
        ("params", {"nonsense": 1}, "has no parameter"),
        ("effect", "unknown_effect", "unknown effect"),
        ("value", 0, "value is at least 1"),
        ("value", 999, "from 0 to 20"),
        ("card_id", "Bad Id", "slug"),
    ],
)
def test_a_definition_the_engine_refuses_is_a_validation_error(field, value, message) -> None:
    card = ArcanaCard.objects.get(card_id="bleeding_edge")
    if field == "params":
        card.params = value
    else:
        setattr(card, field, value)
    with pytest.raises(ValidationError) as error:
        card.clean()
    assert message in str(error.value)


def test_a_valid_edit_passes_the_engine() -> None:
    card = ArcanaCard.objects.get(card_id="iron_wall")
    card.value = 9
    card.clean()


def test_svg_art_loses_scripts_handlers_and_outside_links() -> None:
    dirty = (
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" onload="alert(1)">'
        '<script>alert(1)</script><circle cx="5" cy="5" r="4" fill="red" onclick="x()"/>'
        '<a href="javascript:alert(1)"><rect width="1" height="1"/></a>'
        '<use href="https://evil.example/x.svg#a"/><rect fill="url(https://evil.example/a)"/>'
        "<foreignObject><div>hi</div></foreignObject></svg>"
    )
    clean = svg_clean(dirty)
    for bad in ("script", "onload", "onclick", "javascript", "evil", "foreignObject", "<a"):
        assert bad not in clean
    assert "<circle" in clean and 'fill="red"' in clean


@pytest.mark.parametrize(
    "text",
    [
        '<!DOCTYPE svg [<!ENTITY a "aaaa">]><svg>&a;</svg>',
        "<svg><g></svg>",
        "<html><body/></html>",
    ],
)
def test_svg_that_cannot_be_made_safe_is_refused(text: str) -> None:
    with pytest.raises(UnsafeSvg):
        svg_clean(text)


def test_a_card_with_unsafe_svg_is_cleaned_on_clean() -> None:
    card = ArcanaCard.objects.get(card_id="hex")
    card.art_svg = (
        '<svg xmlns="http://www.w3.org/2000/svg"><script>x</script><path d="M0 0"/></svg>'
    )
    card.clean()
    assert "script" not in card.art_svg and "<path" in card.art_svg


def test_the_card_partial_draws_a_row_or_an_engine_dict() -> None:
    from django.template import Context, Template

    card = ArcanaCard.objects.get(card_id="scrying_orb")
    card.art_svg = svg_clean('<svg xmlns="http://www.w3.org/2000/svg"><circle r="3"/></svg>')
    template = Template(
        "{% load arcana %}{% arcana_card card %}|{% arcana_card data size='small' %}"
    )
    row_html, dict_html = template.render(
        Context({"card": card, "data": DEFAULT_POOL[0].to_json()})
    ).split("|")
    assert "Scrying Orb" in row_html and "<circle" in row_html and 'width="200"' in row_html
    assert DEFAULT_POOL[0].name in dict_html and 'width="140"' in dict_html
    assert DEFAULT_POOL[0].text[:20] in dict_html
    # No art of its own: the board's art for its effect, never a bare glyph.
    assert f"img/grimhand/arcana/{DEFAULT_POOL[0].effect}" in dict_html
    assert "ac-glyph" not in dict_html
