"""Health checks: `/healthz/live` (liveness) and `/healthz` (readiness).

Liveness says only that this process answers HTTP: it touches nothing else, so a load
balancer never restarts a healthy worker because a shared dependency is down.

Readiness reports each dependency as "up" or "down" (the cache may be "local", the broker
"eager"), and answers 503 only when the database is down: without it no page works, while
without Redis pages still render and sockets heal by re-fetching. Every check is bounded:
a Redis is asked PING through one small connection pool per process and URL with short
timeouts, never a round trip through the channel layer (whose receive loop is busy while
the worker holds sockets, so that answered "down" after 2 s) and never a new connection
per request.

Under uvicorn both are answered by `HealthChecks`, an ASGI layer in front of Django
(web/asgi.py): Django's requests wait for a slot under the worker's request cap
(config/overload.py), so a check made there waits behind every move and board in the
queue (measured before this layer: p50 63 ms, p99 259 ms at saturation; up to 813 ms
with 4,000 sockets open).
Liveness is answered on the event loop; readiness runs its checks on a thread of its own,
which borrows a database connection and gives it back. The Django views below stay for
every other way in (the test client, a WSGI server) and give the same answers.

Readiness answers a fresh check whenever one finishes within `PATIENCE`, as it does on a
machine with a core to spare. When both cores are saturated the check's few round trips
each wait for the GIL behind the moves (measured: p99 91-154 ms at saturation, against
26 ms for liveness), so a probe that would wait longer gets the last check's answer
instead, if that is at most `MAX_AGE` old, with its age in the `X-Checked-Ms-Ago` header;
the fresh check goes on, and the next probe gets it. Once a check that found everything
up has taken longer than `PATIENCE` (the machine is busy), the next probe does not wait at
all: it gets the last answer (if that recent) while its own check starts, until a check is
quick again; after a check that found something down, probes wait as above, so the end of
an outage shows at once. While probes come, each process checks once every `REFRESH` on
its own (one `SELECT 1` and one PING a second), so a change in a dependency shows within
about two seconds even under load, and at once otherwise. With no answer that recent, a
probe waits for its check, however long.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Awaitable, Callable, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import urlsplit

import redis
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from config import redis_clients

ALIVE = {"process": "up"}  # liveness: the process answers, nothing else is asked
PING_TIMEOUT = 0.5  # seconds, for connecting, for the answer, and for a free connection


@require_GET
@never_cache
def live(request: HttpRequest) -> JsonResponse:
    """The process answers: no database, no Redis."""
    return JsonResponse(ALIVE)


@require_GET
@never_cache
def ready(request: HttpRequest) -> JsonResponse:
    """Each dependency's state; 200 when the database answers, 503 otherwise."""
    report, status = readiness()
    return JsonResponse(report, status=status)


Ping = Callable[[str], bool]  # does the Redis at this URL answer?
Answer = tuple[dict[str, str], int]  # the report, and the status to answer


def readiness() -> Answer:
    """Each dependency's state, and the status to answer: 200 while the database is up.

    The cache, the channel layer and the broker are often databases of one Redis server:
    that server is asked once (`each_server_once`), so a check is two round trips, not
    four (each one, under load, also waits for a core and for the GIL)."""
    ping = each_server_once()
    report = {
        "database": check_database(),
        "channel_layer": check_channel_layer(ping),
        "cache": check_cache(ping),
        "broker": check_broker(ping),
    }
    return report, 200 if report["database"] == "up" else 503


def redis_server(url: str) -> str:
    """The Redis server `url` names, whatever database it picks: "redis://host:port" (with
    its credentials), or a socket's path. A PING is the server's, not a database's."""
    if not isinstance(url, str):
        return repr(url)  # a channel layer's (host, port): a server already
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}{parts.path if parts.scheme == 'unix' else ''}"


def each_server_once() -> Ping:
    """A ping that asks each Redis server once, however many URLs name it."""
    answers: dict[str, bool] = {}

    def ping(url: str) -> bool:
        server = redis_server(url)
        if server not in answers:
            answers[server] = redis_answers(url)
        return answers[server]

    return ping


def check_database() -> str:
    try:
        connection.ensure_connection()
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception:
        return "down"
    return "up"


def check_channel_layer(ping: Ping | None = None) -> str:
    layer = get_channel_layer()
    if layer is None:
        return "down"
    hosts = getattr(layer, "hosts", None)
    if hosts is None:
        return "up"  # the in-memory layer lives in this process
    addresses = [host.get("address") for host in hosts]
    if not all(addresses):
        return "unknown"  # a sentinel-style host: nothing here pings it
    ping = ping or redis_answers
    return "up" if all(ping(address) for address in addresses) else "down"


def check_cache(ping: Ping | None = None) -> str:
    if not isinstance(caches["default"], RedisCache):
        return "local"
    location = settings.CACHES["default"]["LOCATION"]
    servers = location if isinstance(location, list) else re.split("[;,]", location)
    ping = ping or redis_answers
    return "up" if all(ping(server) for server in servers) else "down"


def check_broker(ping: Ping | None = None) -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "eager"
    url = settings.CELERY_BROKER_URL
    if url.startswith(("redis://", "rediss://")):
        return "up" if (ping or redis_answers)(url) else "down"
    from config.celery_app import app

    try:
        with app.connection_for_write() as broker:
            broker.ensure_connection(max_retries=1, timeout=PING_TIMEOUT)
    except Exception:
        return "down"
    return "up"


def redis_answers(url: str) -> bool:
    """Does the Redis at `url` answer PING within PING_TIMEOUT (give or take one retry)?"""
    try:
        pinger = redis_clients.small_client(
            url, purpose="health", connections=2, timeout=PING_TIMEOUT
        )
        return bool(pinger.ping())
    except (redis.RedisError, OSError):
        return False


# --- under uvicorn: answered beside Django's request thread ---------------------------------

Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Any, Any], Awaitable[None]]
LIVE, READY = "/healthz/live", "/healthz"
NEVER_CACHED = b"max-age=0, no-cache, no-store, must-revalidate, private"


PATIENCE = 0.01  # seconds a probe waits for a fresh check before taking the last answer
MAX_AGE = 2.0  # seconds: the oldest answer a probe may get instead of waiting
REFRESH = 1.0  # seconds between the checks a process makes on its own while probed
KEEP_FRESH = 60.0  # seconds after the last probe that those checks go on


class HealthChecks:
    """`GET /healthz/live` and `GET /healthz` before the request cap and Django; anything
    else (another method, another path) goes on to `app`.

    Readiness runs on one thread of its own, so checks never pile up: a probe that arrives
    while a check runs shares it (each is bounded by PING_TIMEOUT and the database's
    connect timeout). That thread gives its database connection back after each check, to
    the pool or by closing it. The Host header is not checked: a load balancer probes by
    address, and neither answer names anything of the site.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="healthz")
        self.readiness = _Readiness(self.executor)

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        path = scope.get("path")
        if scope["type"] != "http" or scope.get("method") != "GET" or path not in (LIVE, READY):
            await self.app(scope, receive, send)
            return
        headers = [(b"content-type", b"application/json"), (b"cache-control", NEVER_CACHED)]
        if path == LIVE:
            report, status = ALIVE, 200
        else:
            report, status, age = await self.readiness.answer()
            if age:
                headers.append((b"x-checked-ms-ago", str(round(age * 1000)).encode()))
        body = json.dumps(report).encode()
        headers.append((b"content-length", str(len(body)).encode()))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


class _Readiness:
    """This process's readiness checks, run one at a time on `executor`, and the last
    answer with when its check ended (see the module's docstring)."""

    def __init__(self, executor: ThreadPoolExecutor) -> None:
        self.executor = executor
        self.loop: asyncio.AbstractEventLoop | None = None
        self.running: asyncio.Future[Answer] | None = None
        self.last: tuple[Answer, float] | None = None  # the answer, and when its check ended
        self.started = 0.0  # when the check under way started
        self.slow = False  # the last check took longer than PATIENCE, and found nothing down
        self.probed = 0.0  # when the last probe came
        self.refresher: asyncio.Task[None] | None = None

    async def answer(self) -> tuple[dict[str, str], int, float]:
        """A fresh check's report and status, with 0.0; or the last one's, with its age in
        seconds, when that answer is recent and the fresh check takes longer than PATIENCE
        (or the last one did: then without waiting for the fresh one at all)."""
        loop = asyncio.get_running_loop()
        if loop is not self.loop:  # a new event loop (tests): nothing of the old one is kept
            self.loop, self.running, self.last, self.refresher = loop, None, None, None
            self.slow = False
        self.probed = time.monotonic()
        if self.refresher is None:
            self.refresher = loop.create_task(self._keep_fresh())
        check = self._check()
        recent = self._recent()
        if recent is not None and self.slow:
            return recent  # the machine is busy: the fresh check would keep this probe waiting
        done, _ = await asyncio.wait({check}, timeout=PATIENCE)
        if not done and (recent := self._recent()) is not None:
            return recent
        report, status = await asyncio.shield(check)
        return report, status, 0.0

    def _recent(self) -> tuple[dict[str, str], int, float] | None:
        """The last answer with its age, if at most MAX_AGE old."""
        if self.last is None:
            return None
        (report, status), ended = self.last
        age = time.monotonic() - ended
        return (report, status, age) if age <= MAX_AGE else None

    def _check(self) -> asyncio.Future[Answer]:
        """The check under way, or a new one."""
        if self.running is None:
            assert self.loop is not None
            self.started = time.monotonic()
            self.running = self.loop.run_in_executor(self.executor, _readiness_apart)
            self.running.add_done_callback(self._ended)
        return self.running

    def _ended(self, check: asyncio.Future[Answer]) -> None:
        if check is self.running:
            self.running = None
        if not check.cancelled() and check.exception() is None:
            ended = time.monotonic()
            answer = check.result()
            self.last = (answer, ended)
            # Slow because the machine is busy, not because a dependency timed out: after
            # an outage the next probe waits (PATIENCE) for the news that it is over.
            self.slow = ended - self.started > PATIENCE and "down" not in answer[0].values()

    async def _keep_fresh(self) -> None:
        """Checks every REFRESH while probes come, so the last answer stays recent."""
        try:
            while time.monotonic() - self.probed < KEEP_FRESH:
                await asyncio.sleep(REFRESH)
                await asyncio.shield(self._check())
        finally:
            if self.refresher is asyncio.current_task():
                self.refresher = None


def _readiness_apart() -> Answer:
    """`readiness()` on the health thread, its database connection given back after."""
    try:
        return readiness()
    finally:
        connection.close()
