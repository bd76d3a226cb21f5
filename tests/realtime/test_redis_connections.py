"""Redis connections are bounded by configuration, not by traffic.

The production shape (uvicorn, 2 workers, DEBUG=0) on a throwaway redis-server: 300 match
sockets (each match's two seats, signed in, and an anonymous spectator) are opened at once
and closed, twice, and the server's clients are counted per database. Before the fix each
socket left a cache connection behind (590 after two rounds) and each burst left the
channel layer's pool as wide as the burst (283).

Per worker process the configuration allows: the cache, one pool of
REDIS_CACHE_MAX_CONNECTIONS; the channel layer, one pool of REDIS_CHANNEL_MAX_CONNECTIONS
per event loop (the server's, and the one loop pushes are sent from); /healthz, at most
two connections per Redis URL it pings.
"""

from __future__ import annotations

import asyncio

import pytest

from tests.realtime.live_redis import (
    CACHE_DB,
    CHANNEL_DB,
    needs_redis,
    open_and_close,
    open_sockets,
    production_server,
    seed_match_sockets,
    throwaway_redis,
)

pytestmark = [needs_redis]

WORKERS = 2
CACHE_MAX, CHANNEL_MAX, PINGS = 6, 8, 2
ROUNDS = 2
MATCHES = 100  # 300 sockets


@pytest.fixture(autouse=True)
def _fast_and_clean():
    """Replaces the suite-wide fixture (tests/conftest.py): clearing this process's cache
    would flush a shared Redis database, and nothing here uses this process's cache."""
    yield


def test_opening_and_closing_300_sockets_twice_leaves_no_connections_behind(tmp_path):
    cache_bound = WORKERS * (CACHE_MAX + PINGS)
    channel_bound = WORKERS * (2 * CHANNEL_MAX + PINGS)
    with (
        throwaway_redis() as redis,
        production_server(
            tmp_path,
            redis_url=redis.url,
            workers=WORKERS,
            REDIS_CACHE_MAX_CONNECTIONS=str(CACHE_MAX),
            REDIS_CHANNEL_MAX_CONNECTIONS=str(CHANNEL_MAX),
        ) as server,
    ):
        sockets = seed_match_sockets(server, tmp_path, matches=MATCHES)
        assert len(sockets) == 3 * MATCHES
        assert sum(session is None for _, session in sockets) == MATCHES  # the spectators

        counts = []
        for _ in range(ROUNDS):
            asyncio.run(open_and_close(server.url, sockets))
            counts.append(redis.clients_by_db())
        with open_sockets(server.url, sockets):
            counts.append(redis.clients_by_db())

        for by_db in counts:
            assert by_db.get(CACHE_DB, 0) <= cache_bound, counts
            assert by_db.get(CHANNEL_DB, 0) <= channel_bound, counts
        # The sockets did reach both databases (so the bound is not vacuous).
        assert counts[-1].get(CACHE_DB, 0) >= 1 and counts[-1].get(CHANNEL_DB, 0) >= 1, counts
