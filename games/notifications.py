"""Every push to a socket happens here, and only after a commit.

One group per seat of a match (that seat's own board) and one for its spectators. A push
is the board already rendered from the receiving seat's view, tagged with its version; it
is a hint, not a guarantee (Channels delivers at most once), so pages also re-fetch their
board over HTTP on every (re)connect and on a slow poll.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Coroutine
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.template.loader import render_to_string
from django.urls import reverse

from games import selectors

logger = logging.getLogger(__name__)


def group_for_seat(match_id: int, seat: int) -> str:
    return f"match-{match_id}-seat-{seat}"


def group_for_spectators(match_id: int) -> str:
    return f"match-{match_id}-watch"


def render_board(*, match: Any, seat: Any, error: str = "") -> str:
    context = selectors.match_board(match=match, seat=seat)
    context["error"] = error
    # Pushed boards have no request: their forms carry the CSRF token in the page's
    # hx-headers, and "NOTPROVIDED" tells the csrf_token tag to render nothing.
    context["csrf_token"] = "NOTPROVIDED"
    return render_to_string("games/match.html#board", context)


def sync_fragment(match_id: int) -> str:
    """Sent on every (re)connect: makes the page fetch its board over HTTP."""
    url = reverse("games:board", args=[match_id])
    return (
        f'<div id="board-sync" hidden hx-get="{url}" hx-trigger="load" '
        'hx-target="#board" hx-swap="outerHTML"></div>'
    )


def match_changed(*, match_id: int) -> None:
    """Push each connected seat its own freshly rendered board, and spectators theirs."""
    match = selectors.match_get(match_id=match_id)
    if match is None:
        return
    for seat in match.seats.all():
        if seat.user_id is not None and seat.joined is not None:
            html = render_board(match=match, seat=seat)
            group_send(group_for_seat(match_id, seat.index), {"type": "board.push", "html": html})
    html = render_board(match=match, seat=None)
    group_send(group_for_spectators(match_id), {"type": "board.push", "html": html})


def group_send(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    if isinstance(layer, InMemoryChannelLayer):
        # The in-memory layer lives on the server's event loop; from a request thread
        # async_to_sync runs the send on that same loop.
        async_to_sync(layer.group_send)(group, message)
    else:
        _SenderLoop.get().run(layer.group_send(group, message))


class _SenderLoop:
    """One long-lived event loop thread per process for sends from sync code.

    async_to_sync from a worker or a command would open a new loop (and a new Redis
    connection) for every call; this keeps one loop and one connection pool.
    """

    _instance: _SenderLoop | None = None
    _lock = threading.Lock()

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        thread = threading.Thread(target=self.loop.run_forever, name="channel-sender", daemon=True)
        thread.start()

    @classmethod
    def get(cls) -> _SenderLoop:
        with cls._lock:
            if cls._instance is None:
                cls._instance = cls()
            return cls._instance

    def run(self, coroutine: Coroutine[Any, Any, Any], timeout: float = 5.0) -> None:
        future = asyncio.run_coroutine_threadsafe(coroutine, self.loop)
        try:
            future.result(timeout)
        except Exception:  # a lost push is healed by the page's re-fetch
            logger.warning("push to the channel layer failed", exc_info=True)
