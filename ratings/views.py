"""The leaderboard pages: every rated game's top players, and one game's full board."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET

from config import inputs
from ratings import selectors, systems

UNRATED_BOARDS = {"banira": "banira:leaderboard"}  # solo games keep their own boards


class NoSuchBoard(Http404):
    """A 404 whose message the site's 404 page shows (config.errors.page_not_found)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    viewer = request.user if request.user.is_authenticated else None
    context = {
        "games": selectors.rated_games(),
        "overview": selectors.leaderboard_overview(viewer=viewer),
        "tab": "",
    }
    return render(request, "ratings/index.html", context)


@require_GET
def board(request: HttpRequest, game: str) -> HttpResponse:
    """One game's board. `?provisional=1` lists provisional players too; `?page=N`."""
    if game in UNRATED_BOARDS:
        return redirect(UNRATED_BOARDS[game])
    rated_game = selectors.rated_game_get(slug=game)
    if rated_game is None:
        raise NoSuchBoard(f"There is no leaderboard for “{game[:40]}”: pick a game from the list.")
    include_provisional = inputs.flag(request.GET.get("provisional"))
    viewer = request.user if request.user.is_authenticated else None
    # A page number that is not one shows page 1 with a notice (the selector's paginator):
    # the layer only bounds and cleans the text it is given.
    page_number = inputs.text(request.GET.get("page"), what="The page number", max_length=40)
    board_page = selectors.leaderboard_page(
        game=game, include_provisional=include_provisional, page_number=page_number, viewer=viewer
    )
    context = {
        "games": selectors.rated_games(),
        "game": rated_game,
        "tab": game,
        "board": board_page,
        "include_provisional": include_provisional,
        "standing": selectors.leaderboard_standing(
            game=game, user=viewer, include_provisional=include_provisional
        ),
        "provisional_games": systems.PROVISIONAL_GAMES,
        "provisional_rd": round(systems.PROVISIONAL_RD),
    }
    return render(request, "ratings/board.html", context)
