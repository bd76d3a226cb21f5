"""Reads of ratings: the leaderboards, a player's current ratings and their history chart.

Leaderboards order by rating (then games played, then who got there first by user id) and
show "rating ± deviation". Provisional players (systems.is_provisional: fewer than five
rated games, or a Glicko-2 RD above 110) are left out unless asked for: a lucky first
game should not top a board. Ranks count only the players listed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.dateformat import format as date_format

from accounts.names import display_name
from games.engine import registry
from ratings import charts, systems
from ratings.models import Rating, RatingChange

PER_PAGE = 25
OVERVIEW_TOP = 5
HISTORY_LIMIT = 400  # the latest rated matches a chart draws, over all games


@dataclass(frozen=True)
class RatedGame:
    slug: str
    name: str
    system: str  # systems.GLICKO2 | systems.OPENSKILL

    @property
    def system_label(self) -> str:
        return "Glicko-2" if self.system == systems.GLICKO2 else "OpenSkill"


@dataclass(frozen=True)
class BoardRow:
    rank: int
    user: Any
    name: str
    rating: int
    deviation: int
    games: int
    wins: int
    is_provisional: bool
    is_viewer: bool


def rating_value(*, user: Any, game: str) -> float | None:
    """`user`'s rating in `game`, or None before their first rated match of it."""
    return Rating.objects.filter(user=user, game=game).values_list("rating", flat=True).first()


def rated_games() -> list[RatedGame]:
    """The games with a rating, in the registry's order (the site's usual order)."""
    return [
        RatedGame(game.slug, game.name, systems.GAME_SYSTEMS[game.slug])
        for game in registry.all()
        if game.slug in systems.GAME_SYSTEMS
    ]


def rated_game_get(*, slug: str) -> RatedGame | None:
    return next((game for game in rated_games() if game.slug == slug), None)


def _established() -> Q:
    """Ratings that are not provisional (the SQL twin of systems.is_provisional)."""
    enough_games = Q(games__gte=systems.PROVISIONAL_GAMES)
    settled = ~Q(system=systems.GLICKO2) | Q(deviation__lte=systems.PROVISIONAL_RD)
    return enough_games & settled


def _board(*, game: str, include_provisional: bool) -> QuerySet[Rating]:
    ratings = Rating.objects.filter(game=game, user__is_active=True)
    if not include_provisional:
        ratings = ratings.filter(_established())
    return ratings.select_related("user__profile").order_by("-rating", "-games", "user_id")


def _row(rank: int, rating: Rating, viewer: Any) -> BoardRow:
    return BoardRow(
        rank=rank,
        user=rating.user,
        name=display_name(rating.user),
        rating=round(rating.rating),
        deviation=round(rating.deviation),
        games=rating.games,
        wins=rating.wins,
        is_provisional=systems.is_provisional(
            system=rating.system, deviation=rating.deviation, games=rating.games
        ),
        is_viewer=viewer is not None and rating.user_id == getattr(viewer, "pk", None),
    )


@dataclass(frozen=True)
class BoardPage:
    page: Page
    rows: list[BoardRow]
    asked_page: str  # what the request asked for, when it was not a page we have; else ""


def leaderboard_page(
    *, game: str, include_provisional: bool, page_number: Any, viewer: Any = None
) -> BoardPage:
    """One page of a game's board. A page number that is not a number gives page 1, one past
    the end gives the last page; `asked_page` then says what was asked, for the notice."""
    paginator = Paginator(_board(game=game, include_provisional=include_provisional), PER_PAGE)
    page = paginator.get_page(page_number)
    asked = str(page_number or "")
    is_exact = asked == "" or asked == str(page.number)
    rows = [_row(page.start_index() + i, rating, viewer) for i, rating in enumerate(page)]
    return BoardPage(page=page, rows=rows, asked_page="" if is_exact else asked[:20])


@dataclass(frozen=True)
class ViewerStanding:
    row: BoardRow
    page_number: int | None  # the page of the board (as shown) holding the row; None if hidden


def leaderboard_standing(
    *, game: str, user: Any, include_provisional: bool
) -> ViewerStanding | None:
    """Where `user` stands on a game's board, shown above it; None before their first game."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    mine = Rating.objects.filter(game=game, user=user).select_related("user__profile").first()
    if mine is None:
        return None
    board = _board(game=game, include_provisional=include_provisional)
    is_listed = board.filter(pk=mine.pk).exists()
    ahead = board.filter(
        Q(rating__gt=mine.rating)
        | Q(rating=mine.rating, games__gt=mine.games)
        | Q(rating=mine.rating, games=mine.games, user_id__lt=mine.user_id)
    ).count()
    rank = ahead + 1 if is_listed else 0
    page_number = (ahead // PER_PAGE) + 1 if is_listed else None
    return ViewerStanding(_row(rank, mine, user), page_number)


@dataclass(frozen=True)
class GameTop:
    game: RatedGame
    rows: list[BoardRow]
    players: int  # everyone rated in the game, provisional included


def leaderboard_overview(*, viewer: Any = None, top: int = OVERVIEW_TOP) -> list[GameTop]:
    """The top established players of every rated game, for the leaderboards' first tab."""
    overview = []
    for game in rated_games():
        ratings = _board(game=game.slug, include_provisional=False)[:top]
        rows = [_row(rank, rating, viewer) for rank, rating in enumerate(ratings, start=1)]
        players = Rating.objects.filter(game=game.slug, user__is_active=True).count()
        overview.append(GameTop(game, rows, players))
    return overview


# --- a player's page ---------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerRating:
    game: RatedGame
    rating: int
    deviation: int
    games: int
    wins: int
    is_provisional: bool
    best: int  # the highest rating after any of their games


def player_ratings(*, user: Any) -> list[PlayerRating]:
    """The player's current rating in every game they have played rated, site order."""
    mine = {rating.game: rating for rating in Rating.objects.filter(user=user)}
    best = _best_ratings(user=user)
    return [
        PlayerRating(
            game=game,
            rating=round(mine[game.slug].rating),
            deviation=round(mine[game.slug].deviation),
            games=mine[game.slug].games,
            wins=mine[game.slug].wins,
            is_provisional=systems.is_provisional(
                system=game.system,
                deviation=mine[game.slug].deviation,
                games=mine[game.slug].games,
            ),
            best=round(best.get(game.slug, mine[game.slug].rating)),
        )
        for game in rated_games()
        if game.slug in mine
    ]


def _best_ratings(*, user: Any) -> dict[str, float]:
    best: dict[str, float] = {}
    for game, after in RatingChange.objects.filter(user=user).values_list("game", "rating_after"):
        best[game] = max(after, best.get(game, after))
    return best


@dataclass(frozen=True)
class HistoryCharts:
    wide: charts.Chart
    narrow: charts.Chart
    matches: int  # rated matches drawn


def player_history_charts(*, user: Any) -> HistoryCharts | None:
    """The player's rating after each rated match, one line per game; None before any."""
    changes = list(
        RatingChange.objects.filter(user=user)
        .order_by("-played", "-pk")
        .values("game", "played", "rating_before", "rating_after", "place", "seats")[:HISTORY_LIMIT]
    )
    if not changes:
        return None
    series = _series(reversed(changes))
    wide = charts.line_chart(series, size=charts.WIDE)
    narrow = charts.line_chart(series, size=charts.NARROW)
    assert wide is not None and narrow is not None  # there are points
    return HistoryCharts(wide, narrow, len(changes))


def _series(changes: Iterable[Mapping[str, Any]]) -> list[charts.Series]:
    names = {game.slug: game.name for game in rated_games()}
    points: dict[str, list[charts.Point]] = defaultdict(list)
    for change in changes:
        name = names.get(change["game"], change["game"])
        after, delta = change["rating_after"], change["rating_after"] - change["rating_before"]
        label = (
            f"{name} · {date_format(timezone.localtime(change['played']), 'j M Y')}: "
            f"{after:.0f} ({delta:+.0f}), "
            f"place {change['place']} of {change['seats']}"
        )
        points[change["game"]].append(charts.Point(change["played"], after, label))
    return [charts.Series(slug, names[slug], points[slug]) for slug in names if slug in points]
