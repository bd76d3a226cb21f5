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
    """`seat`'s board (None: the spectators'), rendered at most once per change."""
    if match.status == match.Status.WAITING:
        return render_to_string(BOARD_TEMPLATE, board_context(match=match, seat=seat))
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
