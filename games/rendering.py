"""Boards as HTML, rendered once per change and per viewer.

A board fragment is drawn from the match row (its version: the ply and the last update),
its seats, its position, and who looks: one seat, or the spectators. The answer to a
move, the pushes that follow it and the board fetches of every open page all need the
same few fragments, so each is rendered once and kept in the shared cache under (match,
version, viewer) until the match changes again. A fragment's key names its version, so
what is under a key never changes: each process also keeps its last few fragments in
memory (`_recent`), and the push of the mover's own board, which follows the answer to
the move (config.after_response), costs no second render.

Rendered without a request: forms carry the CSRF token in the page's `hx-headers` (the
csrf_token tag renders nothing), and the viewer's account is the seat's player. A table
still waiting for players is drawn per request instead (its forms are plain forms that
depend on who looks), and so is a board carrying an error for one request.

A finished match's board, for a seat with a player, carries what apps above `games`
registered to follow a result, as out-of-band swaps (`hx-swap-oob`; `after_result_register`):
today progression's header level bar. The end panel shows what the match earned (XP, coins,
quests, a level-up; progression credits it inside the result's own transaction, before
any push), and the header moves with it, whether the end came as the answer to the
player's own move or as a push. These fragments are read fresh, never cached with the
board: they belong to the player, not to the match.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from django.core.cache import cache

from config.after_response import after_response, request_memo
from games import jinja, selectors

logger = logging.getLogger(__name__)

BOARD_SECONDS = 600
BOARD_TEMPLATE = "games/board.jinja"  # Jinja2 (games.jinja): the hottest template

# name -> render(user=...) -> HTML marked hx-swap-oob: what follows a finished match's board
# for its seat's player. Apps above `games` register here from their AppConfig.ready
# (progression: the header's level bar); `games` imports none of them.
_after_result: dict[str, Callable[..., str]] = {}


def after_result_register(name: str, render: Callable[..., str]) -> None:
    """Send `render(user=...)`'s out-of-band HTML after every finished board of a seat with a
    player. Registering a name again replaces it (`ready` may run twice)."""
    _after_result[name] = render


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
    match is over, followed by the seat's player's out-of-band fragments (`_after_result`)."""
    if match.status == match.Status.WAITING:
        return _draw(match, seat)
    return _with_after_result(match, seat, _cached_board_html(match=match, seat=seat))


def boards_just_changed(*, match: Any, seats: list[Any]) -> list[str]:
    """`board_html` for each of `seats` (None: the spectators), drawn right after the change
    they show: for the answer to a move, then for the pushes that follow it
    (games.notifications). No other process can have drawn this version yet, so the shared
    cache is not asked first; what this process has just drawn (the answer) is not drawn
    again. The new fragments are written to the shared cache once the answer has gone out
    (config.after_response), in one round trip with the pushes' (`_share_after_response`)."""
    if match.status == match.Status.WAITING:
        return [board_html(match=match, seat=seat) for seat in seats]
    drawn: dict[str, str] = {}
    boards = []
    for seat in seats:
        key = _key(match, seat)
        html = _recent.get(key)
        if html is None:
            html = drawn[key] = _draw(match, seat)
            _recent.put(key, html)
        boards.append(_with_after_result(match, seat, html))
    if drawn:  # for other processes' board fetches: after the answer, during a request
        _share_after_response(drawn)
    return boards


def _with_after_result(match: Any, seat: Any, html: str) -> str:
    if match.is_finished and seat is not None and seat.user_id is not None:
        html += "".join(render(user=seat.user) for render in _after_result.values())
    return html


class _Recent:
    """The last `size` fragments this process drew or read, by key (thread-safe)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[str, str] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: str) -> str | None:
        with self.lock:
            html = self.items.get(key)
            if html is not None:
                self.items.move_to_end(key)
            return html

    def clear(self) -> None:
        with self.lock:
            self.items.clear()

    def put(self, key: str, html: str) -> None:
        with self.lock:
            self.items[key] = html
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)


_recent = _Recent(size=128)  # a Dog Blade board is about 20 KB: a few MB per process


def memo_clear() -> None:
    """Forget the fragments this process keeps (tests that clear the cache)."""
    _recent.clear()


def _cached_board_html(*, match: Any, seat: Any) -> str:
    key = _key(match, seat)
    html = _recent.get(key)
    if html is not None:
        return html
    html = _shared_get(key)
    if html is None:
        html = _draw(match, seat)
        _shared_put({key: html})
    _recent.put(key, html)
    return html


def draw(context: dict[str, Any]) -> str:
    """A board from its context (`board_context`, or a request's: games.views)."""
    return jinja.render(BOARD_TEMPLATE, context)


def _draw(match: Any, seat: Any) -> str:
    return draw(board_context(match=match, seat=seat))


_UNSHARED = "games.rendering.unshared"  # request_memo's key: fragments not yet written


def _share_after_response(fragments: dict[str, str]) -> None:
    """Put `fragments` in the shared cache once the answer has gone out, in one round trip
    with the other fragments drawn for the same request. A move's answer (its mover's board)
    is drawn in the view, the pushes' boards just after the answer is sent, by the step the
    commit queued before the view drew: the write queued by the view runs after that step
    and takes what it drew too. Outside a request the write is made at once."""
    memo = request_memo()
    if memo is None:
        _shared_put(fragments)
        return
    waiting = memo.get(_UNSHARED)
    if waiting is not None:
        waiting.update(fragments)
        return
    memo[_UNSHARED] = dict(fragments)
    after_response(lambda: _shared_put(memo.pop(_UNSHARED)))


def _shared_put(fragments: dict[str, str]) -> None:
    try:
        cache.set_many(fragments, BOARD_SECONDS)
    except Exception:  # the cache is an optimisation: the next reader renders
        logger.warning("board cache unreachable", exc_info=True)


def _shared_get(key: str) -> str | None:
    try:
        return cache.get(key)
    except Exception:  # the cache is an optimisation: render instead
        logger.warning("board cache unreachable", exc_info=True)
        return None
