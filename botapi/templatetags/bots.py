"""`bot_badge`: a "bot" label after a player's name wherever players are listed.

    {% load bots %}{{ seats|index:side.seat|bot_badge }}   a seat (its player, if any)
    {% load bots %}{{ row.user|bot_badge }}                a user

One cached set of bot ids (botapi.selectors.bot_ids): no query per name.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html

from botapi import selectors

register = template.Library()

BADGE = '<span class="rule-chip bot-badge" title="{}" data-testid="bot-badge">bot</span>'
TITLE = "A bot: a program plays this account through the Bot API."


@register.filter
def bot_badge(player: Any) -> str:
    """The badge for a bot's user (or a seat a bot holds); "" for anyone else."""
    # A seat names its player by `user_id` (None: the AI or an open seat); a user is its pk.
    user_id = player.user_id if hasattr(player, "user_id") else getattr(player, "pk", None)
    if user_id is None or user_id not in selectors.bot_ids():
        return ""
    return format_html(BADGE, TITLE)
