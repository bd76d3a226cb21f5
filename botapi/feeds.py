"""One read per change for every open stream of a seat (docs/bot-api.md, "Streams").

A match stream's lines follow from its match and seat alone (`selectors.seat_snapshot_for`),
so the streams of one (match, seat) in one server process share a `Feed`: one subscription
to the seat's channel-layer group, one database read per change, one encoded line handed to
every stream's queue. A thousand streams on one match cost one read per seat per move in
each process, not a thousand.

A feed is started by its first stream and ends when its last one leaves or the match
ends. It runs in its own task, outside any request: its reads go to a worker thread and
return their database connection at once (`close_old_connections` before and after), so
neither a feed nor an idle stream holds a connection between two changes. Every RESYNC
seconds it checks the match's version (one small query) in case a push was lost. A stream
that joins a running feed gets the feed's last line at once, and a fresh read is asked for
(shared with anyone else joining meanwhile), so it never starts from a stale view.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import logging
from collections.abc import Callable, Hashable
from typing import Any

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import close_old_connections

from config.channel_layer import ChannelLayerUnavailable

logger = logging.getLogger(__name__)

# What a feed's read answers: (version, whether the match is over, the document or None
# when the version has not changed since `known`).
Read = Callable[[str | None], tuple[str | None, bool, Any]]

READS_AT_ONCE = 4  # reads of one process running at once (each holds a connection)
_feeds: dict[Hashable, Feed] = {}
_reads: dict[asyncio.AbstractEventLoop, asyncio.Semaphore] = {}


def resync_seconds() -> float:
    return float(getattr(settings, "BOTAPI_STREAM_RESYNC", 15.0))


def line(document: Any) -> bytes:
    return json.dumps(document, separators=(",", ":"), default=str).encode() + b"\n"


class Feed:
    """The streams of one (match, seat) in this process, fed by one reader task."""

    def __init__(self, key: Hashable, group: str, read: Read) -> None:
        self.key, self.group, self.read = key, group, read
        self.loop = asyncio.get_running_loop()
        self.queues: set[asyncio.Queue[bytes | None]] = set()
        self.version: str | None = None
        self.latest: bytes | None = None
        self.is_over = False
        self.wake = asyncio.Event()
        # A context of its own: not the first request's (its thread, its connections).
        self.task = self.loop.create_task(self._run(), context=contextvars.Context())

    def join(self) -> asyncio.Queue[bytes | None]:
        queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        if self.latest is not None:
            queue.put_nowait(self.latest)
        self.queues.add(queue)
        self.wake.set()  # a fresh read for the newcomer
        return queue

    def leave(self, queue: asyncio.Queue[bytes | None]) -> None:
        self.queues.discard(queue)
        if not self.queues:
            self._forget()
            self.wake.set()  # the reader sees nobody listens, and ends

    def _forget(self) -> None:
        if _feeds.get(self.key) is self:
            del _feeds[self.key]

    def _publish(self, item: bytes | None) -> None:
        for queue in self.queues:
            queue.put_nowait(item)

    async def _run(self) -> None:
        pushes = Pushes([self.group])
        try:
            await pushes.subscribe()
            while self.queues:
                self.wake.clear()
                version, is_over, document = await _read_closing(self.read, self.version)
                if document is not None:
                    self.version, self.latest = version, line(document)
                    self._publish(self.latest)
                if is_over:
                    self.is_over = True
                    return
                await pushes.wait(resync_seconds(), wake=self.wake)
        except ChannelLayerUnavailable as error:  # the streams end; their clients reconnect
            logger.warning("the stream feed %s ends: %s", self.key, error)
        except Exception:
            logger.exception("the stream feed %s failed", self.key)
        finally:
            self._forget()
            self.is_over = True
            self._publish(None)  # every stream ends: a client reconnects
            await pushes.close()


class Pushes:
    """The pushes to `groups` on a channel of their own, waited for across timeouts. One
    receive stays pending until a push answers it: cancelling it when a wait times out
    would give up the channel's subscription (config.channel_layer), and every later push
    would be lost. Without a channel layer there are no pushes: a wait is its timeout."""

    def __init__(self, groups: list[str]) -> None:
        self.layer = get_channel_layer()
        self.groups = groups
        self.channel = ""
        self.receiving: asyncio.Future[Any] | None = None

    async def subscribe(self) -> None:
        if self.layer is not None:
            self.channel = await self.layer.new_channel()
            for group in self.groups:
                await self.layer.group_add(group, self.channel)

    async def wait(self, timeout: float, *, wake: asyncio.Event | None = None) -> None:
        """Until a push arrives, `wake` is set, or `timeout` seconds pass. A lost listening
        connection raises ChannelLayerUnavailable."""
        waits: set[asyncio.Future[Any]] = set()
        if self.channel:
            if self.receiving is None:
                self.receiving = asyncio.ensure_future(self.layer.receive(self.channel))
            waits.add(self.receiving)
        waking = asyncio.ensure_future(wake.wait()) if wake is not None else None
        if waking is not None:
            waits.add(waking)
        try:
            if waits:
                await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
            else:
                await asyncio.sleep(timeout)
        finally:
            if waking is not None:
                waking.cancel()
        if self.receiving is not None and self.receiving.done():
            pushed, self.receiving = self.receiving, None
            pushed.result()  # a push, or the lost connection's error

    async def close(self) -> None:
        if self.receiving is not None:
            self.receiving.cancel()
        for group in self.groups if self.channel else []:
            with contextlib.suppress(Exception):
                await self.layer.group_discard(group, self.channel)


async def _read_closing(read: Read, known: str | None) -> tuple[str | None, bool, Any]:
    loop = asyncio.get_running_loop()
    semaphore = _reads.get(loop)
    if semaphore is None:
        semaphore = _reads[loop] = asyncio.Semaphore(READS_AT_ONCE)

    def run() -> tuple[str | None, bool, Any]:
        close_old_connections()
        try:
            return read(known)
        finally:
            close_old_connections()

    async with semaphore:
        return await sync_to_async(run, thread_sensitive=False)()


def feed_for(key: Hashable, group: str, read: Read) -> Feed:
    """This process's feed of `key` (started if there is none, or its loop is gone)."""
    feed = _feeds.get(key)
    if feed is None or feed.is_over or feed.loop is not asyncio.get_running_loop():
        feed = _feeds[key] = Feed(key, group, read)
    return feed


def open_feeds() -> int:
    return len(_feeds)
