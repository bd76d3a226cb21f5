"""How the Bot API's streams wait for pushes, on the Redis channel layer (a throwaway
redis-server): a stream idle across many keep-alives still hears the next push, and one
whose process lost Redis ends (its client reconnects) instead of failing or spinning.

The whole streams, over HTTP against a live server, are tests/botapi/test_streams_live.py.
"""

from __future__ import annotations

import asyncio

import pytest
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
