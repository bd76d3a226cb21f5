"""The channel layer on Redis pub/sub (config.channel_layer.PubSubChannelLayer), in one
process on a throwaway redis-server: what a group send reaches, what a full queue drops,
and the connections it holds whatever the number of sockets.

Outages are tests/realtime/test_redis_outage.py; the production shape (two servers, a
worker) is tests/realtime/test_scale_out.py.
"""

from __future__ import annotations

import asyncio

import pytest
from prometheus_client import REGISTRY

from config.channel_layer import _LOST, ChannelLayerUnavailable, PubSubChannelLayer
from tests.realtime.live_redis import needs_redis, throwaway_redis

pytestmark = [needs_redis]

WAIT = 10.0  # a bound on every wait, never a timing being tested


@pytest.fixture(autouse=True)
def _fast_and_clean():
    """Replaces the suite-wide fixture: nothing here uses this process's own cache."""
    yield


def a_layer(redis, **options) -> PubSubChannelLayer:
    host = {"address": redis.url, "socket_timeout": None, "max_connections": 4}
    return PubSubChannelLayer(hosts=[host], prefix="test.", **options)


def pushes_failed() -> float:
    return REGISTRY.get_sample_value("cardhall_errors_total", {"kind": "push_failed"}) or 0.0


async def nothing_for(layer: PubSubChannelLayer, channel: str, seconds: float = 0.3) -> bool:
    try:
        async with asyncio.timeout(seconds):
            await layer.receive(channel)
    except TimeoutError:
        return True
    return False


@pytest.mark.asyncio
async def test_a_group_send_reaches_each_socket_of_the_group_and_only_them():
    with throwaway_redis() as redis:
        layer = a_layer(redis)
        pages = [await layer.new_channel() for _ in range(3)]
        await layer.group_add("match-1-seat-0", pages[0])
        await layer.group_add("match-1-seat-0", pages[1])
        await layer.group_add("match-1-seat-1", pages[2])

        await layer.group_send("match-1-seat-0", {"type": "board.push", "html": "seat 0"})
        for page in pages[:2]:
            message = await asyncio.wait_for(layer.receive(page), WAIT)
            assert message == {"type": "board.push", "html": "seat 0"}

        await layer.send(pages[2], {"type": "line.push", "html": "to one page"})
        assert (await asyncio.wait_for(layer.receive(pages[2]), WAIT))["html"] == "to one page"

        await layer.group_discard("match-1-seat-0", pages[0])  # that page closed
        await layer.group_send("match-1-seat-0", {"type": "board.push", "html": "again"})
        assert (await asyncio.wait_for(layer.receive(pages[1]), WAIT))["html"] == "again"
        # (A receive given up is a socket closing: its channel goes with it.)
        assert await nothing_for(layer, pages[0])
        assert await nothing_for(layer, pages[2])  # nothing of seat 0's reached seat 1
        await layer.flush()


@pytest.mark.asyncio
async def test_a_socket_that_stops_reading_keeps_capacity_messages_and_the_rest_are_dropped():
    with throwaway_redis() as redis:
        layer = a_layer(redis, capacity=3)
        page = await layer.new_channel()
        await layer.group_add("match-1-watch", page)
        dropped = pushes_failed()
        for number in range(5):
            await layer.group_send("match-1-watch", {"type": "board.push", "html": str(number)})
        kept = [(await asyncio.wait_for(layer.receive(page), WAIT))["html"] for _ in range(3)]
        assert kept == ["0", "1", "2"]
        assert await nothing_for(layer, page)
        assert pushes_failed() - dropped == 2
        await layer.flush()


@pytest.mark.asyncio
async def test_a_loop_holds_two_connections_whatever_the_number_of_sockets():
    """One listens for every socket of the loop, one publishes: 200 sockets, each in its own
    group, then a send to each, hold 2 connections, as 1 socket does."""
    with throwaway_redis() as redis:
        layer = a_layer(redis)
        pages = []
        for number in range(200):
            page = await layer.new_channel()
            await layer.group_add(f"match-{number}-seat-0", page)
            pages.append(page)
        await asyncio.gather(
            *(layer.group_send(f"match-{n}-seat-0", {"type": "board.push"}) for n in range(200))
        )
        for page in pages:
            await asyncio.wait_for(layer.receive(page), WAIT)
        assert sum(redis.clients_by_db().values()) == 2
        await layer.flush()
        assert sum(redis.clients_by_db().values()) == 0


@pytest.mark.asyncio
async def test_a_lost_connection_reaches_every_socket_of_the_loop_full_or_waiting():
    """Redis goes away: a socket waiting for a push and a socket whose queue is full (it
    stopped reading) both hear of it and close with 1013; the full queue made room for the
    loss rather than dropping it."""
    with throwaway_redis() as redis:
        layer = a_layer(redis, capacity=3)
        waiting, stalled = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("match-1-watch", stalled)
        for number in range(3):
            await layer.group_send("match-1-watch", {"type": "board.push", "html": str(number)})
        queue = layer._get_layer().channels[stalled]
        async with asyncio.timeout(WAIT):
            while not queue.full():
                await asyncio.sleep(0.01)
        reader = asyncio.ensure_future(layer.receive(waiting))
        await asyncio.sleep(0.05)

        redis.stop()

        with pytest.raises(ChannelLayerUnavailable):
            await asyncio.wait_for(reader, WAIT)
        with pytest.raises(ChannelLayerUnavailable):
            await asyncio.wait_for(layer.receive(stalled), WAIT)
        assert queue.full() and list(queue._queue)[-1] is _LOST  # type: ignore[attr-defined]
        assert sum(item is _LOST for item in queue._queue) == 1  # type: ignore[attr-defined]
