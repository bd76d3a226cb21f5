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

from config import health
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


class SlowChecks:
    """Stands in for `_readiness_apart`: each check takes `seconds` and reports `database`
    as `state` says at the check's start."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.state = "up"
        self.runs = 0

    def __call__(self) -> tuple[dict[str, str], int]:
        state = self.state
        self.runs += 1
        time.sleep(self.seconds)
        return {"database": state}, 200 if state == "up" else 503


@pytest.mark.asyncio
async def test_a_quick_check_is_always_answered_fresh(monkeypatch):
    checks = SlowChecks(seconds=0.0)
    monkeypatch.setattr("config.health._readiness_apart", checks)
    app = HealthChecks(Downstream())
    assert (await request(app, "/healthz"))[0] == 200
    checks.state = "down"
    status, headers, body = await request(app, "/healthz")
    assert (status, json.loads(body)) == (503, {"database": "down"})
    assert b"x-checked-ms-ago" not in headers


@pytest.mark.asyncio
async def test_a_slow_check_gets_the_last_answer_if_recent_and_the_next_probe_the_new_one(
    monkeypatch,
):
    """Under load a check's round trips wait for the GIL: a probe does not wait for it
    when an answer at most MAX_AGE old is at hand, and says how old it is."""
    checks = SlowChecks(seconds=0.3)
    monkeypatch.setattr("config.health._readiness_apart", checks)
    app = HealthChecks(Downstream())
    status, headers, _ = await request(app, "/healthz")  # nothing to fall back on: waits
    assert status == 200 and b"x-checked-ms-ago" not in headers

    checks.state = "down"
    started = time.perf_counter()
    status, headers, body = await request(app, "/healthz")
    assert time.perf_counter() - started < 0.2  # answered before the 0.3 s check ended
    assert (status, json.loads(body)) == (200, {"database": "up"})
    assert 0 <= int(headers[b"x-checked-ms-ago"]) <= 1000 * health.MAX_AGE

    await asyncio.sleep(0.4)  # the check that probe started has ended
    status, _headers, body = await request(app, "/healthz")
    assert (status, json.loads(body)) == (503, {"database": "down"})


@pytest.mark.asyncio
async def test_an_answer_older_than_max_age_is_never_given(monkeypatch):
    checks = SlowChecks(seconds=0.2)
    monkeypatch.setattr("config.health._readiness_apart", checks)
    monkeypatch.setattr("config.health.MAX_AGE", 0.1)
    monkeypatch.setattr("config.health.REFRESH", 60.0)  # no check of its own in between
    app = HealthChecks(Downstream())
    await request(app, "/healthz")
    await asyncio.sleep(0.15)
    checks.state = "down"
    started = time.perf_counter()
    status, headers, _ = await request(app, "/healthz")
    assert status == 503 and b"x-checked-ms-ago" not in headers
    assert time.perf_counter() - started >= 0.15  # it waited for its own check


@pytest.mark.asyncio
async def test_while_probed_the_process_checks_on_its_own(monkeypatch):
    checks = SlowChecks(seconds=0.0)
    monkeypatch.setattr("config.health._readiness_apart", checks)
    monkeypatch.setattr("config.health.REFRESH", 0.05)
    app = HealthChecks(Downstream())
    await request(app, "/healthz")
    await asyncio.sleep(0.5)
    assert checks.runs >= 5  # one per REFRESH, with no probe
    monkeypatch.setattr("config.health.KEEP_FRESH", 0.0)  # no probe for longer than that
    await asyncio.sleep(0.2)
    runs = checks.runs
    await asyncio.sleep(0.2)
    assert checks.runs == runs  # stopped
    assert app.readiness.refresher is None


@pytest.mark.asyncio
async def test_after_a_slow_check_a_probe_does_not_wait_until_a_check_is_quick_again(
    monkeypatch,
):
    """A slow check says the machine is busy: the next probe gets the last answer (at most
    MAX_AGE old) at once, not after PATIENCE, while its own check starts; once a check is
    quick again, probes wait for fresh ones."""
    checks = SlowChecks(seconds=0.05)
    monkeypatch.setattr("config.health._readiness_apart", checks)
    monkeypatch.setattr("config.health.PATIENCE", 0.03)
    monkeypatch.setattr("config.health.REFRESH", 60.0)  # no check of its own in between
    app = HealthChecks(Downstream())
    status, headers, _ = await request(app, "/healthz")  # nothing to fall back on: waits
    assert status == 200 and b"x-checked-ms-ago" not in headers
    assert app.readiness.slow

    checks.state, checks.seconds = "down", 0.0
    started = time.perf_counter()
    status, headers, body = await request(app, "/healthz")
    assert time.perf_counter() - started < 0.03  # did not wait PATIENCE for the quick check
    assert (status, json.loads(body)) == (200, {"database": "up"})
    assert b"x-checked-ms-ago" in headers

    await asyncio.sleep(0.05)  # the check that probe started has ended, quickly
    assert checks.runs == 2 and not app.readiness.slow
    status, headers, body = await request(app, "/healthz")
    assert (status, json.loads(body)) == (503, {"database": "down"})
    assert b"x-checked-ms-ago" not in headers  # quick again: a fresh answer


@pytest.mark.asyncio
async def test_after_a_slow_check_that_found_something_down_a_probe_waits_for_the_news(
    monkeypatch,
):
    """A check slowed by a dependency timing out is not the machine being busy: once the
    outage is over, the next probe gets the fresh "up", not the last "down"."""
    checks = SlowChecks(seconds=0.05)
    checks.state = "down"
    monkeypatch.setattr("config.health._readiness_apart", checks)
    monkeypatch.setattr("config.health.PATIENCE", 0.03)
    monkeypatch.setattr("config.health.REFRESH", 60.0)
    app = HealthChecks(Downstream())
    assert (await request(app, "/healthz"))[0] == 503
    assert not app.readiness.slow

    checks.state, checks.seconds = "up", 0.0
    status, headers, body = await request(app, "/healthz")
    assert (status, json.loads(body)) == (200, {"database": "up"})
    assert b"x-checked-ms-ago" not in headers
