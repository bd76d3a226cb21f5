"""The player page's social panel: follow, challenge and block buttons for the viewer."""

from __future__ import annotations

from typing import Any

from django import template

from social import selectors

register = template.Library()


@register.inclusion_tag("social/partials/player.html", takes_context=True)
def social_player(context: template.Context, player: Any) -> dict[str, Any]:
    request = context.get("request")
    viewer = getattr(request, "user", None)
    return {
        "player": player,
        "relation": selectors.relation(viewer=viewer, player=player),
        "csrf_token": context.get("csrf_token"),
    }
