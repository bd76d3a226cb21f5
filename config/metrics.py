"""What the site measures for Prometheus (docs/operations.md, "Logs, metrics and alerts").

Recording is cheap by design: each observation is an in-memory (or, in multiprocess mode,
memory-mapped file) update in this process, never a query or a Redis round trip. What
needs a round trip (queue depth, which dependency answers) is read only when Prometheus
scrapes (config/scrape.py).

Multiprocess: uvicorn runs several worker processes and Celery others. With
PROMETHEUS_MULTIPROC_DIR set (before start, the same directory for every process of the
machine, emptied at deploy), each process writes its values to files there, and a scrape
of any web process adds them all up. Unset, each process counts for itself (development,
tests). Gauges count live processes only ("livesum"): a process that dies is forgotten.

Where it is recorded:
- HTTP responses, errors by kind and the move POST's latency: `HttpMetricsMiddleware`
  (early in MIDDLEWARE), and `overloaded()` for the 503s the concurrency cap answers before
  Django (config/overload.py);
- `services.move_submit`: `timed_move_submit`;
- push lag and failed pushes: games/notifications.py;
- open sockets: `SocketMetrics`, around the ASGI application (web/asgi.py);
- the connection pool: a sampler thread per web process (`PoolSampler`);
- tasks: Celery signals below (duration, failures, workers alive).
"""

from __future__ import annotations

import functools
import glob
import logging
import os
import re
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from celery import signals
from prometheus_client import Counter, Gauge, Histogram, multiprocess

logger = logging.getLogger(__name__)

MULTIPROC_DIR = os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")
if MULTIPROC_DIR:
    # A process reusing the pid of one that died must not start from its gauges. Before
    # any gauge below exists: this removes this pid's gauge files.
    multiprocess.mark_process_dead(os.getpid(), MULTIPROC_DIR)
POOL_SAMPLE_SECONDS = 5.0

# Seconds. Moves are aimed at well under 100 ms; the tail buckets show trouble.
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
TASK_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0)

HTTP_RESPONSES = Counter("cardhall_http_responses", "HTTP responses by status code.", ["status"])
ERRORS = Counter(
    "cardhall_errors",
    "Errors by kind: server_error (5xx but 503), overloaded (503), rate_limited (429), "
    "bad_request (400), task_failed, task_not_sent, push_failed, cache_unavailable.",
    ["kind"],
)
MOVE_REQUEST_SECONDS = Histogram(
    "cardhall_move_request_seconds",
    "The move POST, from the first middleware to the answer.",
    buckets=LATENCY_BUCKETS,
)
MOVE_SUBMIT_SECONDS = Histogram(
    "cardhall_move_submit_seconds",
    "services.move_submit, by outcome: committed, refused (a domain error), failed.",
    ["outcome"],
    buckets=LATENCY_BUCKETS,
)
PUSH_LAG_SECONDS = Histogram(
    "cardhall_push_lag_seconds",
    "From a change's commit to each of its pushes handed to the channel layer (the "
    "answer to the request that made it goes out in between).",
    buckets=LATENCY_BUCKETS,
)
OPEN_SOCKETS = Gauge(
    "cardhall_open_sockets", "Websockets open, by route.", ["route"], multiprocess_mode="livesum"
)
POOL_CONNECTIONS = Gauge(
    "cardhall_db_pool_connections",
    "The database pools' connections, by state: max (configured), open, idle, and "
    "requests waiting for one.",
    ["state"],
    multiprocess_mode="livesum",
)
POOL_REQUESTS = Counter(
    "cardhall_db_pool_requests",
    "Connections asked of the pools, by result: served, queued (had to wait), failed (timed out).",
    ["result"],
)
POOL_WAIT_SECONDS = Counter(
    "cardhall_db_pool_wait_seconds", "Time spent waiting for a pool connection."
)
TASK_SECONDS = Histogram(
    "cardhall_task_seconds", "Celery tasks run, by task.", ["task"], buckets=TASK_BUCKETS
)
CELERY_WORKERS = Gauge(
    "cardhall_celery_workers",
    "Celery workers alive on this machine, one per `celery worker` whatever its concurrency "
    "(sharing PROMETHEUS_MULTIPROC_DIR).",
    multiprocess_mode="livesum",
)

_UNCOUNTED_PATHS = ("/healthz", "/metrics")


def error_kind(status: int) -> str | None:
    if status == 400:
        return "bad_request"
    if status == 429:
        return "rate_limited"
    if status == 503:
        return "overloaded"
    if status >= 500:
        return "server_error"
    return None


def response_counted(status: int) -> None:
    counters = _response_counters.get(status)
    if counters is None:  # once per status and process: labels() costs a few microseconds
        kind = error_kind(status)
        counters = (HTTP_RESPONSES.labels(str(status)),) + ((ERRORS.labels(kind),) if kind else ())
        _response_counters[status] = counters
    for counter in counters:
        counter.inc()


_response_counters: dict[int, tuple[Any, ...]] = {}


def overloaded() -> None:
    """A 503 answered before Django (config.overload.ConcurrencyLimit)."""
    response_counted(503)


def push_failed() -> None:
    ERRORS.labels("push_failed").inc()


def push_sent(started: float) -> None:
    """A push handed to the channel layer; `started` is the perf_counter() of the change's
    commit."""
    PUSH_LAG_SECONDS.observe(time.perf_counter() - started)


class HttpMetricsMiddleware:
    """Counts every response by status and error kind, and times the move POST. Health
    checks and scrapes are not counted. Put it before anything that may answer."""

    def __init__(self, get_response: Callable[[Any], Any]) -> None:
        self.get_response = get_response
        PoolSampler.start_once()

    def __call__(self, request: Any) -> Any:
        started = time.perf_counter()
        response = self.get_response(request)
        if not request.path.startswith(_UNCOUNTED_PATHS):
            response_counted(response.status_code)
            route = request.resolver_match
            if request.method == "POST" and route and route.view_name == "games:move":
                MOVE_REQUEST_SECONDS.observe(time.perf_counter() - started)
        return response


F = TypeVar("F", bound=Callable[..., Any])
_submit_outcomes = {
    outcome: MOVE_SUBMIT_SECONDS.labels(outcome) for outcome in ("committed", "refused", "failed")
}


def timed_move_submit(refused: type[Exception]) -> Callable[[F], F]:
    """Times `services.move_submit`: committed, refused (a domain error: `refused`, which
    the games app names, so config imports no app) or failed."""

    def decorate(submit: F) -> F:
        @functools.wraps(submit)
        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            outcome = "failed"
            try:
                result = submit(*args, **kwargs)
                outcome = "committed"
                return result
            except refused:
                outcome = "refused"
                raise
            finally:
                _submit_outcomes[outcome].observe(time.perf_counter() - started)

        return timed  # type: ignore[return-value]

    return decorate


class SocketMetrics:
    """ASGI middleware around the application: counts each websocket open from its accept
    to the end of its connection (the consumer returns once the socket is closed, by
    either side, or lost). HTTP passes straight through."""

    def __init__(self, app: Callable[..., Any]) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        gauge = OPEN_SOCKETS.labels(socket_route(scope.get("path", "")))
        is_open = False

        async def counting_send(message: dict[str, Any]) -> None:
            nonlocal is_open
            if message["type"] == "websocket.accept" and not is_open:
                is_open = True
                gauge.inc()
            await send(message)

        try:
            await self.app(scope, receive, counting_send)
        finally:
            if is_open:
                gauge.dec()


def socket_route(path: str) -> str:
    if path.startswith("/ws/matches/"):
        return "match"
    if path.startswith("/ws/notifications/"):
        return "inbox"
    return "other"


class PoolSampler:
    """Copies this process's psycopg pool statistics into the pool metrics every few
    seconds, from a daemon thread: nothing on the request path."""

    _started = False
    _lock = threading.Lock()

    def __init__(self) -> None:
        self.last: dict[str, int] = {}

    @classmethod
    def start_once(cls) -> None:
        with cls._lock:
            if cls._started or not _pool_configured():
                return
            cls._started = True
        sampler = cls()
        threading.Thread(target=sampler.run, name="db-pool-metrics", daemon=True).start()

    def run(self) -> None:
        while True:
            try:
                self.sample()
            except Exception:  # never let a metric take anything down
                logger.warning("sampling the database pool failed", exc_info=True)
            time.sleep(POOL_SAMPLE_SECONDS)

    def sample(self) -> None:
        pool = _open_pool()
        if pool is None:
            return
        stats = pool.get_stats()
        POOL_CONNECTIONS.labels("max").set(stats.get("pool_max", 0))
        POOL_CONNECTIONS.labels("open").set(stats.get("pool_size", 0))
        POOL_CONNECTIONS.labels("idle").set(stats.get("pool_available", 0))
        POOL_CONNECTIONS.labels("waiting").set(stats.get("requests_waiting", 0))
        for result, key in (
            ("served", "requests_num"),
            ("queued", "requests_queued"),
            ("failed", "requests_errors"),
        ):
            POOL_REQUESTS.labels(result).inc(self._grown(key, stats))
        POOL_WAIT_SECONDS.inc(self._grown("requests_wait_ms", stats) / 1000)

    def _grown(self, key: str, stats: dict[str, int]) -> int:
        """How much a cumulative statistic of the pool grew since the last sample."""
        value = stats.get(key, 0)
        grown = max(value - self.last.get(key, 0), 0)
        self.last[key] = value
        return grown


def _pool_configured() -> bool:
    from django.conf import settings

    return bool(settings.DATABASES["default"].get("OPTIONS", {}).get("pool"))


def _open_pool() -> Any:
    """The default database's pool in this process, if it was opened (never opens one)."""
    from django.db import DEFAULT_DB_ALIAS, connections

    # Django keeps one pool per alias and process, class-wide; `connection.pool` would
    # open one as a side effect.
    wrapper = type(connections[DEFAULT_DB_ALIAS])
    return wrapper._connection_pools.get(DEFAULT_DB_ALIAS)  # type: ignore[attr-defined]  # pooling backends' only


# --- Celery tasks ------------------------------------------------------------------------

_task_started: dict[str, float] = {}


@signals.task_prerun.connect
def _task_started_at(task_id: str | None = None, **kwargs: Any) -> None:
    if task_id is not None:
        _task_started[task_id] = time.perf_counter()


@signals.task_postrun.connect
def _task_ran(task_id: str | None = None, task: Any = None, **kwargs: Any) -> None:
    started = _task_started.pop(task_id, None) if task_id is not None else None
    if started is not None and task is not None:
        TASK_SECONDS.labels(task.name).observe(time.perf_counter() - started)


@signals.task_failure.connect
def _task_failed(**kwargs: Any) -> None:
    ERRORS.labels("task_failed").inc()


@signals.worker_ready.connect
def _worker_up(**kwargs: Any) -> None:
    CELERY_WORKERS.set(1)


@signals.worker_shutdown.connect
def _worker_down(**kwargs: Any) -> None:
    CELERY_WORKERS.set(0)


# --- multiprocess bookkeeping --------------------------------------------------------------

_LIVE_GAUGE_FILE = re.compile(r"gauge_live\w+_(\d+)\.db$")


def forget_dead_processes() -> None:
    """Drop the live gauges of processes that are gone (a worker killed or restarted),
    so open sockets and pool connections count live processes only. Run at each scrape.
    Needs every process writing to the directory to be in this machine's process table."""
    if not MULTIPROC_DIR:
        return
    pids = set()
    for path in glob.glob(os.path.join(MULTIPROC_DIR, "gauge_live*_*.db")):
        found = _LIVE_GAUGE_FILE.search(path)
        if found:
            pids.add(int(found[1]))
    for pid in pids:
        if not _is_alive(pid):
            multiprocess.mark_process_dead(pid, MULTIPROC_DIR)


def _is_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    return True
