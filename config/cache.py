"""The Redis cache backend, with one client and one bounded connection pool per process.

Django's cache handler is context-local: under ASGI every websocket consumer (each runs in
its own context) that reaches `django.core.cache` through `sync_to_async` gets a fresh
`RedisCache`, and Django's `RedisCache` builds a fresh client and connection pool for each
instance. Nothing closes them (`RedisCache.close` is a no-op, and `close_caches` runs only
at the end of an HTTP request), so every socket left a Redis connection behind: measured,
300 sockets opened and closed twice left 590 connections on the cache's database.

Here each `RedisCache` instance is still context-local (it is cheap), but they all share
one `RedisCacheClient`, and so one connection pool, per process per LOCATION and OPTIONS.
With `redis.BlockingConnectionPool` in OPTIONS the pool is bounded: a burst waits up to
`timeout` seconds for a free connection instead of opening more (or failing, as the
default pool does past `max_connections`). redis-py pools are thread-safe, and a forked
child (a Celery worker) resets an inherited pool on first use.
"""

from __future__ import annotations

import threading
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property

_clients: dict[tuple[tuple[str, ...], str], RedisCacheClient] = {}
_clients_lock = threading.Lock()


def shared_client(servers: list[str], options: dict[str, Any]) -> RedisCacheClient:
    """The process's one client for these servers and options (created on first use)."""
    key = (tuple(servers), repr(sorted(options.items())))
    with _clients_lock:
        client = _clients.get(key)
        if client is None:
            client = _clients[key] = RedisCacheClient(servers, **options)
        return client


class SharedRedisCache(RedisCache):
    """`RedisCache` whose client and connection pool are shared by the whole process."""

    @cached_property
    def _cache(self) -> RedisCacheClient:
        return shared_client(self._servers, self._options)
