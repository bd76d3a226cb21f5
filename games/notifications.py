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
import time
from collections.abc import Callable, Coroutine
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.urls import reverse
from django.utils.html import escape

from config import metrics
from games import presence, rendering

logger = logging.getLogger(__name__)


def group_for_seat(match_id: int, seat: int) -> str:
    return f"match-{match_id}-seat-{seat}"


def group_for_spectators(match_id: int) -> str:
    return f"match-{match_id}-watch"


def sync_fragment(match_id: int, *, socket: str) -> str:
    """Sent on every (re)connect: makes the page fetch its board over HTTP, and names the
    page's `socket` (its channel), which the page sends with its moves (`X-Board-Socket`,
    cardhall.js): the answer to a move is the mover's new board, so the push that follows
    skips a player whose only open page is the one that moved (`match_changed`)."""
    url = reverse("games:board", args=[match_id])
    return (
        f'<div id="board-sync" hidden hx-get="{url}" hx-trigger="load" '
        f'hx-target="#board" hx-swap="outerHTML" data-socket="{escape(socket)}"></div>'
    )


# --- lines other apps push over the match socket --------------------------------------------

# reach -> check(*, user, event) -> bool: whether a pushed line reaches a page of `user`.
# An app above `games` that pushes lines over the match socket (community's chat) sends
# {"type": "line.push", "reach": <its name>, "html": ..., ...} to these groups and registers
# its check from its AppConfig.ready; `games` imports none of those apps.
_reach_checks: dict[str, Callable[..., bool]] = {}


def reach_check_register(reach: str, check: Callable[..., bool]) -> None:
    """Registering a name again replaces its check (`ready` may run twice)."""
    _reach_checks[reach] = check


def reaches(*, user: Any, event: dict[str, Any]) -> bool:
    """Does the pushed line `event` reach a page of `user`? A line whose check is not
    registered reaches nobody."""
    check = _reach_checks.get(event.get("reach", ""))
    return check is not None and check(user=user, event=event)


# "Something changed", with no board: sent where only programs' streams listen (the Bot
# API's feeds read their seat's own view); a page that gets it ignores it.
CHANGED: dict[str, Any] = {"type": "board.changed"}


def match_changed(*, match: Any, committed_at: float | None = None, mover_page: str = "") -> None:
    """Push the new board to every open page of the match: each connected seat its own,
    the spectators theirs. A seat with no page open, or a match nobody watches, costs no
    render (`games.presence`; when presence cannot be read, everyone is pushed to), and a
    seat followed only by a program's stream gets a bare CHANGED. A seat whose only socket
    is `mover_page` (the page whose move this is: its answer was the new board; no other
    page, no stream) gets nothing. The boards are rendered first and sent together, in one
    hand-over to the sender loop."""
    # The lag of each push counts from the commit (`committed_at`, a perf_counter()): the
    # answer to the request that made the change goes out in between.
    started = time.perf_counter() if committed_at is None else committed_at
    seats = [seat for seat in match.seats.all() if seat.user_id is not None and seat.joined]
    looking = presence.looking(match_id=match.pk, user_ids=[seat.user_id for seat in seats])
    pushes: list[tuple[str, dict[str, Any]]] = []
    drawn: list[tuple[str, Any]] = []  # (group, seat or None): a board to render for it
    for seat in seats:
        group = group_for_seat(match.pk, seat.index)
        if looking.is_unknown or seat.user_id in looking.user_ids:
            if mover_page and looking.channels.get(seat.user_id) == {mover_page}:
                continue  # its one page (and no stream) has the board: its move's answer
            drawn.append((group, seat))
        elif seat.user_id in looking.streaming_ids:
            pushes.append((group, CHANGED))  # only streams: they read their own view
    # A private run has no spectators (`selectors.can_view`): its board never goes out.
    if (looking.is_unknown or looking.has_spectators) and not match.is_private_now:
        drawn.append((group_for_spectators(match.pk), None))
    elif looking.has_spectator_streams and not match.is_private_now:
        pushes.append((group_for_spectators(match.pk), CHANGED))
    boards = rendering.boards_just_changed(match=match, seats=[seat for _, seat in drawn])
    for (group, _), html in zip(drawn, boards, strict=True):
        pushes.append((group, {"type": "board.push", "html": html}))
    group_send_many(pushes)
    for _ in pushes:
        metrics.push_sent(started)


def group_send(group: str, message: dict[str, Any]) -> None:
    group_send_many([(group, message)])


def group_send_many(pushes: list[tuple[str, dict[str, Any]]]) -> None:
    """Send each (group, message); one failed send never stops the others."""
    layer = get_channel_layer()
    if layer is None or not pushes:
        return

    async def send_all() -> None:
        results = await asyncio.gather(
            *(layer.group_send(group, message) for group, message in pushes),
            return_exceptions=True,
        )
        failed = [result for result in results if isinstance(result, BaseException)]
        if failed:
            raise failed[0]

    if isinstance(layer, InMemoryChannelLayer):
        # The in-memory layer lives on the server's event loop; from a request thread
        # async_to_sync runs the send on that same loop.
        async_to_sync(send_all)()
    else:
        _SenderLoop.get().run(send_all())


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
            metrics.push_failed()
            logger.warning("push to the channel layer failed", exc_info=True)
