"""The Redis channel layer: a bounded connection pool per event loop, and pushes that fail
soft when Redis does not answer.

Bounded: channels-redis keeps one connection pool per event loop (in a web process: the
server's loop, and the one loop games.notifications sends from). Its pool opens a
connection for every operation in flight and keeps it afterwards, up to `max_connections`,
past which it fails. So a burst of sockets opening or closing at once (each a group_add or
group_discard) left as many idle connections as the burst was wide: measured, 300 sockets
closed at once left 283 connections per server, up to 1,000 per loop allowed. Here the
pool is a `BlockingConnectionPool`: at most `max_connections` per loop, and a burst waits
(up to `pool_timeout` seconds) for a free connection instead of opening more. Receiving
holds one connection at a time per process (channels-redis's single BZPOPMIN loop), so a
pool of a few connections already serves thousands of sockets.

Fail soft: a push is a hint (pages poll, and re-fetch their board on every reconnect), so
while Redis is unreachable:
- `group_send`, `send` and `group_discard` give up after their timeout, or at once
  while the outage is known (`config.outage`: logged once, tried again every few
  seconds); the push is lost, the page catches up by polling;
- `group_add` and `receive` raise `ChannelLayerUnavailable`: a socket that cannot join its
  group, or whose receive loop lost Redis, would hear nothing, so it is closed with 1013
  ("try again later", `ClosesWhenLayerIsDown`). The page's htmx ws extension reconnects
  after a growing pause, and rejoins once Redis is back: pushes resume without a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import Awaitable, Callable
from typing import Any

import redis
from channels_redis.core import RedisChannelLayer
from redis import asyncio as aioredis

from config import redis_clients
from config.outage import Outage

# Redis unreachable, timing out, or not serving; the asyncio timeout is a TimeoutError,
# which is an OSError.
OUTAGE_ERRORS: tuple[type[BaseException], ...] = (
    redis.ConnectionError,
    redis.TimeoutError,
    redis.exceptions.ReadOnlyError,
    OSError,
)
TRY_AGAIN_LATER = 1013  # the websocket close code: the htmx ws extension reconnects later


class ChannelLayerUnavailable(Exception):
    """Redis, behind the channel layer, does not answer: a socket cannot be served."""


class BoundedRedisChannelLayer(RedisChannelLayer):
    """`RedisChannelLayer` whose per-loop pools are blocking and bounded, and which goes
    without Redis while Redis is unreachable.

    Each host is a dict with an `address` (a redis:// URL) and any connection options,
    plus `max_connections` and `pool_timeout` for the pool. `timeout` bounds each send
    (sent from a loop of their own, in a request's time); `group_timeout` each group_add
    and group_discard: they run on the server's loop, which a saturated process may hold
    up for a while, and a failed join closes the socket, so they are given the pool's wait
    on top (receiving waits for as long as it takes).
    """

    def __init__(
        self, *args: Any, timeout: float = 1.0, group_timeout: float = 6.0, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.timeout = timeout
        self.group_timeout = group_timeout
        where = ", ".join(str(host.get("address", "?")).rsplit("@", 1)[-1] for host in self.hosts)
        self.outage = Outage(f"Redis channel layer at {where.split('://', 1)[-1]}")

    def create_pool(self, index: int) -> aioredis.BlockingConnectionPool:
        host: dict[str, Any] = dict(self.hosts[index])
        address = host.pop("address")
        timeout = host.pop("pool_timeout", 5)
        host.setdefault("retry", redis_clients.reconnect_once_async())  # stale after a restart
        return aioredis.BlockingConnectionPool.from_url(address, timeout=timeout, **host)

    async def _soft(self, operation: Callable[[], Awaitable[Any]], *, is_push: bool) -> None:
        """Run `operation` within its timeout; an outage is logged once and swallowed (a
        lost push is counted: cardhall_errors{kind="push_failed"})."""
        if self.outage.should_skip():
            _count(is_push)
            return
        try:
            async with asyncio.timeout(self.timeout if is_push else self.group_timeout):
                await operation()
        except OUTAGE_ERRORS as error:
            self.outage.failed(error)
            _count(is_push)
            return
        self.outage.succeeded()

    async def send(self, channel: str, message: dict) -> None:
        send = functools.partial(RedisChannelLayer.send, self, channel, message)
        await self._soft(send, is_push=True)

    async def group_send(self, group: str, message: dict) -> None:
        send = functools.partial(RedisChannelLayer.group_send, self, group, message)
        await self._soft(send, is_push=True)

    async def group_discard(self, group: str, channel: str) -> None:
        # Left behind, the membership expires (group_expiry) and sends to it are dropped.
        discard = functools.partial(RedisChannelLayer.group_discard, self, group, channel)
        await self._soft(discard, is_push=False)

    async def group_add(self, group: str, channel: str) -> None:
        if self.outage.should_skip():
            raise ChannelLayerUnavailable(f"{self.outage.name} is unreachable")
        try:
            async with asyncio.timeout(self.group_timeout):
                await super().group_add(group, channel)
        except OUTAGE_ERRORS as error:
            self.outage.failed(error)
            raise ChannelLayerUnavailable(str(error)) from error
        self.outage.succeeded()

    async def receive(self, channel: str) -> dict:
        try:
            message = await super().receive(channel)
        except OUTAGE_ERRORS as error:
            self.outage.failed(error)
            raise ChannelLayerUnavailable(str(error)) from error
        self.outage.succeeded()
        return message


def _count(is_push: bool) -> None:
    if is_push:
        from config import metrics

        metrics.push_failed()


class ClosesWhenLayerIsDown:
    """For websocket consumers: a socket the channel layer cannot serve (it cannot join its
    group, or its receive loop lost Redis) is closed with 1013, "try again later", instead
    of crashing the consumer (a 1011 and a traceback per socket). The page reconnects
    after a pause and polls meanwhile."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            await super().__call__(scope, receive, send)  # type: ignore[misc]
        except ChannelLayerUnavailable:
            with contextlib.suppress(Exception):  # not accepted yet: the handshake is refused
                await send({"type": "websocket.close", "code": TRY_AGAIN_LATER})
            with contextlib.suppress(Exception):
                await self.disconnect(TRY_AGAIN_LATER)  # type: ignore[attr-defined]
