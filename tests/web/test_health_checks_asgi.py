"""The health checks under uvicorn (config.health.HealthChecks): answered in front of the
request cap and of Django, so a worker whose one Django thread is busy with moves still
answers them at once (the load benchmark measured readiness behind that queue at p99
259 ms, and 813 ms with 4,000 sockets open)."""

from __future__ import annotations

import asyncio
import json
import threading
import time

import pytest
from asgiref.sync import sync_to_async

from config.health import HealthChecks

WAIT = 5.0  # seconds: a bound on every wait, never a timing being tested


class Downstream:
    """What stands behind: counts what reaches it and answers 299."""

    def __init__(self) -> None:
        self.paths: list[tuple[str, str]] = []

    async def __call__(self, scope, receive, send) -> None:
        self.paths.append((scope.get("method", ""), scope["path"]))
        await send({"type": "http.response.start", "status": 299, "headers": []})
        await send({"type": "http.response.body", "body": b""})


async def request(app, path: str, method: str = "GET") -> tuple[int, dict, bytes]:
    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    await app({"type": "http", "method": method, "path": path, "headers": []}, receive, send)
    start = sent[0]
    return start["status"], dict(start["headers"]), b"".join(m.get("body", b"") for m in sent)


@pytest.mark.asyncio
async def test_the_two_checks_are_answered_here_and_everything_else_goes_on():
    inner = Downstream()
    app = HealthChecks(inner)
    status, headers, body = await request(app, "/healthz/live")
    assert (status, json.loads(body)) == (200, {"process": "up"})
    assert headers[b"content-type"] == b"application/json"
    assert b"no-store" in headers[b"cache-control"]
    for method, path in (("GET", "/healthz/live/x"), ("POST", "/healthz"), ("GET", "/play/")):
        assert (await request(app, path, method))[0] == 299
    assert inner.paths == [("GET", "/healthz/live/x"), ("POST", "/healthz"), ("GET", "/play/")]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_readiness_answers_while_djangos_request_thread_is_busy():
    """Django's one thread-sensitive thread is held for 2 s (as by a queue of moves):
    readiness and liveness still answer, with the database up, long before it is free."""
    app = HealthChecks(Downstream())
    free = threading.Event()

    def a_long_request() -> None:
        free.wait(WAIT)

    busy = asyncio.create_task(sync_to_async(a_long_request, thread_sensitive=True)())
    await asyncio.sleep(0.05)
    try:
        started = time.perf_counter()
        status, _headers, body = await asyncio.wait_for(request(app, "/healthz"), WAIT)
        live = await asyncio.wait_for(request(app, "/healthz/live"), WAIT)
        took = time.perf_counter() - started
        assert not busy.done(), "the busy thread was freed before the checks answered"
    finally:
        free.set()
        await busy
    report = json.loads(body)
    assert status == 200 and report["database"] == "up", report
    assert set(report) == {"database", "channel_layer", "cache", "broker"}
    assert live[0] == 200
    assert took < WAIT
