import json

from django import template
from django.utils.safestring import mark_safe

from games import jinja as board_templates

register = template.Library()


@register.filter
def tojson(value) -> str:
    """A value as compact JSON, for a button's value (autoescaped by the template)."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


@register.filter
def index(sequence, position):
    try:
        return sequence[position]
    except (IndexError, KeyError, TypeError):
        return ""


@register.filter
def hexseed(value) -> str:
    return bytes(value).hex()


@register.filter
def duration(seconds) -> str:
    """A short, rounded-down span: "2 d 4 h", "11 h 20 min", "9 min", "under a minute"."""
    try:
        seconds = max(0, int(seconds))
    except (TypeError, ValueError):
        return ""
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        return f"{days} d {hours} h" if hours else f"{days} d"
    if hours:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    return f"{minutes} min" if minutes else "under a minute"


@register.simple_tag(takes_context=True)
def jinja(context, name):
    """A board's Jinja template (games.jinja) drawn inside a Django page, with the page's
    context: the match page, the replay and the verify page."""
    return mark_safe(board_templates.render(name, context.flatten()))


@register.simple_tag
def jinja_macro(name, macro, *args, **kwargs):
    """A macro of a Jinja template that holds only macros (a game's `cards.jinja`), called
    from a Django page: a rules page shows the board's own cards."""
    module = board_templates.environment().get_template(name).module
    return mark_safe(str(getattr(module, macro)(*args, **kwargs)))
