"""How the Bot API's streams wait for pushes, on the Redis channel layer (a throwaway
redis-server): a stream idle across many keep-alives still hears the next push, and one
whose process lost Redis ends (its client reconnects) instead of failing or spinning.
Two long runs (hundreds of keep-alives and resyncs, pushes at seeded random moments,
streams coming and going) check that nothing is lost, nothing ends, and the connections
to Redis do not grow with time: the bug of a wait that gave up its subscription showed
only after a stream had idled for two keep-alives.

The whole streams, over HTTP against a live server, are tests/botapi/test_streams_live.py.
"""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from channels.layers import get_channel_layer
from django.test import override_settings

from botapi import feeds
from config.channel_layer import ChannelLayerUnavailable
from tests.realtime.live_redis import needs_redis, throwaway_redis

pytestmark = [needs_redis]

KEEPALIVE = 0.05  # seconds: many pass in each test
WAIT = 10.0  # a bound on every wait, never a timing being tested


@pytest.fixture(autouse=True)
def _fast_and_clean():
    """Replaces the suite-wide fixture: nothing here uses this process's own cache."""
    yield


def layers_on(redis) -> dict:
    host = {"address": redis.url, "socket_timeout": None, "max_connections": 4}
    backend = "config.channel_layer.PubSubChannelLayer"
    return {"default": {"BACKEND": backend, "CONFIG": {"hosts": [host], "prefix": "test."}}}


@pytest.mark.asyncio
async def test_a_stream_idle_across_keep_alives_still_hears_the_next_push():
    """A wait that times out does not give up the subscription (cancelling the receive
    would)."""
    with throwaway_redis() as redis, override_settings(CHANNEL_LAYERS=layers_on(redis)):
        pushes = feeds.Pushes(["user-7"])
        try:
            await pushes.subscribe()
            for _tick in range(5):
                await asyncio.wait_for(pushes.wait(KEEPALIVE), WAIT)  # the time passes
            assert pushes.receiving is not None and not pushes.receiving.done()
            await pushes.layer.group_send("user-7", {"type": "events.changed"})
            await asyncio.wait_for(pushes.wait(WAIT), WAIT)
            assert pushes.receiving is None  # the push answered it: read again
            await pushes.layer.group_send("user-7", {"type": "events.changed"})
            async with asyncio.timeout(WAIT):  # the next one is heard too
                while True:
                    await pushes.wait(KEEPALIVE)
                    if pushes.receiving is None:
                        break
        finally:
            await pushes.close()


@pytest.mark.asyncio
async def test_a_stream_whose_process_lost_redis_hears_so():
    with throwaway_redis() as redis, override_settings(CHANNEL_LAYERS=layers_on(redis)):
        pushes = feeds.Pushes(["user-7"])
        await pushes.subscribe()
        await asyncio.wait_for(pushes.wait(KEEPALIVE), WAIT)
        redis.kill()
        with pytest.raises(ChannelLayerUnavailable):
            async with asyncio.timeout(WAIT):
                while True:
                    await pushes.wait(KEEPALIVE)
        await pushes.close()


@pytest.mark.asyncio
async def test_a_feed_whose_process_lost_redis_ends_its_streams_once(caplog):
    """Every stream of the feed gets its end (None) and the feed stops: no read after
    that, no traceback (the clients reconnect, and subscribe again)."""
    reads: list[str | None] = []

    def read(known: str | None) -> tuple[str | None, bool, dict]:
        reads.append(known)
        return "v1", False, {"ply": 1}

    with throwaway_redis() as redis, override_settings(CHANNEL_LAYERS=layers_on(redis)):
        feed = feeds.feed_for(("test", redis.port), "match-9-seat-0", read)
        queue = feed.join()
        first = await asyncio.wait_for(queue.get(), WAIT)
        assert first == feeds.line({"ply": 1})
        redis.kill()
        async with asyncio.timeout(WAIT):
            while (await queue.get()) is not None:
                pass
        await asyncio.wait_for(feed.task, WAIT)
        read_count = len(reads)
        await asyncio.sleep(0.2)
        assert len(reads) == read_count <= 3
        assert feed.is_over
        assert "Traceback" not in caplog.text
        assert any("ends" in record.getMessage() for record in caplog.records)


@pytest.mark.asyncio
async def test_a_long_lived_stream_hears_every_push_across_hundreds_of_keep_alives():
    """60 pushes, each after 0 to 6 idle keep-alives (seeded), each heard before the next
    is sent; then the connections to Redis are the ones there were after the first."""
    rng = random.Random(14)
    with throwaway_redis() as redis, override_settings(CHANNEL_LAYERS=layers_on(redis)):
        pushes = feeds.Pushes(["user-7"])
        try:
            await pushes.subscribe()
            idled = 0
            for push in range(60):
                for _tick in range(rng.randrange(7)):
                    await asyncio.wait_for(pushes.wait(KEEPALIVE), WAIT)
                    idled += 1
                await pushes.layer.group_send("user-7", {"type": "events.changed"})
                async with asyncio.timeout(WAIT):  # heard, across as many waits as it takes
                    while True:
                        await pushes.wait(KEEPALIVE)
                        if pushes.receiving is None:
                            break
                if push == 0:
                    clients = redis.clients_by_db()
            assert idled > 150
            assert redis.clients_by_db() == clients
        finally:
            await pushes.close()


@pytest.mark.asyncio
async def test_a_feed_followed_for_hundreds_of_resyncs_by_streams_coming_and_going(caplog):
    """A match feed resyncing every keep-alive while 40 moves are pushed at seeded random
    moments and streams join and leave: every stream sees every version from the one it
    joined at, in order and once each; the feed never ends its streams; no warning; the
    connections to Redis do not grow."""
    rng = random.Random(20)
    version = 0

    def read(known: str | None) -> tuple[str | None, bool, dict | None]:
        current = str(version)
        return current, False, ({"v": version} if known != current else None)

    async def seen_up_to(queue: asyncio.Queue, seen: list[int], target: int) -> None:
        while not seen or seen[-1] < target:
            item = await queue.get()
            assert item is not None, "the feed ended its streams"
            seen.append(json.loads(item)["v"])

    with (
        throwaway_redis() as redis,
        override_settings(CHANNEL_LAYERS=layers_on(redis), BOTAPI_STREAM_RESYNC=KEEPALIVE),
    ):
        feed = feeds.feed_for(("soak", redis.port), "match-9-seat-0", read)
        streams: dict[asyncio.Queue, list[int]] = {feed.join(): []}
        try:
            for move in range(1, 41):
                await asyncio.sleep(KEEPALIVE * rng.randrange(7))
                if rng.random() < 0.3:
                    streams[feed.join()] = []
                if len(streams) > 1 and rng.random() < 0.2:
                    leaving = rng.choice(list(streams))
                    feed.leave(leaving)
                    del streams[leaving]
                version = move
                await get_channel_layer().group_send("match-9-seat-0", {"type": "match.changed"})
                for queue, seen in streams.items():
                    await asyncio.wait_for(seen_up_to(queue, seen, move), WAIT)
                if move == 1:
                    clients = redis.clients_by_db()
            for seen in streams.values():
                assert seen == sorted(set(seen)), seen  # in order, once each
                assert seen[-1] == 40 and seen == list(range(seen[0], 41)), seen
            assert not feed.is_over
            assert redis.clients_by_db() == clients
        finally:
            for queue in list(streams):
                feed.leave(queue)
            await asyncio.wait_for(feed.task, WAIT)
    assert not [record for record in caplog.records if record.levelname in ("WARNING", "ERROR")]
