"""/healthz/live (liveness) and /healthz (readiness) tell the truth, and never hang.

The live tests run the production shape (uvicorn, 2 workers, DEBUG=0) on a throwaway
redis-server: with sockets open the channel layer reads "up" (it used to read "down" after
a 2 s wait whenever the worker held sockets), and with that Redis stopped it reads "down"
without waiting. Their time bounds are generous, only to catch a hang; speed targets
belong to the load benchmark.
"""

from __future__ import annotations

import json
import time
import urllib.request

import pytest
from django.db import OperationalError

from config import health
from tests.live import free_port
from tests.realtime.live_redis import (
    needs_redis,
    open_sockets,
    production_server,
    seed_match_sockets,
    throwaway_redis,
)

NO_HANG = 1.0  # seconds: the old check took 2 s whenever the worker held sockets


@pytest.fixture(autouse=True)
def _fast_and_clean():
    """Replaces the suite-wide fixture (tests/conftest.py): clearing this process's cache
    would flush a shared Redis database, and nothing here needs a clean cache."""
    yield


def test_liveness_touches_no_dependency(client):
    response = client.get("/healthz/live")  # no `db` fixture: a query would raise
    assert response.status_code == 200
    assert response.json() == {"process": "up"}
    assert "no-store" in response["Cache-Control"]


def test_readiness_reports_every_dependency(client, db):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["database"] == "up"
    assert body["channel_layer"] == "up"
    assert body["cache"] in ("up", "local")
    assert body["broker"] in ("up", "eager")


def test_readiness_is_503_when_the_database_is_down(client, db, monkeypatch):
    class Unreachable:
        def ensure_connection(self) -> None:
            raise OperationalError("connection refused")

    monkeypatch.setattr(health, "connection", Unreachable())
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == "down"


def test_readiness_asks_each_redis_server_once_whatever_databases_name_it(monkeypatch):
    """The cache, the channel layer and the broker on three databases of one server: one
    PING; another server, or other credentials, is asked on its own."""
    asked: list[str] = []
    monkeypatch.setattr(health, "redis_answers", lambda url: asked.append(url) or True)
    ping = health.each_server_once()
    for url in (
        "redis://127.0.0.1:6379/0",
        "redis://127.0.0.1:6379/2",
        "redis://127.0.0.1:6379?db=9",
        "redis://127.0.0.1:6380/0",
        "redis://user:secret@127.0.0.1:6379/0",
        "unix:///run/redis.sock?db=1",
        "unix:///run/redis.sock?db=2",
    ):
        assert ping(url) is True
    assert asked == [
        "redis://127.0.0.1:6379/0",
        "redis://127.0.0.1:6380/0",
        "redis://user:secret@127.0.0.1:6379/0",
        "unix:///run/redis.sock?db=1",
    ]
    # A fresh check asks again: nothing is remembered from one check to the next.
    assert health.each_server_once()("redis://127.0.0.1:6379/2") and len(asked) == 5


def test_a_redis_that_does_not_answer_is_down_at_once():
    started = time.monotonic()
    assert not health.redis_answers(f"redis://127.0.0.1:{free_port()}/0")
    assert time.monotonic() - started < NO_HANG


def _get(url: str) -> tuple[int, dict, float]:
    status, body, seconds, _ = _get_aged(url)
    return status, body, seconds


def _get_aged(url: str) -> tuple[int, dict, float, str | None]:
    """Status, JSON body, seconds taken, and the age of a readiness answer given from the
    last check (its X-Checked-Ms-Ago header; None for a fresh one)."""
    started = time.monotonic()
    with urllib.request.urlopen(url, timeout=10) as response:
        body = json.loads(response.read())
        age = response.headers.get("X-Checked-Ms-Ago")
        return response.status, body, time.monotonic() - started, age


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """The production shape on a throwaway Redis, and 60 match sockets to open."""
    directory = tmp_path_factory.mktemp("health")
    with throwaway_redis() as redis, production_server(directory, redis_url=redis.url) as server:
        yield redis, server, seed_match_sockets(server, directory, matches=20)


@needs_redis
def test_with_sockets_open_the_channel_layer_is_up_at_once(live):
    redis, server, sockets = live
    with open_sockets(server.url, sockets):
        answers = [_get(f"{server.url}/healthz") for _ in range(10)]
    for status, body, _ in answers:
        assert status == 200
        assert body == {"database": "up", "channel_layer": "up", "cache": "up", "broker": "eager"}
    assert min(seconds for *_, seconds in answers) < NO_HANG


@needs_redis
def test_with_redis_stopped_the_channel_layer_is_down_at_once(live):
    """Last in this module: it stops the throwaway Redis."""
    redis, server, sockets = live
    with open_sockets(server.url, sockets):
        redis.stop()
        stopped = time.monotonic()
        answers: list[tuple[int, dict, float, str | None]] = []
        # Until five answers in a row say "down". On a busy machine a worker may first give
        # its last answer, checked before the stop (at most MAX_AGE old, its age in a header)
        # rather than keep the probe waiting for a fresh check (config/health.py).
        while len(answers) < 5 or any(a[1]["channel_layer"] != "down" for a in answers[-5:]):
            assert time.monotonic() - stopped < health.MAX_AGE + 10, answers
            answers.append(_get_aged(f"{server.url}/healthz"))
        live_status, live_body, _ = _get(f"{server.url}/healthz/live")
    for status, body, _, age in answers:
        assert status == 200  # the database answers: pages still work
        assert body["database"] == "up"
        if body["channel_layer"] != "down":  # an answer from before the stop, and it says so
            assert age is not None and int(age) <= health.MAX_AGE * 1000
        else:
            assert body["cache"] == "down"
    assert min(seconds for _, _, seconds, _ in answers[-5:]) < NO_HANG
    assert (live_status, live_body) == (200, {"process": "up"})
