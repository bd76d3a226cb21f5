"""`{% chat_panel match %}`: the match page's chat, outside the board (a board swap never
touches it; pushes append to it)."""

from django import template
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from accounts.names import display_name
from community import selectors
from community.emotes import EMOTES

register = template.Library()


@register.simple_tag(takes_context=True)
def chat_panel(context: template.Context, match) -> SafeString:
    request = context.get("request")
    user = getattr(request, "user", None)
    panel = selectors.chat_panel(match=match, user=user)
    if panel.room is None:
        return mark_safe("")
    html = render_to_string(
        "community/chat.html#panel",
        {"panel": panel, "emotes": EMOTES.items()},
        request=request,
    )
    return mark_safe(html)  # noqa: S308 - rendered by the template engine, escaped there


@register.filter
def player_name(user) -> str:
    return display_name(user)
