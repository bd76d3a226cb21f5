"""Django's ASGI handler, with the middleware and the view run in one thread hop.

Django's `ASGIHandler` builds its middleware chain in async mode. Ours mixes middleware
that can run async (sessions, CSRF, auth, htmx, allauth...) with middleware that can only
run sync (metrics, the overload guard, whitenoise, the input guard, the rate limit), and
every view is sync. So each request crossed between the event loop and the worker thread
about five times: into the sync part of the chain, back out to the async middleware
inside the rate limit, into a thread again for each sync `process_view` (CSRF, the rate
limit), and once more for the view. Each crossing copies the context, wakes a thread and
waits on a future: measured, the board GET cost 7-8 ms of CPU in one uvicorn worker, of
which the crossings were the largest part after the database and templates
(docs/benchmarks.md, "Live core under load").

`SyncChainASGIHandler` builds the same chain in sync mode (the order and behaviour of the
middleware are unchanged: each is called exactly as under WSGI) and runs the whole of it,
view included, in one `sync_to_async` call on Django's single thread-sensitive executor,
which is where Django ran the sync views anyway. Everything around it (reading the body,
the request signals, streaming the answer, disconnects) is Django's `ASGIHandler`'s. An
`async def` view still works: Django's sync chain calls it with `async_to_sync`, and a
streaming answer with an async iterator is streamed by `ASGIHandler` on the event loop
after the chain has returned it, so a long stream holds neither a slot nor a database
connection.

The request's thread. Django gives every request a thread of its own
(`ThreadSensitiveContext`): the request signals, the chain and the closing of the answer
(which runs what follows it, config.after_response, and hands the database connection
back) all run there, one after another. It starts that thread for the request and a
second one to join it afterwards: two thread starts per request, on the event loop
that every request and socket of the worker shares. `RequestThreads` keeps the threads
instead and lends one to each request, with the same guarantee (one thread, one request
at a time, every thread-sensitive call of the request on it), through asgiref's
`ThreadSensitiveContext(executor=...)`. A thread is lent again only once all it was given
has finished. Django's own handler waits for a dropped request's view (its
`request_finished` is queued behind the view on that thread); should anything else be left
running there, the thread is let go instead.

A request let go. Django's request holds itself: its lazy `user` and `auser` are closures
over it, and so are the messages' storages, htmx's details and allauth's state. So no
request, nor anything it holds (its session, user, resolver match, headers and body), was
freed when it ended, only by Python's cyclic garbage collector: about 150 objects a
request, a collection every few hundred requests at full load, each stopping the worker's
event loop and request threads for 20-100 ms (docs/benchmarks.md, seventeenth pass). Once
the answer is sent and closed (what follows it has run), nothing reads the request again,
and `SyncChainASGIHandler` empties it, which breaks those cycles: it is freed at once. An
answer still being closed when its client hung up keeps its request whole. Likewise
Django's handler learns that a client has gone from an exception (`RequestAborted`), which
uvicorn's "disconnect" raises after every answer; caught in the handler, it held the
handler's frame, and so both of the request's tasks, the answer and the body: here the
disconnect is a return, which the handler treats as it treated the exception.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import threading
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.conf import settings
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest, HttpResponseBase


class RequestThread(ThreadPoolExecutor):
    """One thread, lent to one request at a time; counts the work it has not finished."""

    def __init__(self) -> None:
        super().__init__(max_workers=1, thread_name_prefix="request")
        self.unfinished = 0
        self._count = threading.Lock()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future = super().submit(fn, *args, **kwargs)
        with self._count:
            self.unfinished += 1
        future.add_done_callback(self._finished)
        return future

    def _finished(self, future: Future[Any]) -> None:
        with self._count:
            self.unfinished -= 1


class RequestThreads:
    """The request threads of a worker process: up to `keep` idle ones wait to be lent
    again; a request finding none idle gets a new one, so a long stream never starves the
    others (the number of requests at once is config.overload's to bound, not this)."""

    def __init__(self, *, keep: int) -> None:
        self.keep = keep
        self.idle: deque[RequestThread] = deque()

    @contextmanager
    def lend(self) -> Iterator[RequestThread]:
        try:
            thread = self.idle.pop()
        except IndexError:
            thread = RequestThread()
        try:
            yield thread
        finally:
            if thread.unfinished == 0 and len(self.idle) < self.keep:
                self.idle.append(thread)
            else:  # work it was given still runs, or enough wait already: let it end
                thread.shutdown(wait=False)

    def close(self) -> None:
        """Let every idle thread end (tests)."""
        while self.idle:
            self.idle.pop().shutdown(wait=False)


# The request a call of the handler made, to be let go once it has been answered.
_requests: contextvars.ContextVar[list[HttpRequest] | None] = contextvars.ContextVar(
    "handler_requests", default=None
)


class SyncChainASGIHandler(ASGIHandler):
    """`ASGIHandler` whose middleware chain and view run in one thread hop, on a thread
    lent by `RequestThreads`; each request let go once answered."""

    def __init__(self) -> None:
        super().__init__()
        # Idle threads kept: as many as requests may run at once (config/overload.py).
        self.threads = RequestThreads(keep=settings.WEB_CONCURRENCY_LIMIT)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        requests: list[HttpRequest] = []
        token = _requests.set(requests)
        try:
            with self.threads.lend() as thread:
                async with ThreadSensitiveContext(executor=thread):
                    await self.handle(scope, receive, send)
        finally:
            _requests.reset(token)
        for request in requests:
            let_go(request)

    async def listen_for_disconnect(self, receive: Any) -> None:
        """Django's, ending by a return where it raised `RequestAborted`: its handler ignores
        that exception, and caught there it was a reference cycle per request."""
        with contextlib.suppress(RequestAborted):
            await super().listen_for_disconnect(receive)

    def create_request(self, scope: Any, body_file: Any) -> tuple[Any, Any]:
        request, error_response = super().create_request(scope, body_file)
        requests = _requests.get()
        if request is not None and requests is not None:
            requests.append(request)
        return request, error_response

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        # The chain runs as a task of its own, shielded: should the client hang up, Django
        # cancels this request and drops its answer unclosed, but the view finishes in its
        # thread anyway; its answer is then closed here, so what was left to follow it (a
        # committed move's pushes and tasks: config.after_response) still happens.
        context = contextvars.copy_context()
        chain = asyncio.get_running_loop().create_task(
            sync_to_async(self.get_response, thread_sensitive=True)(request), context=context
        )
        try:
            response = await asyncio.shield(chain)
        except asyncio.CancelledError:
            chain.add_done_callback(_close_dropped)
            requests = _requests.get()
            if requests is not None:  # its view still runs: keep it whole
                requests.clear()
            raise
        # What the chain set (the request id, read by the access log line) is this task's
        # too, as after a plain `await sync_to_async(...)`.
        for variable, value in context.items():
            variable.set(value)
        return response


def let_go(request: HttpRequest) -> None:
    """Break the cycles a finished request is in (its lazy user, its messages...), so that
    it and all it holds are freed now, not by the cyclic garbage collector."""
    vars(request).clear()


def _close_dropped(chain: asyncio.Future) -> None:
    if chain.cancelled() or chain.exception() is not None:
        return
    asyncio.get_running_loop().run_in_executor(None, chain.result().close)
