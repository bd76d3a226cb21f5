"""What follows a change runs after the answer has gone out (config.after_response), through
the site's own ASGI handler (config.handler): after the last byte, in order, each step once,
a failing step logged without stopping the rest; at once outside a request or for a
streaming answer; and still run when the client hangs up while the view is working."""

from __future__ import annotations

import asyncio
import logging
import threading
import time

import pytest
from django.http import HttpResponse, StreamingHttpResponse
from django.test import override_settings
from django.urls import path

from config.after_response import after_response, request_memo
from config.handler import SyncChainASGIHandler
from tests.asgi_calls import get

WAIT = 10.0  # a bound on every wait, never a timing being tested
events: list[str] = []
done = threading.Event()


def _step(name: str):
    def step() -> None:
        events.append(name)
        if name == "last":
            done.set()

    return step


def _failing() -> None:
    raise RuntimeError("a step that fails")


def answer(request):
    after_response(_step("push"))
    after_response(_failing)
    after_response(_step("last"))
    events.append("view")
    return HttpResponse("the board")


def slow(request):
    after_response(_step("last"))
    time.sleep(0.5)  # the client hangs up meanwhile
    events.append("view")
    return HttpResponse("too late")


async def _parts():
    for part in (b"a ", b"stream"):
        yield part


def streaming(request):
    after_response(_step("last"))
    return StreamingHttpResponse(_parts())


memos: list[object] = []


def remembering(request):
    memo = request_memo()
    memo["drawn"] = request.GET["n"]
    memos.append(memo)
    after_response(lambda: events.append(f"after {request_memo()['drawn']}"))
    after_response(_step("last"))
    return HttpResponse("the board")


urlpatterns = [
    path("answer/", answer),
    path("slow/", slow),
    path("streaming/", streaming),
    path("remembering/", remembering),
]


@pytest.fixture(autouse=True)
def _clean():
    events.clear()
    memos.clear()
    done.clear()
    with override_settings(ROOT_URLCONF=__name__, ALLOWED_HOSTS=["testserver"]):
        yield


async def _call(route: str, *, hang_up_after: float | None = None) -> list[dict]:
    return await get(
        SyncChainASGIHandler(),
        route,
        hang_up_after=hang_up_after,
        on_sent=lambda: events.append("sent"),
    )


@pytest.mark.asyncio
async def test_the_steps_run_after_the_answer_has_gone_out_in_order_a_failure_logged(caplog):
    caplog.set_level(logging.ERROR, logger="config.after_response")
    sent = await _call("answer")

    assert sent[0]["status"] == 200
    assert await asyncio.to_thread(done.wait, WAIT)
    assert events == ["view", "sent", "push", "last"]
    assert "a step after the answer failed" in caplog.text
    assert "a step that fails" in caplog.text


@pytest.mark.asyncio
async def test_a_client_that_hangs_up_mid_view_still_has_its_steps_run():
    sent = await _call("slow", hang_up_after=0.1)

    assert await asyncio.to_thread(done.wait, WAIT)
    assert events == ["view", "last"]
    assert not sent  # nothing was sent: the client had gone


@pytest.mark.asyncio
async def test_a_streaming_answer_does_not_hold_the_steps_back():
    await _call("streaming")

    assert done.is_set()
    assert events == ["last", "sent"]


def test_outside_a_request_a_step_runs_at_once():
    after_response(_step("last"))

    assert events == ["last"]


def test_a_request_s_memo_is_shared_with_its_steps_and_no_other_request(client):
    """The view's memo is the one its steps after the answer see; the next request, in the
    same context here (the test client's), starts with a new one; outside, there is none."""
    assert request_memo() is None
    client.get("/remembering/?n=1")
    client.get("/remembering/?n=2")

    assert events == ["after 1", "last", "after 2", "last"]
    assert memos[0] is not memos[1] and memos[1] == {"drawn": "2"}
    assert request_memo() is None
