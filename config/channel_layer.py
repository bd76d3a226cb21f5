"""The Redis channel layer, with a bounded connection pool per event loop.

channels-redis keeps one connection pool per event loop (in a web process: the server's
loop, and the one loop games.notifications sends from). Its pool opens a connection for
every operation in flight and keeps it afterwards, up to `max_connections`, past which it
fails. So a burst of sockets opening or closing at once (each a group_add or
group_discard) left as many idle connections as the burst was wide: measured, 300 sockets
closed at once left 283 connections per server, up to 1,000 per loop allowed. Here the
pool is a `BlockingConnectionPool`: at most `max_connections` per loop, and a burst waits
(up to `pool_timeout` seconds) for a free connection instead of opening more. Receiving
holds one connection at a time per process (channels-redis's single BZPOPMIN loop), so a
pool of a few connections already serves thousands of sockets.
"""

from __future__ import annotations

from typing import Any

from channels_redis.core import RedisChannelLayer
from redis import asyncio as aioredis


class BoundedRedisChannelLayer(RedisChannelLayer):
    """`RedisChannelLayer` whose per-loop pools are blocking and bounded.

    Each host is a dict with an `address` (a redis:// URL) and any connection options,
    plus `max_connections` and `pool_timeout` for the pool.
    """

    def create_pool(self, index: int) -> aioredis.BlockingConnectionPool:
        host: dict[str, Any] = dict(self.hosts[index])
        address = host.pop("address")
        timeout = host.pop("pool_timeout", 5)
        return aioredis.BlockingConnectionPool.from_url(address, timeout=timeout, **host)
