"""The AI levels on offer (games.ai.levels), for menus drawn outside a form."""

from django import template

from games.ai import levels

register = template.Library()


@register.simple_tag
def ai_levels_offered() -> list[levels.Level]:
    return levels.offered()
