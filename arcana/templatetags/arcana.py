"""`{% arcana_card card %}`: one ability card drawn as the SVG card frame of
arcana/card.html, from an ArcanaCard row (the admin, the collection, the deck builder) or
an engine card dict (CardDef.to_json: the board). The same partial everywhere."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from typing import Any

from django import template
from django.templatetags.static import static
from django.utils.safestring import mark_safe

from arcana import selectors
from arcana.engine import text_of
from arcana.models import ArcanaCard
from games.boards.grimhand.arcana import art as board_art

register = template.Library()

TEXT_WIDTH = 24  # characters per line of rules text on the card
TEXT_LINES = 5
SLOT_GLYPHS = {"attack": "⚔", "defense": "⛨", "lucky": "☘", "spell": "✦"}
# Drawn as SVG presentation attributes, so the card looks the same with no stylesheet (the
# admin's preview) and a page's CSS may still restyle it.
RARITY_COLOURS = {"common": "#9aa4ad", "rare": "#4f8fd8", "epic": "#a463d8", "legendary": "#e0a526"}
SLOT_COLOURS = {"attack": "#7a2630", "defense": "#24476e", "lucky": "#2f6b3a", "spell": "#4a2f6e"}


def card_face(card: ArcanaCard | Mapping[str, Any], level: int = 1) -> dict[str, Any]:
    """What the frame draws: name, slot, value, cost, rarity, text lines, art, flavour."""
    if isinstance(card, ArcanaCard):
        data = card.to_engine_card()
        art_svg = mark_safe(card.art_svg) if card.art_svg else ""  # svg_clean's output only
        art_url = static(card.art) if card.art else ""
        flavour = card.flavour
    else:
        data, art_svg, art_url, flavour = dict(card), "", "", ""
    if not art_svg and not art_url:  # no art of its own: the board's art for its effect
        art_url = static(board_art(str(data.get("effect", ""))))
    text = text_of(data)
    return {
        "id": data.get("id", ""),
        "name": data.get("name", ""),
        "slot": data.get("slot", ""),
        "glyph": SLOT_GLYPHS.get(str(data.get("slot")), "✦"),
        "value": data.get("value", 0),
        "cost": data.get("cost", 0),
        "rarity": data.get("rarity", "common"),
        "text": text,
        "text_lines": textwrap.wrap(text, TEXT_WIDTH)[:TEXT_LINES],
        "flavour": flavour,
        "art_svg": art_svg,
        "art_url": art_url,
        "level": level,
        "edge": RARITY_COLOURS.get(str(data.get("rarity")), RARITY_COLOURS["common"]),
        "ground": SLOT_COLOURS.get(str(data.get("slot")), SLOT_COLOURS["spell"]),
    }


WIDTHS = {"": 200, "small": 140, "admin": 64}  # the SVG's own width (CSS may scale it)


def card_context(card: ArcanaCard | Mapping[str, Any], level: int = 1, size: str = "") -> dict:
    """The context of arcana/card.html."""
    width = WIDTHS.get(size, WIDTHS[""])
    return {"face": card_face(card, level), "size": size, "width": width, "height": width * 7 // 5}


@register.inclusion_tag("arcana/card.html")
def arcana_card(card: ArcanaCard | Mapping[str, Any], level: int = 1, size: str = "") -> dict:
    return card_context(card, level, size)


SLOT_ORDER = ("attack", "defense", "lucky", "spell")


@register.simple_tag
def arcana_gallery() -> list[tuple[str, list[dict[str, Any]]]]:
    """Every enabled ability card as the engine would play it (the pool a new table gets),
    grouped by slot in SLOT_ORDER: the rules page's gallery. One query."""
    cards = selectors.pool_cards()
    return [
        (slot, sorted((card for card in cards if card["slot"] == slot), key=_by_cost_and_name))
        for slot in SLOT_ORDER
        if any(card["slot"] == slot for card in cards)
    ]


def _by_cost_and_name(card: Mapping[str, Any]) -> tuple[int, str]:
    return (card["cost"], card["name"])


@register.simple_tag(takes_context=True)
def arcana_join_decks(context: template.Context, match: Any) -> list[Any]:
    """The viewer's decks to pick from when taking a seat at `match`, if it is an Arcana
    table (games/partials/waiting.html); [] otherwise."""
    user = context.get("user")
    if not getattr(user, "is_authenticated", False):
        return []
    if (getattr(match, "options", None) or {}).get("variant") != "arcana":
        return []
    return list(selectors.decks_for(user=user))
