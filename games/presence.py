"""Who is looking at which match right now: open match pages, kept in the cache.

The match socket (games.consumers) calls `opened` on connect and `closed` on disconnect:
a seated player's page under that player, any other page (signed in or not) under the
match's spectators. Reminders read `is_present`; pushes read `looking`, so a board nobody
has open is never rendered.
While a socket stays open, its entry is refreshed every PRESENCE_REFRESH seconds, by one
heartbeat per event loop (a worker process) for all the pages it holds: one thread hop and
two cache round trips (read them all, write them all) per beat, however many sockets are
open, where each socket had a task, a hop and a read-modify-write of its own (4,000 idle
sockets opened in a few seconds beat in bursts of hundreds a second; docs/benchmarks.md,
seventeenth pass). An entry not refreshed for PRESENCE_TTL seconds no longer counts (a
server that died, a socket that vanished without a close). One cache key per
(user, match) holds each open page's channel name and when it was last seen, so a second
tab closing does not hide the first. The read-modify-write is not atomic: two tabs opening
in the same instant may lose one entry until the next heartbeat (a reminder skipped or sent
once too often, never an error).

A program's stream (the Bot API) records itself too, under a channel name made by
`stream_channel`: its player counts as present (no reminder), but it has no page to push a
board to, so `looking` leaves it out and no board is rendered for it.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from asgiref.sync import sync_to_async
from django.core.cache import cache

from config.after_response import request_memo

logger = logging.getLogger(__name__)

PRESENCE_TTL = 90  # seconds an entry counts without a refresh
PRESENCE_REFRESH = 30  # the heartbeat of an open socket
KEYS_PER_ROUND_TRIP = 500  # a heartbeat's reads and writes, in slices of this many keys


STREAM = "stream:"  # the channel names of streams, which show no board
_LOOKED = "games.presence.looking"  # request_memo's key, with the match's id: what was read


def stream_channel(name: str) -> str:
    """The presence channel of a stream named `name` (present, but not a page)."""
    return f"{STREAM}{name}"


def _key(user_id: int | None, match_id: int) -> str:
    """A player's open pages of a match; `None`: the spectators' pages (anyone not seated)."""
    who = "watch" if user_id is None else user_id
    return f"inbox:presence:{who}:{match_id}"


def _live(entries: dict[str, float], now: float) -> dict[str, float]:
    return {channel: seen for channel, seen in entries.items() if now - seen < PRESENCE_TTL}


def _has_page(channels: Iterable[str]) -> bool:
    """Is one of these live channels a page's (not a stream's)?"""
    return any(not channel.startswith(STREAM) for channel in channels)


def presence_touch(*, user_id: int | None, match_id: int, channel: str) -> None:
    """One open page is there now (its socket connected, or a stream's refresh)."""
    _touch([(user_id, match_id, channel)])


def presence_touch_many(pages: Iterable[tuple[int | None, int, str]]) -> None:
    """Many open pages are there now: a worker's heartbeat (`Heartbeat`)."""
    _touch(pages)


def _touch(pages: Iterable[tuple[int | None, int, str]]) -> None:
    """Record that these pages, each (user_id, match_id, channel), are there now, and drop
    their keys' entries no longer refreshed: the entries read in one round trip and written
    in another (per slice of keys)."""
    channels_by_key: dict[str, list[str]] = {}
    for user_id, match_id, channel in pages:
        channels_by_key.setdefault(_key(user_id, match_id), []).append(channel)
    keys = iter(channels_by_key)
    while part := list(itertools.islice(keys, KEYS_PER_ROUND_TRIP)):
        found = cache.get_many(part)
        now = time.time()
        entries = {}
        for key in part:
            live = _live(found.get(key) or {}, now)
            live.update(dict.fromkeys(channels_by_key[key], now))
            entries[key] = live
        cache.set_many(entries, PRESENCE_TTL)


def presence_leave(*, user_id: int | None, match_id: int, channel: str) -> None:
    entries = _live(cache.get(_key(user_id, match_id)) or {}, time.time())
    entries.pop(channel, None)
    if entries:
        cache.set(_key(user_id, match_id), entries, PRESENCE_TTL)
    else:
        cache.delete(_key(user_id, match_id))


def is_present(*, user_id: int, match_id: int) -> bool:
    """Has this player the match open right now (a page, or a program's stream)?

    Within a request, what `looking` read for the match answers it without another round
    trip: after a move, the pushes (which read `looking`) run before the reminders (which
    ask this), a few milliseconds apart, in the same request (`request_memo`)."""
    memo = request_memo()
    seen = memo.get((_LOOKED, match_id)) if memo is not None else None
    if seen is not None and user_id in seen[0]:
        return user_id in seen[1].channels
    return bool(_live(cache.get(_key(user_id, match_id)) or {}, time.time()))


@dataclass(frozen=True)
class Looking:
    """Who has a match open right now: which of its players, and whether any spectator."""

    user_ids: frozenset[int]  # in a page
    has_spectators: bool  # in a page
    is_unknown: bool = False  # the cache could not be read: assume everyone
    streaming_ids: frozenset[int] = frozenset()  # players present by a stream only
    has_spectator_streams: bool = False  # spectators present by a stream only
    # user -> the channels of every open page and stream of theirs (players present only)
    channels: dict[int, frozenset[str]] = field(default_factory=dict)


def looking(*, match_id: int, user_ids: list[int]) -> Looking:
    """Which of `user_ids` (the seated players) have the match open in a page, and whether
    anyone watches it in a page as a spectator: one cache round trip. Streams count apart
    (`streaming_ids`, `has_spectator_streams`): nobody would see a board pushed to them,
    they only need to hear that something changed. `channels`: each present player's pages'
    and streams' channels."""
    keys = {_key(user_id, match_id): user_id for user_id in user_ids}
    watch = _key(None, match_id)
    try:
        entries = cache.get_many([*keys, watch])
    except Exception:
        return Looking(frozenset(), False, is_unknown=True)
    if not getattr(cache, "is_reachable_for", lambda seconds: True)(PRESENCE_REFRESH):
        return Looking(frozenset(), False, is_unknown=True)  # Redis down, or heartbeats lost
    now = time.time()
    live = {user_id: frozenset(_live(entries.get(key) or {}, now)) for key, user_id in keys.items()}
    anyone = frozenset(user_id for user_id, channels in live.items() if channels)
    with_page = frozenset(user_id for user_id in anyone if _has_page(live[user_id]))
    watching = _live(entries.get(watch) or {}, now)
    has_spectators = _has_page(watching)
    seen = Looking(
        with_page,
        has_spectators,
        streaming_ids=anyone - with_page,
        has_spectator_streams=bool(watching) and not has_spectators,
        channels={user_id: live[user_id] for user_id in anyone},
    )
    memo = request_memo()
    if memo is not None:  # for `is_present`, later in the same request
        memo[(_LOOKED, match_id)] = (frozenset(user_ids), seen)
    return seen


class Presence:
    """One open match page: recorded on `opened`, refreshed while open (by its event loop's
    `Heartbeat`), gone on `close`."""

    def __init__(self, *, user_id: int | None, match_id: int, channel: str) -> None:
        self.user_id, self.match_id, self.channel = user_id, match_id, channel

    async def close(self) -> None:
        Heartbeat.of_this_loop().discard(self)
        await sync_to_async(presence_leave)(
            user_id=self.user_id, match_id=self.match_id, channel=self.channel
        )


class Heartbeat:
    """The open pages of one event loop, refreshed together every PRESENCE_REFRESH seconds
    by one task, which runs while the loop holds a page."""

    _of_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Heartbeat] = (
        weakref.WeakKeyDictionary()
    )

    def __init__(self) -> None:
        self.pages: set[Presence] = set()
        self.task: asyncio.Task[None] | None = None

    @classmethod
    def of_this_loop(cls) -> Heartbeat:
        loop = asyncio.get_running_loop()
        heartbeat = cls._of_loop.get(loop)
        if heartbeat is None:
            heartbeat = cls._of_loop[loop] = cls()
        return heartbeat

    def add(self, page: Presence) -> None:
        self.pages.add(page)
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self._beat())

    def discard(self, page: Presence) -> None:
        self.pages.discard(page)
        if not self.pages and self.task is not None:
            self.task.cancel()
            self.task = None

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(PRESENCE_REFRESH)
            pages = [(page.user_id, page.match_id, page.channel) for page in self.pages]
            try:
                await sync_to_async(presence_touch_many)(pages)
            except Exception:  # the cache is down: the next beat tries again
                logger.warning("presence heartbeat failed for %d pages", len(pages), exc_info=True)


async def opened(*, user: Any, match_id: int, channel: str, is_seated: bool) -> Presence:
    """A match page's socket connected: record who it is. A seated player is recorded as
    themself (reminders skip a player looking at the match); anyone else, signed in or
    not, as one of the match's spectators (their board is rendered only while one looks)."""
    user_id = user.pk if is_seated else None
    presence = Presence(user_id=user_id, match_id=match_id, channel=channel)
    await sync_to_async(presence_touch)(user_id=user_id, match_id=match_id, channel=channel)
    Heartbeat.of_this_loop().add(presence)
    return presence


async def closed(presence: Presence | None) -> None:
    if presence is not None:
        await presence.close()
