"""Overload answers 503 with Retry-After, never 500: the per-worker cap on concurrent HTTP
requests (config.overload.ConcurrencyLimit) and a database that cannot give a connection
(config.overload.DatabaseOverloadMiddleware)."""

from __future__ import annotations

import asyncio

import pytest
from django.db import OperationalError, connection
from django.test import Client

from config.overload import RETRY_AFTER_SECONDS, ConcurrencyLimit
from tests.conftest import IS_POSTGRES

WAIT = 5.0  # seconds: a bound on every wait below, never a timing being tested


class HeldApp:
    """An ASGI app whose HTTP requests run until released (websockets answer at once)."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.running = 0
        self.started = asyncio.Event()

    async def __call__(self, scope, receive, send) -> None:
        self.running += 1
        self.started.set()
        try:
            if scope["type"] == "http" and scope["path"] != "/quick/":
                await self.release.wait()
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b"ok"})
        finally:
            self.running -= 1


async def call(app, path: str = "/matches/1/", kind: str = "http") -> dict:
    """One request through `app`: its status, headers and body."""
    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    await app({"type": kind, "path": path, "headers": []}, receive, send)
    start = next(message for message in sent if message["type"] == "http.response.start")
    body = b"".join(message.get("body", b"") for message in sent[1:])
    return {"status": start["status"], "headers": dict(start["headers"]), "body": body}


@pytest.mark.asyncio
async def test_a_request_over_the_limit_waits_for_a_free_slot():
    inner = HeldApp()
    app = ConcurrencyLimit(inner, limit=1, queue_seconds=WAIT)
    first = asyncio.create_task(call(app))
    await asyncio.wait_for(inner.started.wait(), WAIT)
    second = asyncio.create_task(call(app))
    await asyncio.sleep(0.05)
    assert inner.running == 1 and not second.done()  # queued, not running, not refused

    inner.release.set()
    answers = await asyncio.wait_for(asyncio.gather(first, second), WAIT)
    assert [answer["status"] for answer in answers] == [200, 200]


@pytest.mark.asyncio
async def test_past_the_queue_wait_the_answer_is_503_with_retry_after_and_a_page():
    inner = HeldApp()
    app = ConcurrencyLimit(inner, limit=2, queue_seconds=0.05)
    running = [asyncio.create_task(call(app)) for _ in range(2)]
    while inner.running < 2:
        await asyncio.sleep(0.01)

    refused = await asyncio.wait_for(call(app), WAIT)
    assert refused["status"] == 503
    assert refused["headers"][b"retry-after"] == str(RETRY_AFTER_SECONDS).encode()
    assert refused["headers"][b"content-type"].startswith(b"text/html")
    assert b"try again in a few seconds" in refused["body"]
    assert inner.running == 2  # the refused request never reached the app

    inner.release.set()
    assert [answer["status"] for answer in await asyncio.gather(*running)] == [200, 200]
    assert (await call(app, "/quick/"))["status"] == 200  # the slots were given back


@pytest.mark.asyncio
async def test_sockets_static_files_and_liveness_are_not_counted():
    inner = HeldApp()
    app = ConcurrencyLimit(
        inner, limit=1, queue_seconds=0.05, uncounted_prefixes=("/static/", "/healthz/live")
    )
    held = asyncio.create_task(call(app))
    await asyncio.wait_for(inner.started.wait(), WAIT)

    inner.release.set()  # from here on every request the app gets answers at once ...
    for path in ("/static/css/site.css", "/healthz/live"):
        assert (await asyncio.wait_for(call(app, path), WAIT))["status"] == 200
    assert (await asyncio.wait_for(call(app, "/ws/matches/1/", "websocket"), WAIT))["status"] == 200
    await held


@pytest.mark.asyncio
async def test_a_request_that_fails_gives_its_slot_back():
    async def broken(scope, receive, send):
        raise RuntimeError("a bug")

    app = ConcurrencyLimit(broken, limit=1, queue_seconds=0.05)
    for _ in range(3):
        with pytest.raises(RuntimeError):
            await call(app)
    assert not app.slots.locked()


def test_a_limit_below_one_is_refused():
    with pytest.raises(ValueError):
        ConcurrencyLimit(HeldApp(), limit=0, queue_seconds=1)


def assert_busy_page(response) -> None:
    assert response.status_code == 503
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert "The hall is full for a moment" in response.content.decode()


@pytest.mark.django_db
def test_postgresql_refusing_a_connection_answers_503_not_500(monkeypatch):
    def refuse() -> None:
        raise OperationalError("connection failed: FATAL:  sorry, too many clients already")

    client = Client()
    with monkeypatch.context() as patch:
        patch.setattr(connection, "ensure_connection", refuse)
        response = client.get("/tables/")
    assert_busy_page(response)


@pytest.mark.skipif(not IS_POSTGRES, reason="the pool is PostgreSQL only (set DATABASE_URL)")
@pytest.mark.django_db(transaction=True)
def test_a_pool_timeout_answers_503_not_500(monkeypatch, caplog):
    """A real psycopg pool of one connection, held elsewhere: the view's wait times out."""
    from psycopg_pool import ConnectionPool

    params = connection.get_connection_params()
    params.pop("pool", None)
    tiny = ConnectionPool(kwargs=params, min_size=1, max_size=1, timeout=0.2, open=True)
    held = tiny.getconn()
    try:
        connection.close()  # the next query must check a connection out of the pool
        with monkeypatch.context() as patch:
            patch.setitem(connection._connection_pools, connection.alias, tiny)
            response = Client().get("/tables/")
            connection.close()
        assert_busy_page(response)
        assert "PoolTimeout" in caplog.text  # the real pool's, not a stand-in
    finally:
        tiny.putconn(held)
        tiny.close()
