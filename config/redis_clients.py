"""Redis client settings the process's own clients share: the cache, the channel layer,
the health check's pings and the metrics scrape's queue lengths.

- `reconnect_once()` / `reconnect_once_async()`: a command that meets a connection
  error is sent once more on a fresh connection, at once. A pooled connection goes stale
  when Redis restarts (the server closed it while it sat idle); without the retry its
  first use after the restart fails, and the caller takes the restart for an outage
  still going on (config.outage: a lost push, then seconds without Redis). A timeout is
  never retried: a hung Redis costs one timeout, not two.
- `small_client(url, ...)`: a process-wide client of a few connections with short
  timeouts, one per URL and purpose, for the probes that must never open a connection
  per request or wait long (health pings, queue lengths).
"""

from __future__ import annotations

import threading

import redis
from redis.asyncio.retry import Retry as AsyncRetry
from redis.backoff import NoBackoff
from redis.retry import Retry

_clients: dict[tuple[str, str], redis.Redis] = {}
_clients_lock = threading.Lock()


def reconnect_once() -> Retry:
    """For a synchronous pool: one immediate retry after a connection error."""
    return Retry(NoBackoff(), 1, supported_errors=(redis.ConnectionError,))


def reconnect_once_async() -> AsyncRetry:
    """For an asyncio pool (the channel layer): one immediate retry after a connection
    error."""
    return AsyncRetry(NoBackoff(), 1, supported_errors=(redis.ConnectionError,))


def small_client(url: str, *, purpose: str, connections: int, timeout: float) -> redis.Redis:
    """This process's client for `purpose` at `url`: at most `connections` connections,
    `timeout` seconds to connect, to answer and to wait for a free connection, and one
    reconnect after a connection error (a Redis restarted since the last use answers)."""
    key = (purpose, url)
    with _clients_lock:
        client = _clients.get(key)
        if client is None:
            pool = redis.BlockingConnectionPool.from_url(
                url,
                max_connections=connections,
                timeout=timeout,
                socket_connect_timeout=timeout,
                socket_timeout=timeout,
                retry=reconnect_once(),
            )
            client = _clients[key] = redis.Redis(connection_pool=pool)
        return client
