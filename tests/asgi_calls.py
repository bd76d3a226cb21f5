"""A GET sent straight to an ASGI HTTP app, as a server sends it, for the request handler's
tests (config/handler.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any


def scope(route: str) -> dict:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": f"/{route}/",
        "raw_path": f"/{route}/".encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 40000),
        "server": ("testserver", 80),
    }


async def get(
    app: Any,
    route: str,
    *,
    hang_up_after: float | None = None,
    on_sent: Callable[[], None] | None = None,
) -> list[dict]:
    """GET `/route/` from `app`; the messages it sent. The client stays until the answer is
    sent, or hangs up `hang_up_after` seconds after its request; `on_sent` is called when
    the answer's last part is sent."""
    sent: list[dict] = []
    requested = False

    async def receive() -> dict:
        nonlocal requested
        if not requested:
            requested = True
            return {"type": "http.request", "body": b"", "more_body": False}
        if hang_up_after is not None:
            await asyncio.sleep(hang_up_after)
        else:
            await asyncio.Event().wait()  # the client stays until the answer is sent
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        if on_sent and message["type"] == "http.response.body" and not message.get("more_body"):
            on_sent()
        sent.append(message)

    await app(scope(route), receive, send)
    return sent
