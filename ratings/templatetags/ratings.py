"""`{% player_ratings player %}`: a player's current ratings and their history chart, for
the public player page and my profile (templates/accounts/player.html, profile.html)."""

from __future__ import annotations

from typing import Any

from django import template

from accounts.names import display_name
from ratings import selectors

register = template.Library()


@register.inclusion_tag("ratings/_player_ratings.html", takes_context=True)
def player_ratings(context: template.Context, player: Any) -> dict[str, Any]:
    viewer = context.get("user")
    return {
        "player": player,
        "player_name": display_name(player),
        "rated_games": selectors.rated_games(),
        "is_me": viewer is not None and getattr(viewer, "pk", None) == player.pk,
        "ratings": selectors.player_ratings(user=player),
        "history": selectors.player_history_charts(user=player),
    }
