"""Site-wide pages that belong to no one app: the home page. The error pages are
config.errors, the health checks config.health.

The home page reads the games through their one table (games.boards) and a selector.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games import selectors
from games.boards import has_board, presenter_for, tutorial_for
from games.engine import registry

UPCOMING = [
    ("grimhand", "Grimhand Tactics"),
    ("banira", "BaniraCards"),
    ("haymaker", "Haymaker"),
    ("shield", "Shield"),
]


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    games = [
        {
            "game": game,
            "tagline": presenter_for(game.slug).tagline,
            "has_rules": bool(presenter_for(game.slug).rules_template),
            "has_tutorial": tutorial_for(game.slug) is not None,
        }
        for game in registry.all()
        if has_board(game.slug)
    ]
    upcoming = [{"slug": slug, "name": name} for slug, name in UPCOMING if not has_board(slug)]
    return render(
        request,
        "games/home.html",
        {
            "games": games,
            "upcoming": upcoming,
            "turns": selectors.turn_count_for(user=request.user),
        },
    )
