"""The Redis channel layer: Redis pub/sub, with bounded connections, and pushes that fail
soft when Redis does not answer.

Pub/sub (channels-redis's `RedisPubSubChannelLayer`, with the changes below): a group send
is one PUBLISH; each process subscribes, on one connection per event loop, to the groups
and channels of its own sockets, and hands what arrives to their queues. The layer it
replaced (channels-redis's core layer) kept each channel as a sorted set: a group send
read the group's members and ran a script per member, and every process polled its
channels with BZPOPMIN and a cleanup per message. Measured for a 20 KB board: 1.26 ms of
CPU per message there, 0.41 ms here (docs/benchmarks.md, ninth pass). Delivery is at most
once in both, and nothing is kept for a process that is not listening: a push is a hint.

Bounded: per event loop (in a web process: the server's loop, and the one loop
games.notifications sends from), one connection listens and one publishes (sends wait for
each other), from a `BlockingConnectionPool` of at most `max_connections`. A socket's
queue holds at most `capacity` messages; past that, new ones are dropped (counted).

Fail soft: a push is a hint (pages poll, and re-fetch their board on every reconnect), so
while Redis is unreachable:
- `group_send`, `send` and `group_discard` give up after their timeout, or at once
  while the outage is known (`config.outage`: logged once, tried again every few
  seconds); the push is lost, the page catches up by polling;
- `new_channel`, `group_add` and `receive` raise `ChannelLayerUnavailable`: a socket that
  cannot subscribe, or whose process lost its listening connection, would hear nothing,
  so it is closed with 1013 ("try again later", `ClosesWhenLayerIsDown`). The page's htmx
  ws extension reconnects after a growing pause, re-fetches its board and subscribes
  again once Redis is back: pushes resume without a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import redis
from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _wrap_close, decode_hosts
from redis import asyncio as aioredis

from config import redis_clients
from config.outage import Outage

logger = logging.getLogger(__name__)

# Redis unreachable, timing out, or not serving; the asyncio timeout is a TimeoutError,
# which is an OSError.
OUTAGE_ERRORS: tuple[type[BaseException], ...] = (
    redis.ConnectionError,
    redis.TimeoutError,
    redis.exceptions.ReadOnlyError,
    OSError,
)
TRY_AGAIN_LATER = 1013  # the websocket close code: the htmx ws extension reconnects later
LISTEN_SECONDS = 0.1  # the listening loop's wait for a message before it checks again


class ChannelLayerUnavailable(Exception):
    """Redis, behind the channel layer, does not answer: a socket cannot be served."""


_LOST = object()  # put in every queue of a loop whose listening connection failed


class PubSubChannelLayer(RedisPubSubChannelLayer):
    """`RedisPubSubChannelLayer` with bounded pools and queues, that goes without Redis
    while Redis is unreachable.

    Each host is a dict with an `address` (a redis:// URL) and any connection options,
    plus `max_connections` and `pool_timeout` for the pool. `timeout` bounds each send
    (sent from a loop of their own, in a request's time); `group_timeout` each
    subscription (new_channel, group_add, group_discard): they run on the server's loop,
    which a saturated process may hold up for a while, and a failed one closes the socket,
    so they are given the pool's wait on top. `capacity`: messages waiting per socket.
    """

    def __init__(
        self,
        hosts: list[Any] | None = None,
        *,
        prefix: str = "asgi",
        capacity: int = 100,
        timeout: float = 1.0,
        group_timeout: float = 6.0,
        **kwargs: Any,
    ) -> None:
        super().__init__(hosts=hosts, prefix=prefix, **kwargs)
        self.hosts = decode_hosts(hosts)  # read by the health check, from any thread
        self.capacity = capacity
        self.timeout = timeout
        self.group_timeout = group_timeout
        where = ", ".join(str(host.get("address", "?")).rsplit("@", 1)[-1] for host in self.hosts)
        self.outage = Outage(f"Redis channel layer at {where.split('://', 1)[-1]}")

    def _get_layer(self) -> _LoopLayer:
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = self._layers[loop] = _LoopLayer(
                hosts=self.hosts, prefix=self._kwargs["prefix"], channel_layer=self
            )
            _wrap_close(self, loop)
        return layer

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

    async def _or_unavailable(self, operation: Callable[[], Awaitable[Any]]) -> Any:
        """Run `operation` (a subscription) within `group_timeout`; Redis unreachable raises
        ChannelLayerUnavailable (the socket is closed with 1013)."""
        if self.outage.should_skip():
            raise ChannelLayerUnavailable(f"{self.outage.name} is unreachable")
        try:
            async with asyncio.timeout(self.group_timeout):
                result = await operation()
        except OUTAGE_ERRORS as error:
            self.outage.failed(error)
            raise ChannelLayerUnavailable(str(error)) from error
        self.outage.succeeded()
        return result

    async def send(self, channel: str, message: dict) -> None:
        await self._soft(lambda: self._get_layer().send(channel, message), is_push=True)

    async def group_send(self, group: str, message: dict) -> None:
        await self._soft(lambda: self._get_layer().group_send(group, message), is_push=True)

    async def group_discard(self, group: str, channel: str) -> None:
        await self._soft(lambda: self._get_layer().group_discard(group, channel), is_push=False)

    async def new_channel(self, prefix: str = "specific.") -> str:
        return await self._or_unavailable(lambda: self._get_layer().new_channel(prefix))

    async def group_add(self, group: str, channel: str) -> None:
        await self._or_unavailable(lambda: self._get_layer().group_add(group, channel))

    async def receive(self, channel: str) -> dict:
        return await self._get_layer().receive(channel)

    async def flush(self) -> None:
        await self._get_layer().flush()


class _LoopLayer(RedisPubSubLoopLayer):
    """One event loop's share of the layer: its sockets' queues and subscriptions."""

    channel_layer: PubSubChannelLayer
    channels: dict[str, asyncio.Queue]  # a socket's channel -> what arrived for it
    groups: dict[str, set[str]]  # a group's pub/sub channel -> its sockets' channels

    def __init__(self, *, hosts: list[dict], prefix: str, channel_layer: Any) -> None:
        super().__init__(hosts=hosts, prefix=prefix, channel_layer=channel_layer)
        self._shards = [_Shard(host, self) for host in hosts]

    async def _subscribe_to_channel(self, channel: str) -> None:
        self.channels[channel] = asyncio.Queue(maxsize=self.channel_layer.capacity)
        try:
            await self._get_shard(channel).subscribe(channel)
        except BaseException:
            self.channels.pop(channel, None)
            raise

    async def receive(self, channel: str) -> dict:
        """channels-redis's own, but a lost listening connection raises
        ChannelLayerUnavailable (the socket closes with 1013)."""
        queue = self.channels.get(channel)
        if queue is None:  # its subscription went with a lost connection
            raise ChannelLayerUnavailable(f"{self.channel_layer.outage.name}: {channel} lost")
        try:
            message = await queue.get()
        except (TimeoutError, asyncio.CancelledError, GeneratorExit):
            # The socket is closing (Channels cancels its receive): unsubscribe.
            if self.channels.get(channel) is queue:
                del self.channels[channel]
                with contextlib.suppress(Exception):
                    await self._get_shard(channel).unsubscribe(channel)
            raise
        if message is _LOST:
            raise ChannelLayerUnavailable(f"{self.channel_layer.outage.name}: connection lost")
        return self.channel_layer.deserialize(message)

    def deliver(self, name: str, data: bytes) -> None:
        """Put what arrived on `name` (a socket's channel or a group) in its queues."""
        if name in self.channels:
            names: Any = (name,)
        else:
            names = self.groups.get(name, ())
        for channel in names:
            queue = self.channels.get(channel)
            if queue is None:
                continue
            try:
                queue.put_nowait(data)
            except asyncio.QueueFull:  # a socket that stopped reading: drop, as core did
                _count(is_push=True)

    def lost(self) -> None:
        """The listening connection failed: every socket of this loop hears `_LOST` (and
        closes with 1013); their subscriptions are forgotten, to be made again."""
        for queue in self.channels.values():
            if queue.full():  # a full queue's reader must still find out: make room
                queue.get_nowait()
            queue.put_nowait(_LOST)
        self.channels = {}
        self.groups = {}


class _Shard(RedisSingleShardConnection):
    """One Redis server of a loop layer: a bounded pool, and a listening loop that reports
    a lost connection instead of retrying it forever."""

    channel_layer: _LoopLayer
    _redis: aioredis.Redis | None
    _pubsub: Any
    _subscribed_to: set[str]

    def _ensure_redis(self) -> None:
        if self._redis is None:
            host = dict(self.host)
            address = host.pop("address")
            timeout = host.pop("pool_timeout", 5)
            host.setdefault("retry", redis_clients.reconnect_once_async())
            pool = aioredis.BlockingConnectionPool.from_url(address, timeout=timeout, **host)
            client = self._redis = aioredis.Redis(connection_pool=pool)
            self._pubsub = client.pubsub()

    async def _do_receiving(self) -> None:
        layer = self.channel_layer
        while True:
            try:
                if self._pubsub is not None and self._pubsub.subscribed:
                    message = await self._pubsub.get_message(
                        ignore_subscribe_messages=True, timeout=LISTEN_SECONDS
                    )
                    if message is not None:
                        name = message["channel"]
                        name = name.decode() if isinstance(name, bytes) else name
                        layer.deliver(name, message["data"])
                else:
                    await asyncio.sleep(LISTEN_SECONDS)
            except OUTAGE_ERRORS as error:
                layer.channel_layer.outage.failed(error)
                await self._lose_connection()
                return
            except Exception:  # noqa: BLE001 - a bad message must not end the loop
                logger.exception("channel layer: a message could not be delivered")

    async def _lose_connection(self) -> None:
        """Forget the connections and subscriptions, and tell every socket of the loop
        (`_LoopLayer.lost`); the next subscription opens new ones. Under the lock, so no
        subscription is half made on the old connection."""
        async with self._lock:
            client, self._redis, self._pubsub = self._redis, None, None
            self._subscribed_to = set()
            self._receive_task = None  # this task, which ends now
            self.channel_layer.lost()
        if client is not None:
            with contextlib.suppress(Exception):
                await client.aclose(close_connection_pool=True)


def _count(is_push: bool) -> None:
    if is_push:
        from config import metrics

        metrics.push_failed()


class ClosesWhenLayerIsDown:
    """For websocket consumers: a socket the channel layer cannot serve (it cannot subscribe,
    or its process lost its listening connection) is closed with 1013, "try again later", instead
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
