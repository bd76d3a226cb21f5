"""Template tags other apps' templates include: the header level badge, the match-end
panel, the player page's level and achievements, and the board cosmetics of each seat.

Each is one line in a shared template, so the shared files change as little as possible.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.templatetags.static import static
from django.utils.html import format_html
from django.utils.safestring import SafeString

from progression import levels, selectors

register = template.Library()


@register.inclusion_tag("progression/partials/header.html", takes_context=True)
def progression_header(context: dict[str, Any]) -> dict[str, Any]:
    user = context.get("user")
    if user is None or not user.is_authenticated:
        return {"bar": None}
    # signed_in: a player with no bar yet still gets the header's slot, which the board's
    # out-of-band level bar fills once a match has earned one (games.rendering).
    return {"bar": selectors.level_bar_for(user=user), "signed_in": True}


@register.inclusion_tag("progression/partials/match_end.html", takes_context=True)
def progression_match_end(context: dict[str, Any], match: Any) -> dict[str, Any]:
    """What this match earned the viewer ("+120 XP, level 7, 80% to 8"), once it is over."""
    user = context.get("user")
    if match is None or not match.is_finished:
        return {"credit": None}
    credit = selectors.credit_for(match_id=match.pk, user=user)
    if credit is None:
        return {"credit": None}
    return {"credit": credit, "bar": levels.level_bar(credit.xp_after)}


@register.inclusion_tag("progression/partials/player.html")
def progression_player(player: Any) -> dict[str, Any]:
    progress = selectors.progress_get(user=player)
    return {
        "player": player,
        "bar": levels.level_bar(progress.xp if progress else 0),
        "frame": progress.avatar_frame if progress and progress.avatar_frame_id else None,
        "achievements": [row for row in selectors.achievements_for(user=player) if row.unlocked],
        "achievements_total": len(selectors.achievements_for(user=player)),
    }


@register.simple_tag
def board_cosmetics(match: Any) -> SafeString:
    """A <style> scoped to this board: each seat's card back, theme and frame on its side.

    A card back is the custom property --cos-back, read by progression.css on the face-down
    cards of Dog Blade, Haymaker and Shield inside that seat's area (Grimhand's backs tell
    the attack deck from the defense deck, so they stay). A theme's custom properties
    (--cos-side, --cos-accent, --cos-table) colour the seat's area; the table itself wears
    the host's (seat 0) theme. An avatar frame (--cos-frame, with its size) shows as a small
    medallion before the seat's name. Empty when nobody at the table equipped anything.
    """
    rules = []
    for look in selectors.board_looks(match=match):
        seat = f'#board [data-seat="{look.seat}"]'
        theme = look.theme_css.strip().rstrip(";")
        if look.card_back:
            rules.append(f'{seat} {{ --cos-back: url("{look.card_back}"); }}')
        if look.frame:
            rules.append(f'{seat} {{ --cos-frame: url("{look.frame}"); {FRAMED} }}')
        if theme:
            rules.append(f"{seat} {{ {theme}; {SEAT_THEMED} }}")
            if look.seat == 0:
                rules.append(f"#board {{ {theme}; {TABLE_THEMED} }}")
    if not rules:
        return SafeString("")
    return format_html(
        '<style data-testid="board-cosmetics">{}</style>', SafeString("\n".join(rules))
    )


SEAT_THEMED = (
    "background: var(--cos-side, none); border-radius: 16px; "
    "box-shadow: inset 0 0 0 1px var(--cos-accent, transparent);"
)
FRAMED = "--cos-frame-size: 1.35em; --cos-frame-gap: 0.3em;"
TABLE_THEMED = "background: var(--cos-table, none); border-radius: 18px; padding: 0.75rem;"


@register.simple_tag
def cosmetic_url(cosmetic: Any) -> str:
    return cosmetic.asset_url if cosmetic and cosmetic.asset else ""


# An achievement's icon is a character an admin picks (Achievement.icon); some (⛨, ✿) are in
# no font a phone has, and showed as an empty box. Each is drawn instead, from one sprite.
ACHIEVEMENT_SYMBOLS = {
    "⚔": "swords",
    "✿": "flower",
    "❀": "flower",
    "☠": "skull",
    "💀": "skull",
    "✊": "fist",
    "👊": "fist",
    "⛨": "shield",
    "🛡": "shield",
    "⇄": "swap",
    "🔄": "swap",
    "♣": "club",
    "☘": "club",
    "★": "star",
}


@register.simple_tag
def achievement_icon(achievement: Any, size: str = "") -> SafeString:
    """The achievement's icon as SVG (a star for a character not drawn here)."""
    glyph = (achievement.icon or "").strip().replace("\ufe0f", "")
    symbol = ACHIEVEMENT_SYMBOLS.get(glyph, "star")
    return format_html(
        '<span class="ach-icon{}" data-symbol="{}"><svg class="ach-svg" aria-hidden="true" '
        'focusable="false"><use href="{}#{}"></use></svg></span>',
        f" {size}" if size else "",
        symbol,
        static("img/achievements.svg"),
        symbol,
    )
