"""The sockets' WebSocket protocol: uvicorn's, compressing each message on its own.

Browsers offer permessage-deflate, and uvicorn accepts it with context takeover: each socket
then keeps a zlib compressor for its whole life, idle or not, about 40 KB of it.
Measured with 4,000 idle match sockets that offered what Chromium offers, a socket cost 75
KB of a worker's memory, against 35 KB without compression (docs/benchmarks.md, thirteenth
pass); the target is at most 60.

A push is one message: a board, 10-20 KB of HTML that compresses about 7 to 1 on its own.
So this protocol answers the offer with `server_no_context_takeover` and
`client_no_context_takeover`. Each message is compressed (or decompressed) with a zlib
object of its own, dropped once the message has gone, and an idle socket holds none. The
window and memory settings are uvicorn's own. The sockets stay compressed, which a phone on
a slow network needs more than a shared window.

Serve with it: `uvicorn web.asgi:application --ws config.websocket:WebSocketProtocol`
(`UVICORN_WS` holds those two arguments for the programs here that start servers).
"""

from __future__ import annotations

import logging
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.server import ServerProtocol

UVICORN_WS = ("--ws", "config.websocket:WebSocketProtocol")


def deflate() -> ServerPerMessageDeflateFactory:
    """permessage-deflate as uvicorn configures it, without context takeover either way."""
    return ServerPerMessageDeflateFactory(
        server_no_context_takeover=True,
        client_no_context_takeover=True,
        server_max_window_bits=12,
        client_max_window_bits=12,
        compress_settings={"memLevel": 5},
    )


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's default protocol (websockets' sans-I/O one) with `deflate()`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.config.ws_per_message_deflate:
            # Nothing has used the connection uvicorn made: its handshake comes later.
            self.conn = ServerProtocol(
                extensions=[deflate()],
                max_size=self.config.ws_max_size,
                logger=logging.getLogger("uvicorn.error"),
            )
