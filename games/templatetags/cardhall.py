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
