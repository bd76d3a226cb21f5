"""Who is looking at which match right now: open match pages, kept in the cache.

The match socket (games.consumers) calls `opened` on connect and `closed` on disconnect.
While a socket stays open, a heartbeat in the consumer's own event loop refreshes its entry
every PRESENCE_REFRESH seconds; an entry not refreshed for PRESENCE_TTL seconds no longer
counts (a server that died, a socket that vanished without a close). One cache key per
(user, match) holds each open page's channel name and when it was last seen, so a second
tab closing does not hide the first. The read-modify-write is not atomic: two tabs opening
in the same instant may lose one entry until the next heartbeat (a reminder skipped or sent
once too often, never an error).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from asgiref.sync import sync_to_async
from django.core.cache import cache

PRESENCE_TTL = 90  # seconds an entry counts without a refresh
PRESENCE_REFRESH = 30  # the heartbeat of an open socket


def _key(user_id: int, match_id: int) -> str:
    return f"inbox:presence:{user_id}:{match_id}"


def _live(entries: dict[str, float], now: float) -> dict[str, float]:
    return {channel: seen for channel, seen in entries.items() if now - seen < PRESENCE_TTL}


def presence_touch(*, user_id: int, match_id: int, channel: str) -> None:
    now = time.time()
    entries = _live(cache.get(_key(user_id, match_id)) or {}, now)
    entries[channel] = now
    cache.set(_key(user_id, match_id), entries, PRESENCE_TTL)


def presence_leave(*, user_id: int, match_id: int, channel: str) -> None:
    entries = _live(cache.get(_key(user_id, match_id)) or {}, time.time())
    entries.pop(channel, None)
    if entries:
        cache.set(_key(user_id, match_id), entries, PRESENCE_TTL)
    else:
        cache.delete(_key(user_id, match_id))


def is_present(*, user_id: int, match_id: int) -> bool:
    """Has this player the match open in a page right now?"""
    return bool(_live(cache.get(_key(user_id, match_id)) or {}, time.time()))


class Presence:
    """One open match page: recorded on `opened`, refreshed while open, gone on `close`."""

    def __init__(self, *, user_id: int, match_id: int, channel: str) -> None:
        self.user_id, self.match_id, self.channel = user_id, match_id, channel
        self._heartbeat: asyncio.Task[None] | None = None

    async def _touch(self) -> None:
        await sync_to_async(presence_touch)(
            user_id=self.user_id, match_id=self.match_id, channel=self.channel
        )

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(PRESENCE_REFRESH)
            await self._touch()

    async def close(self) -> None:
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._heartbeat
        await sync_to_async(presence_leave)(
            user_id=self.user_id, match_id=self.match_id, channel=self.channel
        )


async def opened(*, user: Any, match_id: int, channel: str) -> Presence | None:
    """A match page's socket connected: record who it is (anonymous watchers: nobody)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    presence = Presence(user_id=user.pk, match_id=match_id, channel=channel)
    await presence._touch()
    presence._heartbeat = asyncio.ensure_future(presence._beat())
    return presence


async def closed(presence: Presence | None) -> None:
    if presence is not None:
        await presence.close()
