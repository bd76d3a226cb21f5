"""Overload answers 503 with Retry-After, never 500 (docs/operations.md, "Sizing connections").

Two guards, one answer:
- `ConcurrencyLimit`, a pure ASGI middleware around the Django HTTP app: at most `limit`
  requests run at once in this worker process; one more waits up to `queue_seconds` for a
  slot, then gets the "busy" page. Websockets, static files and the health checks are not
  counted. Each running request holds at most one database connection, so the limit keeps
  a worker's demand within its connection pool.
- `DatabaseOverloadMiddleware`, a Django middleware: a view that could not get a
  connection (the pool timed out, PostgreSQL said "too many clients") or lost it gets the
  same page. Its transaction was rolled back, so nothing changed and trying again is safe.

The page is a constant: answering overload must touch neither the database nor templates
(whose context processors read the database).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from django.db import OperationalError
from django.http import HttpRequest, HttpResponse

logger = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

RETRY_AFTER_SECONDS = 3
BUSY_PAGE = b"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Cardhall is busy</title></head>
<body style="font-family: system-ui; background:#0f2a1d; color:#f3ead3; padding:3rem">
<h1>The hall is full for a moment.</h1>
<p>Too many players at once: your request was not carried out, and nothing was changed.
Please try again in a few seconds.</p></body></html>
"""
BUSY_HEADERS = [
    (b"content-type", b"text/html; charset=utf-8"),
    (b"content-length", str(len(BUSY_PAGE)).encode()),
    (b"retry-after", str(RETRY_AFTER_SECONDS).encode()),
    (b"cache-control", b"no-store"),
]


class ConcurrencyLimit:
    """At most `limit` HTTP requests at once; a short bounded wait; then 503."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        limit: int,
        queue_seconds: float,
        uncounted_prefixes: tuple[str, ...] = (),
    ) -> None:
        if limit < 1:
            raise ValueError("the concurrency limit must be at least 1")
        self.app = app
        self.limit = limit
        self.queue_seconds = queue_seconds
        self.uncounted_prefixes = uncounted_prefixes
        self.slots = asyncio.Semaphore(limit)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].startswith(self.uncounted_prefixes):
            await self.app(scope, receive, send)
            return
        if not await self._take_slot():
            logger.warning(
                "overloaded: %s requests running, none freed in %.1f s: 503 for %s",
                self.limit,
                self.queue_seconds,
                scope["path"],
            )
            await send_busy_page(send)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self.slots.release()

    async def _take_slot(self) -> bool:
        try:
            async with asyncio.timeout(self.queue_seconds):
                await self.slots.acquire()
        except TimeoutError:
            return False
        return True


async def send_busy_page(send: Send) -> None:
    await send({"type": "http.response.start", "status": 503, "headers": BUSY_HEADERS})
    await send({"type": "http.response.body", "body": BUSY_PAGE})


def busy_response() -> HttpResponse:
    response = HttpResponse(BUSY_PAGE, status=503, content_type="text/html; charset=utf-8")
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


class DatabaseOverloadMiddleware:
    """A view that failed for want of a database connection answers 503, not 500.

    Django wraps the driver's errors: a pool timeout (psycopg_pool.PoolTimeout) and
    PostgreSQL refusing a connection ("too many clients") both reach here as
    django.db.OperationalError. Operational errors are the database's state, not a bug in
    the code (those are ProgrammingError, IntegrityError, ...), and the request's
    transaction was rolled back: retrying is the right advice.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError):
            return None
        cause = exception.__cause__ or exception
        logger.warning("database unavailable: 503 for %s (%r)", request.path, cause)
        return busy_response()
