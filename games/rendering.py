"""Boards as HTML, rendered once per change and per viewer.

A board fragment is drawn from the match row (its version: the ply and the last update),
its seats, its position, and who looks: one seat, or the spectators. The answer to a
move, the pushes that follow it and the board fetches of every open page all need the
same few fragments, so each is rendered once and kept in the shared cache under (match,
version, viewer) until the match changes again.

Rendered without a request: forms carry the CSRF token in the page's `hx-headers` (the
csrf_token tag renders nothing), and the viewer's account is the seat's player. A table
still waiting for players is drawn per request instead (its forms are plain forms that
depend on who looks), and so is a board carrying an error for one request.

A finished match's board, for a seat with a player, carries the header's level bar as an
out-of-band swap (`hx-swap-oob`): the end panel shows what the match earned (XP, coins,
quests, a level-up; progression credits it inside the result's own transaction, before
any push), and the header moves with it, whether the end came as the answer to the
player's own move or as a push. The bar is read fresh, never cached with the board: it
belongs to the player, not to the match.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache import cache
from django.template.loader import render_to_string

from games import selectors

logger = logging.getLogger(__name__)

BOARD_SECONDS = 600
BOARD_TEMPLATE = "games/match.html#board"
LEVEL_BAR_TEMPLATE = "progression/partials/header.html"


def _key(match: Any, seat: Any) -> str:
    viewer = "watch" if seat is None else f"seat{seat.index}"
    return f"board:{match.pk}:{match.ply}:{match.updated.timestamp():.6f}:{viewer}"


def board_context(*, match: Any, seat: Any, error: str = "") -> dict[str, Any]:
    """The board template's context for `seat` (None: the spectators), with no request."""
    context = selectors.match_board(match=match, seat=seat)
    context["error"] = error
    context["csrf_token"] = "NOTPROVIDED"  # the page's hx-headers carry the token
    context["user"] = seat.user if seat is not None and seat.user_id is not None else None
    return context


def board_html(*, match: Any, seat: Any) -> str:
    """`seat`'s board (None: the spectators'), rendered at most once per change; once the
    match is over, followed by the seat's player's header level bar (out of band)."""
    if match.status == match.Status.WAITING:
        return render_to_string(BOARD_TEMPLATE, board_context(match=match, seat=seat))
    html = _cached_board_html(match=match, seat=seat)
    if match.is_finished and seat is not None and seat.user_id is not None:
        html += level_bar_oob_html(user=seat.user)
    return html


def level_bar_oob_html(*, user: Any) -> str:
    """The header's level bar of `user`, marked to replace the one on the page."""
    from progression import selectors as progression

    bar = progression.level_bar_for(user=user)
    return render_to_string(LEVEL_BAR_TEMPLATE, {"bar": bar, "oob": True})


def _cached_board_html(*, match: Any, seat: Any) -> str:
    key = _key(match, seat)
    try:
        html = cache.get(key)
    except Exception:  # the cache is an optimisation: render instead
        logger.warning("board cache unreachable", exc_info=True)
        html = None
    if html is None:
        html = render_to_string(BOARD_TEMPLATE, board_context(match=match, seat=seat))
        try:
            cache.set(key, html, BOARD_SECONDS)
        except Exception:
            logger.warning("board cache unreachable", exc_info=True)
    return html
