"""The Redis cache backend: one client and one bounded connection pool per process, and a
cache that fails soft when Redis does not answer.

Shared: Django's cache handler is context-local: under ASGI every websocket consumer (each
runs in its own context) that reaches `django.core.cache` through `sync_to_async` gets a
fresh `RedisCache`, and Django's `RedisCache` builds a fresh client and connection pool for
each instance. Nothing closes them (`RedisCache.close` is a no-op, and `close_caches` runs
only at the end of an HTTP request), so every socket left a Redis connection behind:
measured, 300 sockets opened and closed twice left 590 connections on the cache's
database. Here each `RedisCache` instance is still context-local (it is cheap), but they
all share one client, and so one connection pool, per process per LOCATION and OPTIONS.
With `redis.BlockingConnectionPool` in OPTIONS the pool is bounded: a burst waits up to
`timeout` seconds for a free connection instead of opening more (or failing, as the
default pool does past `max_connections`). redis-py pools are thread-safe, and a forked
child (a Celery worker) resets an inherited pool on first use.

Fail soft: everything in this cache can be rebuilt from the database (boards, positions),
lives a few seconds (presence), or is a convenience (rate limits fail open; sessions are
`cached_db`, read from the database when the cache misses). So while Redis is unreachable
the cache behaves as an empty cache that stores nothing: reads miss, writes are dropped,
`add` says "not added", `incr` says "no such key". It is logged once per outage
(`config.outage`), and while it lasts calls skip Redis at once instead of each waiting for
a connection; one call every few seconds tries again, so the cache is back in use as soon
as Redis is, without a restart.

What a dropped write leaves behind: a key this process failed to set or delete during the
outage may still hold its old value when Redis comes back (Redis was cut off, not
restarted, or restarted with its data). A session deleted at logout is the case that
matters: so those keys are remembered (up to `UNSURE_KEYS_MAX`) and deleted as soon as
Redis answers again, before anything else is read from it by this process.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar, cast

import redis
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.utils.functional import cached_property

from config.outage import Outage

logger = logging.getLogger(__name__)

T = TypeVar("T")

# Redis is unreachable, slow, or not serving (loading its data, or a replica after a
# failover refusing writes): the cache goes without it. Any other error is a bug and raises.
OUTAGE_ERRORS: tuple[type[BaseException], ...] = (
    redis.ConnectionError,  # includes BusyLoadingError and the pool's "no connection"
    redis.TimeoutError,
    redis.exceptions.ReadOnlyError,
    OSError,
)
UNSURE_KEYS_MAX = 10_000

# `incr` as Django's Redis cache means it (a missing key is an error, never created without
# its timeout) in one round trip.
INCR_EXISTING = """
if redis.call('EXISTS', KEYS[1]) == 1 then
  return redis.call('INCRBY', KEYS[1], ARGV[1])
end
return false
"""

_Base = RedisCacheClient  # the methods that talk to Redis
_clients: dict[tuple[tuple[str, ...], str], FailSoftRedisCacheClient] = {}
_clients_lock = threading.Lock()


class FailSoftRedisCacheClient(RedisCacheClient):
    """Django's Redis cache client, going without Redis while it is unreachable."""

    def __init__(self, servers: list[str], **options: Any) -> None:
        super().__init__(servers, **options)
        self.outage = Outage(f"Redis cache at {_where(servers)}", on_miss=_count_miss)
        self._unsure: set[str] = set()  # keys written or deleted while down: delete on return
        self._unsure_lock = threading.Lock()
        self._redis_clients: dict[int, redis.Redis] = {}
        self._incr_script: Any = None  # INCR_EXISTING, run by its SHA on any of our clients

    def get_client(self, key: Any = None, *, write: bool = False) -> redis.Redis:
        """One `redis.Redis` per connection pool, kept. Django builds a new one on every
        call, and building one fills its table of reply parsers (about 85 µs: some 20
        calls per move, measured as the largest single CPU cost in the move's profile).
        A `redis.Redis` on a pool is thread-safe: each command takes a pooled connection."""
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]  # private: no stub
        client = self._redis_clients.get(id(pool))
        if client is None:
            redis_class = self._client  # type: ignore[attr-defined]  # private: no stub
            client = self._redis_clients.setdefault(id(pool), redis_class(connection_pool=pool))
        return client

    def _soft(self, call: Callable[[], T], fallback: T, written: Iterable[Any] = ()) -> T:
        if self.outage.should_skip():
            self._remember(written)
            return fallback
        try:
            if self.outage.is_down:
                self._forget_unsure()
            result = call()
        except OUTAGE_ERRORS as error:
            self.outage.failed(error)
            self._remember(written)
            return fallback
        self.outage.succeeded()
        return result

    def _remember(self, keys: Iterable[Any]) -> None:
        with self._unsure_lock:
            for key in keys:
                if len(self._unsure) >= UNSURE_KEYS_MAX:
                    logger.warning(
                        "more than %s cache keys written during the outage: the rest may "
                        "hold old values until they expire",
                        UNSURE_KEYS_MAX,
                    )
                    return
                self._unsure.add(key)

    def _forget_unsure(self) -> None:
        """Delete the keys this process could not write while Redis was down (raises if it
        is still down: the keys are kept for the next try)."""
        with self._unsure_lock:
            keys = list(self._unsure)
        if keys:
            _Base.delete_many(self, keys)
            with self._unsure_lock:
                self._unsure.difference_update(keys)

    def add(self, key: Any, value: Any, timeout: Any) -> bool:
        return self._soft(lambda: _Base.add(self, key, value, timeout), False)

    def get(self, key: Any, default: Any) -> Any:
        return self._soft(lambda: _Base.get(self, key, default), default)

    def set(self, key: Any, value: Any, timeout: Any) -> None:
        self._soft(lambda: _Base.set(self, key, value, timeout), None, [key])

    def touch(self, key: Any, timeout: Any) -> bool:
        return self._soft(lambda: _Base.touch(self, key, timeout), False)

    def delete(self, key: Any) -> bool:
        return self._soft(lambda: _Base.delete(self, key), False, [key])

    def get_many(self, keys: Iterable[Any]) -> dict[Any, Any]:
        keys = list(keys)
        return self._soft(lambda: _Base.get_many(self, keys), {})

    def has_key(self, key: Any) -> bool:
        return self._soft(lambda: _Base.has_key(self, key), False)

    def incr(self, key: Any, delta: int) -> int:
        missing = object()
        result = self._soft(lambda: self._incr_existing(key, delta), missing)
        if result is missing:
            raise ValueError(f"Key '{key}' not found (the cache is unreachable)")
        if result is None:
            raise ValueError(f"Key '{key}' not found.")
        return cast(int, result)  # Redis's INCRBY answers the new value

    def count_in_windows(self, windows: list[tuple[Any, int]]) -> list[int] | None:
        """One more in each `(key, seconds)` counter, a missing one starting at 0 and living
        `seconds`: every count after it, in one round trip (the rate limits' two counters
        of a write). None while Redis is unreachable."""

        def count() -> list[int]:
            pipeline = self.get_client(write=True).pipeline(transaction=False)
            for key, seconds in windows:
                pipeline.set(key, 0, ex=seconds, nx=True)
                pipeline.incr(key)
            return [int(reply) for reply in pipeline.execute()[1::2]]

        return self._soft(count, None)

    def _incr_existing(self, key: Any, delta: int) -> int | None:
        """INCRBY `key` if it exists (else None), in one round trip: Django's client asks
        EXISTS first, and a rate-limited request increments two counters."""
        client = self.get_client(key, write=True)
        if self._incr_script is None:
            self._incr_script = client.register_script(INCR_EXISTING)
        return cast(int | None, self._incr_script(keys=[key], args=[delta], client=client))

    def set_many(self, data: Mapping[Any, Any], timeout: Any) -> None:
        self._soft(lambda: self._set_each(data, timeout), None, data)

    def _set_each(self, data: Mapping[Any, Any], timeout: Any) -> None:
        """Each key set with its timeout (`SET ... EX`), in one round trip. Django's client
        sends MULTI, MSET, an EXPIRE per key and EXEC: twice the commands, and a
        transaction the keys do not need (a reader may see one before the other)."""
        pipeline = self.get_client(write=True).pipeline(transaction=False)
        dumps = self._serializer.dumps  # type: ignore[attr-defined]  # private: no stub
        for key, value in data.items():
            if timeout == 0:  # as Django's `set`: a timeout of 0 deletes (None: never expires)
                pipeline.delete(key)
            else:
                pipeline.set(key, dumps(value), ex=timeout)
        pipeline.execute()

    def delete_many(self, keys: Iterable[Any]) -> None:
        keys = list(keys)
        self._soft(lambda: _Base.delete_many(self, keys), None, keys)

    def clear(self) -> bool:
        return self._soft(lambda: _Base.clear(self), False)


def _count_miss() -> None:
    from config import metrics

    metrics.ERRORS.labels("cache_unavailable").inc()


def _where(servers: list[str]) -> str:
    """host:port/db of the servers, without credentials, for the log."""
    shown = []
    for server in servers:
        tail = server.rsplit("@", 1)[-1]
        shown.append(tail.split("://", 1)[-1])
    return ", ".join(shown)


def shared_client(servers: list[str], options: dict[str, Any]) -> FailSoftRedisCacheClient:
    """The process's one client for these servers and options (created on first use)."""
    key = (tuple(servers), repr(sorted(options.items())))
    with _clients_lock:
        client = _clients.get(key)
        if client is None:
            client = _clients[key] = FailSoftRedisCacheClient(servers, **options)
        return client


class SharedRedisCache(RedisCache):
    """`RedisCache` whose client and connection pool are shared by the whole process, and
    which goes without Redis while Redis is unreachable."""

    @cached_property
    def _cache(self) -> FailSoftRedisCacheClient:
        return shared_client(self._servers, self._options)  # type: ignore[attr-defined]  # private

    def count_in_windows(
        self, windows: list[tuple[str, int]], version: int | None = None
    ) -> list[int] | None:
        """`FailSoftRedisCacheClient.count_in_windows` on this cache's keys."""
        keys = [(self.make_and_validate_key(key, version=version), s) for key, s in windows]
        return self._cache.count_in_windows(keys)

    @property
    def is_reachable(self) -> bool:
        """False while this process is going without Redis (its last call failed)."""
        return not self._cache.outage.is_down

    def is_reachable_for(self, seconds: float) -> bool:
        """Reachable, and for at least `seconds`: what this process wrote during an outage
        was dropped, so entries that are refreshed every `seconds` are whole again only
        that long after it (presence: every open page's heartbeat)."""
        return self._cache.outage.is_up_for(seconds)
