"""Redis down, in one process: the cache and the channel layer go without it, log it once
per outage, and use it again as soon as it is back, without a restart.

Each test runs its own throwaway redis-server (tests/realtime/live_redis.py) and stops it
for real: killed (connections refused), or paused with SIGSTOP (hung: connections accepted,
nothing answered, so every call would wait for its timeout). The production shape, with
pages, moves and sockets, is tests/realtime/test_redis_outage_live.py.
"""

from __future__ import annotations

import asyncio
import logging
import time

import pytest
from prometheus_client import REGISTRY

from config.cache import SharedRedisCache
from config.channel_layer import ChannelLayerUnavailable, PubSubChannelLayer
from tests.realtime.live_redis import needs_redis, throwaway_redis

pytestmark = [needs_redis]

TIMEOUT = 0.5  # seconds: REDIS_TIMEOUT for these clients
RETRY = 0.3  # seconds between tries while down (5 s in production: config.outage)
WAIT = 10.0  # a bound on every wait, never a timing being tested


@pytest.fixture(autouse=True)
def _fast_and_clean():
    """Replaces the suite-wide fixture: nothing here uses this process's own cache."""
    yield


def a_cache(redis) -> SharedRedisCache:
    cache = SharedRedisCache(
        f"redis://127.0.0.1:{redis.port}/1",
        {
            "OPTIONS": {
                "pool_class": "redis.BlockingConnectionPool",
                "max_connections": 4,
                "socket_connect_timeout": TIMEOUT,
                "socket_timeout": TIMEOUT,
            }
        },
    )
    cache._cache.outage.retry_seconds = RETRY
    return cache


def errors(kind: str) -> float:
    """cardhall_errors{kind} of this process (config.metrics)."""
    return REGISTRY.get_sample_value("cardhall_errors_total", {"kind": kind}) or 0.0


def outage_lines(caplog, what: str) -> list[str]:
    return [
        record.getMessage()
        for record in caplog.records
        if record.name == "cardhall.outage" and record.getMessage().startswith(what)
    ]


def until(predicate, seconds: float = WAIT) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def test_the_cache_goes_without_a_stopped_redis_logs_once_and_comes_back(caplog):
    caplog.set_level(logging.INFO, logger="cardhall.outage")
    with throwaway_redis() as redis:
        cache = a_cache(redis)
        cache.set("board", "<section>", 60)
        assert cache.get("board") == "<section>"

        redis.kill()
        missed = errors("cache_unavailable")
        started = time.monotonic()
        for _ in range(200):  # a burst of page views, each reading and writing the cache
            assert cache.get("board") is None
            assert cache.get("board", "fallback") == "fallback"
            assert cache.get_many(["board", "other"]) == {}
            cache.set("board", "<new>", 60)
            assert cache.add("rate", 1, 60) is False  # "not added": a rate limit fails open
            with pytest.raises(ValueError):
                cache.incr("rate")
            assert cache.delete("board") is False
            assert cache.has_key("board") is False
            assert cache.get_or_set("quests", lambda: "computed") == "computed"
        assert time.monotonic() - started < WAIT
        assert not cache.is_reachable
        assert errors("cache_unavailable") - missed == 200 * 11  # each call (get_or_set: 3)
        unreachable = outage_lines(caplog, "Redis cache at")
        assert len(unreachable) == 1 and "unreachable" in unreachable[0], unreachable

        redis.start()  # back, empty, on the same port: no restart of this process
        assert until(lambda: cache.add("back", "yes", 60) and cache.get("back") == "yes")
        assert cache.is_reachable
        lines = outage_lines(caplog, "Redis cache at")
        assert len(lines) == 2 and "reachable again" in lines[1], lines


def test_a_hung_redis_costs_one_timeout_per_try_not_one_per_call():
    with throwaway_redis() as redis:
        cache = a_cache(redis)
        cache._cache.outage.retry_seconds = 60  # no second try within this test
        cache.set("board", "<section>", 60)
        redis.pause()  # accepts connections, answers nothing
        started = time.monotonic()
        answers = [cache.get("board") for _ in range(100)]
        took = time.monotonic() - started
        redis.resume()
    assert answers == [None] * 100
    assert took < 2 * TIMEOUT + 1, f"100 reads of a hung Redis took {took:.1f} s"


def answers_again(cache: SharedRedisCache) -> bool:
    cache.get("probe")  # one read: after the retry interval, it tries Redis again
    return cache.is_reachable


def test_a_key_deleted_during_an_outage_is_deleted_when_redis_answers_again():
    """A session deleted at logout while Redis was hung must not come back with it."""
    with throwaway_redis() as redis:
        cache = a_cache(redis)
        cache.set("session:abc", {"_auth_user_id": "7"}, 600)
        cache.set("session:other", {"_auth_user_id": "8"}, 600)
        redis.pause()  # keeps its data: the old session is still in there
        cache.delete("session:abc")  # logout: the database row goes, this is dropped
        cache.set("session:new", {"_auth_user_id": "9"}, 600)  # dropped as well
        redis.resume()
        assert until(lambda: answers_again(cache))
        assert cache.get("session:abc") is None  # not the logged-out session
        assert cache.get("session:new") is None  # a miss: read from the database
        assert cache.get("session:other") == {"_auth_user_id": "8"}  # the rest is kept


def test_presence_is_unknown_while_the_cache_is_down_and_until_heartbeats_are_back(
    settings, monkeypatch
):
    """Pushes go to everyone while presence cannot be read, and for one heartbeat period
    after: the entries open pages wrote during the outage were dropped."""
    from django.core.cache import cache

    from games import presence

    monkeypatch.setattr(presence, "PRESENCE_REFRESH", 1.0)
    looking = lambda: presence.looking(match_id=1, user_ids=[7, 8])  # noqa: E731
    with throwaway_redis() as redis:
        settings.CACHES = {
            "default": {
                "BACKEND": "config.cache.SharedRedisCache",
                "LOCATION": f"redis://127.0.0.1:{redis.port}/1",
                "OPTIONS": {"socket_connect_timeout": TIMEOUT, "socket_timeout": TIMEOUT},
            }
        }
        cache._cache.outage.retry_seconds = RETRY
        presence.presence_touch(user_id=7, match_id=1, channel="page-a")
        assert looking() == presence.Looking(
            frozenset({7}), False, channels={7: frozenset({"page-a"})}
        )

        redis.kill()
        assert looking().is_unknown  # everyone is pushed to
        redis.start()  # empty: page-a's entry is gone
        assert until(lambda: answers_again(cache))
        assert looking().is_unknown  # page-a has not beaten since
        presence.presence_touch(user_id=7, match_id=1, channel="page-a")  # its heartbeat
        time.sleep(1.0)
        assert looking() == presence.Looking(
            frozenset({7}), False, channels={7: frozenset({"page-a"})}
        )


def a_layer(redis) -> PubSubChannelLayer:
    layer = PubSubChannelLayer(
        hosts=[
            {
                "address": redis.url,
                "socket_timeout": None,
                "socket_connect_timeout": TIMEOUT,
                "max_connections": 4,
                "pool_timeout": TIMEOUT,
            }
        ],
        timeout=TIMEOUT,
        group_timeout=TIMEOUT,
    )
    layer.outage.retry_seconds = RETRY
    return layer


@pytest.mark.asyncio
async def test_pushes_go_without_a_stopped_redis_and_resume_when_it_is_back(caplog):
    caplog.set_level(logging.INFO, logger="cardhall.outage")
    with throwaway_redis() as redis:
        layer = a_layer(redis)
        channel = await layer.new_channel()
        await layer.group_add("match-1-seat-0", channel)
        await layer.group_send("match-1-seat-0", {"type": "board.push", "html": "one"})
        assert (await asyncio.wait_for(layer.receive(channel), WAIT))["html"] == "one"

        waiting = asyncio.ensure_future(layer.receive(channel))  # a socket's receive loop
        redis.kill()
        with pytest.raises(ChannelLayerUnavailable):  # its socket closes with 1013
            await asyncio.wait_for(waiting, WAIT)
        lost = errors("push_failed")
        started = time.monotonic()
        for _ in range(100):  # a burst of moves: each push is dropped, none raises
            await layer.group_send("match-1-seat-0", {"type": "board.push", "html": "lost"})
            await layer.group_discard("match-1-seat-0", channel)
        assert time.monotonic() - started < WAIT
        assert errors("push_failed") - lost == 100  # each lost push counted (not discards)
        with pytest.raises(ChannelLayerUnavailable):  # a new socket cannot join: 1013
            await layer.group_add("match-1-seat-0", channel)
        lines = outage_lines(caplog, "Redis channel layer at")
        assert len(lines) == 1 and "unreachable" in lines[0], lines

        redis.start()  # a new connection: sockets subscribe again when they reconnect
        deadline = time.monotonic() + WAIT
        while True:
            try:
                channel = await layer.new_channel()
                await layer.group_add("match-1-seat-0", channel)
                break
            except ChannelLayerUnavailable:
                assert time.monotonic() < deadline, "the layer never used Redis again"
                await asyncio.sleep(0.05)
        await layer.group_send("match-1-seat-0", {"type": "board.push", "html": "two"})
        assert (await asyncio.wait_for(layer.receive(channel), WAIT))["html"] == "two"
        lines = outage_lines(caplog, "Redis channel layer at")
        assert len(lines) == 2 and "reachable again" in lines[1], lines
        await layer.flush()


@pytest.mark.asyncio
async def test_a_push_to_a_hung_redis_waits_one_timeout_then_none():
    with throwaway_redis() as redis:
        layer = a_layer(redis)
        layer.outage.retry_seconds = 60
        await layer.group_send("match-1-watch", {"type": "board.push", "html": "warm"})
        redis.pause()
        started = time.monotonic()
        for _ in range(50):
            await layer.group_send("match-1-watch", {"type": "board.push", "html": "lost"})
        took = time.monotonic() - started
        redis.resume()
    assert took < 2 * TIMEOUT + 1, f"50 pushes to a hung Redis took {took:.1f} s"


def test_incr_counts_an_existing_key_in_one_round_trip_and_never_creates_one():
    """`incr` as Django means it (a missing key is an error, and is not created without its
    timeout), answered by one script call rather than EXISTS then INCRBY."""
    with throwaway_redis() as redis:
        cache = a_cache(redis)
        with pytest.raises(ValueError, match="not found"):
            cache.incr("counter")
        assert cache.get("counter") is None  # not created by the failed incr
        assert cache.add("counter", 1, 60) is True
        assert cache.incr("counter") == 2
        assert cache.incr("counter", 5) == 7
        assert cache.get("counter") == 7
        client = cache._cache.get_client("counter", write=True)
        assert 0 < client.ttl(cache.make_and_validate_key("counter")) <= 60
        stats = client.info("commandstats")
        # Three increments, three EXISTS, each asked inside the script (EVALSHA), none alone.
        assert stats["cmdstat_exists"]["calls"] == 3
        assert stats["cmdstat_evalsha"]["calls"] - stats["cmdstat_evalsha"]["failed_calls"] == 3


def test_set_many_sets_each_key_with_its_timeout_in_one_round_trip_without_a_transaction():
    """What Django's `set_many` writes (each value readable, each with the timeout; 0
    deletes, None never expires), as one `SET ... EX` per key: no MULTI, MSET or EXPIRE."""
    with throwaway_redis() as redis:
        cache = a_cache(redis)
        cache.set("gone", "old", 60)
        client = cache._cache.get_client(write=True)
        client.config_resetstat()
        cache.set_many({"a": "<section>", "b": {"n": 2}}, 60)
        assert cache.get_many(["a", "b"]) == {"a": "<section>", "b": {"n": 2}}
        for key in ("a", "b"):
            assert 0 < client.ttl(cache.make_and_validate_key(key)) <= 60
        stats = client.info("commandstats")
        assert stats["cmdstat_set"]["calls"] == 2
        assert not {"cmdstat_multi", "cmdstat_mset", "cmdstat_expire"} & set(stats)
        cache.set_many({"gone": "new"}, 0)
        assert cache.get("gone") is None
        cache.set_many({"kept": 1}, None)
        assert client.ttl(cache.make_and_validate_key("kept")) == -1
        assert cache.get("kept") == 1
