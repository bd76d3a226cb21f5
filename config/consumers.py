"""What the site's websocket consumers share beyond Channels' own.

`DispatchesWithoutSweep`: Channels' `AsyncConsumer.dispatch` runs Django's
`close_old_connections` before every message it hands to a handler: each push, each
frame from the client, each connect and disconnect. It runs there as a thread-sensitive
call, and outside a request that is one thread for the whole process, the thread every
consumer's `database_sync_to_async` call also waits for. So every push to every socket
crossed to that thread and back only to find no connection to close: about 1% of a
worker's time at saturation (py-spy, docs/benchmarks.md, fourteenth pass).

The sweep is not needed for a consumer whose every database call goes through
`database_sync_to_async`: that closes stale connections in its own thread, before and
after the call. Ours do (the match socket's connect and its chat lines' reach check, the
notification socket's bell); the handlers that only forward a rendered push touch no
database.
"""

from __future__ import annotations

from typing import Any

from channels.consumer import get_handler_name


class DispatchesWithoutSweep:
    """For a websocket consumer that reads the database only through
    `database_sync_to_async`: hand each message to its handler at once."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
