"""Overload answers 503 with Retry-After, never 500 (docs/operations.md, "Sizing connections").

Two guards, one answer:
- `ConcurrencyLimit`, a pure ASGI middleware around the Django HTTP app: at most `limit`
  requests run at once in this worker process; one more waits up to `queue_seconds` for a
  slot, then gets the "busy" page. Websockets, static files and the health checks are not
  counted, nor the paths `uncounted_paths` matches (the Bot API's streams: open for hours,
  holding no database connection between two lines, bounded by their own per-account
  limit). Each running request holds at most one database connection, so the limit keeps
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
import re
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from django.db import InterfaceError, OperationalError, connection
from django.http import HttpRequest, HttpResponse

from config import metrics

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
        uncounted_paths: re.Pattern[str] | None = None,
    ) -> None:
        if limit < 1:
            raise ValueError("the concurrency limit must be at least 1")
        self.app = app
        self.limit = limit
        self.queue_seconds = queue_seconds
        self.uncounted_prefixes = uncounted_prefixes
        self.uncounted_paths = uncounted_paths
        self.slots = asyncio.Semaphore(limit)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or self._is_uncounted(scope["path"]):
            await self.app(scope, receive, send)
            return
        if not await self._take_slot():
            metrics.overloaded()
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

    def _is_uncounted(self, path: str) -> bool:
        if path.startswith(self.uncounted_prefixes):
            return True
        return self.uncounted_paths is not None and self.uncounted_paths.fullmatch(path) is not None

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


def busy_response(page: bytes = BUSY_PAGE) -> HttpResponse:
    response = HttpResponse(page, status=503, content_type="text/html; charset=utf-8")
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


# The database is out of reach (restarting, cut off): not the same news as a full hall.
UNREACHABLE_PAGE = b"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Cardhall is out of reach</title></head>
<body style="font-family: system-ui; background:#0f2a1d; color:#f3ead3; padding:3rem">
<h1>Back in a moment.</h1>
<p>Cardhall cannot reach its records right now, so your request was not carried out.
Please try again in a few seconds. A move is never made twice: sending it again is safe.</p>
</body></html>
"""
BUSY_CAUSES = ("too many clients", "remaining connection slots")  # PostgreSQL is full
FAILING_WINDOW = 60.0  # seconds: a pool that failed to connect this recently is cut off
_connection_errors: dict[int, tuple[int, float]] = {}  # pool -> (failed connects, last grew)


def is_database_busy(exception: Exception) -> bool:
    """Full (PostgreSQL out of slots, or every pooled connection in use), as opposed to out
    of reach (a restart, a cut: no connection can be made, or one was lost)."""
    from psycopg_pool import PoolTimeout

    cause = exception.__cause__ or exception
    if isinstance(cause, PoolTimeout):
        pool = getattr(connection, "pool", None)
        return pool is None or not _is_failing_to_connect(pool)
    return any(text in str(cause) for text in BUSY_CAUSES)


def _is_failing_to_connect(pool: Any) -> bool:
    """Has the pool failed to open a connection lately? A full pool has all it needs."""
    errors = pool.get_stats().get("connections_errors", 0)
    seen, grew_at = _connection_errors.get(id(pool), (0, float("-inf")))
    now = time.monotonic()
    if errors > seen:
        _connection_errors[id(pool)] = (errors, now)
        return True
    return now - grew_at < FAILING_WINDOW


class DatabaseOverloadMiddleware:
    """A view that failed for want of a database connection answers 503, not 500.

    Django wraps the driver's errors: a pool timeout (psycopg_pool.PoolTimeout), PostgreSQL
    refusing a connection ("too many clients") or being out of reach (restarting, cut
    off) all reach here as django.db.OperationalError; a connection lost mid-request as
    InterfaceError. They are the database's state, not a bug in the code (those are
    ProgrammingError, IntegrityError, ...), and the request's transaction was rolled back:
    retrying is the right advice. The page says which: the hall is full, or its records
    are out of reach. Loading the session (the user, on first use in the view) is covered
    like any other query.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError | InterfaceError):
            return None  # InterfaceError: the connection was lost (a database restart)
        cause = exception.__cause__ or exception
        logger.warning("database unavailable: 503 for %s (%r)", request.path, cause)
        if is_database_busy(exception):
            return busy_response(BUSY_PAGE)
        discard_broken_connections()
        return busy_response(UNREACHABLE_PAGE)


def discard_broken_connections() -> None:
    """After a connection failed (PostgreSQL restarted, or ended it), test every idle one
    in this process's pool and replace the dead, so that each fails one request at most
    once per process, not once per pooled connection. Lending is not checked instead: a
    check per request costs a round trip, and psycopg's pool waits between two failed
    checks (1 s, then 2 s, ...), so a pool full of dead connections would time out."""
    pool = getattr(connection, "pool", None)
    if pool is None:
        return
    try:
        pool.check()
    except Exception:  # the pool is closing, or the check itself failed: it will retry
        logger.warning("checking the database pool failed", exc_info=True)
