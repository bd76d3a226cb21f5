import json

from django import template

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
