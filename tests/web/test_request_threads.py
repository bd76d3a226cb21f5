"""config.handler's request threads: each request runs its signals, view and the closing
of its answer (what follows it, and handing the database connection back) on one thread,
lent to it alone; the threads are kept and lent again, not started per request, and one
whose request was dropped while its view still ran is not lent again."""

from __future__ import annotations

import threading
import time

import pytest
from django.core.signals import request_finished, request_started
from django.http import HttpResponse
from django.test import override_settings
from django.urls import path

from config.after_response import after_response
from config.handler import RequestThreads, SyncChainASGIHandler
from tests.asgi_calls import get

WAIT = 10.0  # a bound on every wait, never a timing being tested
seen: list[tuple[str, threading.Thread]] = []  # the threads themselves: no id reused
slow_view_done = threading.Event()


def _note(name: str) -> None:
    seen.append((name, threading.current_thread()))


def answer(request):
    _note("view")
    after_response(lambda: _note("after"))
    return HttpResponse("the board")


def slow(request):
    _note("view")
    time.sleep(0.5)  # the client hangs up meanwhile
    slow_view_done.set()
    return HttpResponse("too late")


urlpatterns = [path("answer/", answer), path("slow/", slow)]


def _started(**kwargs) -> None:
    _note("started")


def _finished(**kwargs) -> None:
    _note("finished")


@pytest.fixture(autouse=True)
def _clean():
    seen.clear()
    slow_view_done.clear()
    request_started.connect(_started)
    request_finished.connect(_finished)
    with override_settings(ROOT_URLCONF=__name__, ALLOWED_HOSTS=["testserver"]):
        yield
    request_started.disconnect(_started)
    request_finished.disconnect(_finished)


def _threads_of(name: str) -> list[threading.Thread]:
    return [thread for seen_name, thread in seen if seen_name == name]


@pytest.mark.asyncio
async def test_a_request_runs_on_one_thread_and_the_next_is_lent_the_same_one():
    handler = SyncChainASGIHandler()
    try:
        first = await get(handler, "answer")
        second = await get(handler, "answer")
    finally:
        handler.threads.close()

    assert first[0]["status"] == second[0]["status"] == 200
    # started, view, what follows the answer, finished: all on one thread, for both requests
    assert [name for name, _ in seen] == ["started", "view", "after", "finished"] * 2
    first_thread = seen[0][1]
    assert all(thread is first_thread for _, thread in seen)
    assert first_thread is not threading.current_thread()  # not the event loop's


@pytest.mark.asyncio
async def test_a_request_dropped_mid_view_finishes_on_its_thread_before_it_is_lent_again():
    handler = SyncChainASGIHandler()
    try:
        dropped = await get(handler, "slow", hang_up_after=0.1)
        # Django sends request_finished on the request's thread, so it follows the view
        assert slow_view_done.is_set()
        assert not dropped  # the client had gone before the answer
        await get(handler, "answer")
    finally:
        handler.threads.close()

    assert _threads_of("view")[0] is _threads_of("finished")[0]
    assert _threads_of("view")[1] is _threads_of("view")[0]  # lent again once done


def test_a_thread_still_running_what_it_was_given_is_not_lent_again():
    threads = RequestThreads(keep=4)
    release = threading.Event()
    with threads.lend() as busy:
        running = busy.submit(release.wait, WAIT)  # as a dropped view left behind
    assert busy not in threads.idle
    with threads.lend() as other:
        assert other is not busy
        assert other.submit(lambda: "answered").result(WAIT) == "answered"
    release.set()
    assert running.result(WAIT) is True
    threads.close()


def test_idle_threads_kept_are_bounded():
    threads = RequestThreads(keep=2)
    with threads.lend() as a, threads.lend() as b, threads.lend() as c:
        lent = {a, b, c}
    assert len(lent) == 3
    assert len(threads.idle) == 2 and set(threads.idle) <= lent
    with threads.lend() as again:
        assert again in lent  # lent again, not started anew
    threads.close()
    assert not threads.idle
