import json

from django import template
from django.utils.html import format_html, format_html_join

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


@register.simple_tag
def log_items(log, empty: str = "No moves yet."):
    """A board's log (`selectors.log_lines`, newest move first) as its list items, one per
    event: built here rather than in two nested template loops, which were most of a
    board's render time."""
    items = [
        (event["type"], entry["ply"] + 1, event["text"])
        for entry in log
        for event in entry["events"]
    ]
    if not items:
        return format_html('<li class="muted">{}</li>', empty)
    return format_html_join(
        "\n", '<li class="log-{}"><span class="log-ply">{}</span> {}</li>', items
    )
