"""Reads for the replay: who may see which view of a match's past, and the board after a ply.

A match's history is its move log replayed through the engine, one ply at a time, and
drawn by the game's own board template from one viewer's view:

- a finished match whose seed is revealed: any seat's view, the spectators' view, or
  everything face up (`game.revealed_view`), for anyone who may open the match;
- a running match (or a finished weekly run still private): a player only their own
  seat's view, anyone else the spectators' view (seat None); never everything face up,
  never another seat's view;
- a private weekly run (`match.is_private_now`): its players only, as everywhere.

Nothing here writes. The board context has the same keys as `selectors.match_board`, with
no legal move, so the board templates draw a position and offer nothing to play.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games import replay, selectors
from games.boards import presenter_for
from games.engine.core import Event, Game
from games.errors import MatchError, MatchNotFound
from games.models import Match
from games.replay import Position

REVEALED = "revealed"
SPECTATOR = "spectator"
NO_SUCH_MATCH = "There is no such match."
PRIVATE_RUN = "This run is private until its week ends: everyone plays the same deals."


class HistoryNotAllowed(MatchError):
    status = 403


class BadPly(MatchError):
    status = 400


class NoSuchPly(MatchError):
    status = 404


@dataclass(frozen=True)
class Viewer:
    """Whose eyes the history is seen through: a seat, the spectators, or everything."""

    key: str  # "0", "1", …, "spectator" or "revealed": the `as` of the URL
    seat: int | None  # the seat whose view is drawn (None: spectators, or revealed)
    label: str

    @property
    def is_revealed(self) -> bool:
        return self.key == REVEALED

    def sees(self, event: Event) -> bool:
        return self.is_revealed or event.is_visible_to(self.seat)


def _player_seat(match: Match, user: Any) -> int | None:
    seat = selectors.seat_of(match=match, user=user)
    return seat.index if seat is not None and seat.joined is not None else None


def history_viewers(*, match: Match, user: Any) -> list[Viewer]:
    """The viewers this user may choose for this match, the default first."""
    names = selectors.seat_names(match=match)
    mine = _player_seat(match, user)
    spectator = Viewer(SPECTATOR, None, "Spectator")
    if not match.is_seed_revealed:
        if mine is not None:
            return [Viewer(str(mine), mine, f"{names[mine]} (you)")]
        return [spectator]
    seats = [
        Viewer(str(index), index, f"{name} (you)" if index == mine else name)
        for index, name in enumerate(names)
    ]
    revealed = Viewer(REVEALED, None, "Everything revealed")
    if mine is not None:
        return [seats[mine], revealed, *(v for v in seats if v.seat != mine), spectator]
    return [revealed, *seats, spectator]


def history_match(*, match_id: int, user: Any) -> Match:
    """The match, if this user may open it at all (a private run: its players only)."""
    match = selectors.match_get(match_id=match_id)
    if match is None:
        raise MatchNotFound(NO_SUCH_MATCH)
    if not selectors.can_view(match=match, user=user):
        raise MatchNotFound(PRIVATE_RUN)
    return match


def history_viewer(*, match: Match, user: Any, requested: str | None) -> Viewer:
    """The viewer asked for (`?as=`), or the default; a clear refusal if not allowed."""
    viewers = history_viewers(match=match, user=user)
    if not requested:
        return viewers[0]
    allowed = next((viewer for viewer in viewers if viewer.key == requested), None)
    if allowed is not None:
        return allowed
    if requested == REVEALED:
        if match.is_finished:
            raise HistoryNotAllowed(
                "This run stays face down until its week ends: everyone plays the same deals."
            )
        raise HistoryNotAllowed("Everything is revealed only once the match is over.")
    if requested in {str(seat) for seat in range(match.size)}:
        raise HistoryNotAllowed(
            "While the match runs, each player sees only their own view of its history."
        )
    if requested == SPECTATOR:
        raise HistoryNotAllowed("Players see the history as they saw it: from their own seat.")
    raise BadPly(f"“{requested[:20]}” is not a view of this match: pick one from the list.")


def history_ply(*, match: Match, requested: int | None) -> int:
    """The ply asked for (`?ply=`: the position after that many moves, already read as a
    whole number by config.inputs), default the last."""
    if requested is None:
        return match.ply
    ply = requested
    if ply > match.ply:
        moves = "no move yet" if not match.ply else f"moves 0 to {match.ply}"
        raise NoSuchPly(f"There is no move {ply} in this match: it has {moves}.")
    return ply


def history_states(*, match: Match, upto: int | None = None) -> list[Any]:
    """The state after each ply, 0 (the deal) to `upto` (default: the match's ply)."""
    upto = match.ply if upto is None else upto
    return [replay.match_position(match=match, ply=ply).state for ply in range(upto + 1)]


def history_position(*, match: Match, ply: int) -> Position:
    """The match after `ply` moves (what the board and its log are drawn from): the one
    cached replay, where stepping forward applies one move to the position before it."""
    return replay.match_position(match=match, ply=ply)


def board_view(game: Game, state: Any, viewer: Viewer) -> dict[str, Any]:
    """The engine's view for this viewer: one seat's, the spectators', or everything."""
    if viewer.is_revealed:
        return game.revealed_view(state)
    return game.view(state, viewer.seat)


def history_board(*, match: Match, viewer: Viewer, ply: int) -> dict[str, Any]:
    """The board context of the position after `ply` moves, as `viewer` sees it."""
    position = history_position(match=match, ply=ply)
    game = selectors.match_game(match=match)
    names = selectors.seat_names(match=match)
    view = board_view(game, position.state, viewer)
    is_last = ply == match.ply
    if is_last:
        view = selectors.with_recorded_outcome(view, match)
    context = board_context(
        game=game, slug=match.game, view=view, viewer=viewer, log=position.tail, names=names
    )
    return {
        **context,
        "match": match,
        "seats": list(match.seats.all()),
        "revealed_seed": selectors.revealed_seed(match=match),
        # How it ended, for whoever looks: at the last ply of a finished match only.
        "outcome_text": selectors.outcome_text(match, names, viewer.seat) if is_last else "",
    }


def board_context(
    *,
    game: Game,
    slug: str,
    view: dict[str, Any],
    viewer: Viewer,
    log: Sequence[selectors.LoggedMove],
    names: Sequence[str],
) -> dict[str, Any]:
    """What a board template needs, with nothing to play (shared by the verify page)."""
    presenter = presenter_for(slug)
    view = presenter.decorate(view)
    if "bar" in view and hasattr(presenter, "action_bar"):
        # A board with an action bar (Haymaker): every button off, as if nobody were to act.
        view["bar"] = presenter.action_bar(
            view={**view, "to_act": []}, cards=(), is_legal=lambda action: False
        )
    lines = selectors.log_lines(presenter=presenter, log=log, names=names, sees=viewer.sees)
    return {
        "game": game,
        "presenter": presenter,
        "view": view,
        "names": list(names),
        "my_seat": None,
        "seat_index": viewer.seat,
        "viewer": viewer,
        "is_playing": False,
        "is_my_turn": False,
        "legal_moves": [],
        "log": list(reversed(lines)),
        "last_events": lines[-1]["events"] if lines else [],
        "move_id": "",
        "coach": None,
        "coached_move": "",
        "hidden_piles": hidden_piles(view, names),
        "error": "",
    }


def hidden_piles(view: dict[str, Any], names: Sequence[str]) -> list[dict[str, Any]]:
    """The cards no seat saw (a revealed view's "hidden"), spelled for a panel under the board."""
    piles = []
    for pile in view.get("hidden") or ():
        seat = pile.get("seat")
        owner = f"{names[seat]}'s {pile['pile']}" if seat is not None else pile["pile"]
        piles.append(
            {
                "title": owner[:1].upper() + owner[1:],
                "order": pile.get("order", ""),
                "cards": [_card_text(card) for card in pile["cards"]],
            }
        )
    return piles


def _card_text(card: Any) -> str:
    if isinstance(card, list | tuple):  # Dog Blade's [atk, hp]
        return "/".join(str(stat) for stat in card)
    return str(card)
