"""config.handler lets a request go once it is answered: Django's request holds itself (its
lazy user, its messages' storages...), so without this it and all it holds were freed only
by the cyclic garbage collector, whose collections stop a worker for tens of milliseconds
under load. A request whose client hung up while its view ran is kept whole until its
answer is closed, since what follows that answer still runs."""

from __future__ import annotations

import asyncio
import gc
import threading
import time
import weakref

import pytest
from django.contrib import messages
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpResponse
from django.test import override_settings
from django.urls import path

from config.after_response import after_response
from config.handler import SyncChainASGIHandler
from tests.asgi_calls import get

WAIT = 10.0  # a bound on every wait, never a timing being tested
requests: list[weakref.ref] = []
read_after: list[str] = []
slow_view_done = threading.Event()


def answer(request):
    requests.append(weakref.ref(request))
    # What puts a request in reference cycles: its lazy user, its messages' storages.
    assert not request.user.is_authenticated
    list(messages.get_messages(request))
    return HttpResponse("the board")


def _read_later(request) -> None:
    time.sleep(0.1)  # the handler has returned by now
    read_after.append(request.path)


def slow(request):
    requests.append(weakref.ref(request))
    after_response(lambda: _read_later(request))
    time.sleep(0.3)  # the client hangs up meanwhile
    slow_view_done.set()
    return HttpResponse("too late")


urlpatterns = [path("answer/", answer), path("slow/", slow)]


@pytest.fixture(autouse=True)
def _clean():
    requests.clear()
    read_after.clear()
    slow_view_done.clear()
    gc.collect()
    gc.disable()  # only reference counting frees anything during a test
    try:
        with override_settings(ROOT_URLCONF=__name__, ALLOWED_HOSTS=["testserver"]):
            yield
    finally:
        gc.enable()


@pytest.mark.django_db
@pytest.mark.asyncio
async def test_a_request_is_freed_as_soon_as_it_is_answered():
    handler = SyncChainASGIHandler()
    try:
        sent = await get(handler, "answer")
    finally:
        handler.threads.close()

    assert sent[0]["status"] == 200
    assert requests[0]() is None  # freed by reference counting, no collection


@pytest.mark.django_db
@pytest.mark.asyncio
async def test_without_it_django_leaves_the_request_to_the_cyclic_collector():
    """The control: the same view through Django's own handler."""
    sent = await get(ASGIHandler(), "answer")

    assert sent[0]["status"] == 200
    assert requests[0]() is not None  # still held by its own cycles
    gc.collect()
    assert requests[0]() is None


@pytest.mark.django_db
@pytest.mark.asyncio
async def test_a_request_dropped_mid_view_is_kept_whole_for_what_follows_its_answer():
    handler = SyncChainASGIHandler()
    try:
        dropped = await get(handler, "slow", hang_up_after=0.05)
        assert not dropped  # the client had gone before the answer
        assert slow_view_done.wait(WAIT)
        deadline = time.monotonic() + WAIT
        while not read_after and time.monotonic() < deadline:
            await asyncio.sleep(0.01)  # its answer is closed once the view returns
    finally:
        handler.threads.close()

    assert read_after == ["/slow/"]  # the step after the answer read the request


@pytest.mark.asyncio
async def test_a_disconnect_ends_the_listener_with_a_return_not_an_exception():
    async def receive() -> dict:
        return {"type": "http.disconnect"}

    assert await SyncChainASGIHandler().listen_for_disconnect(receive) is None
