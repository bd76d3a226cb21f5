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
after the chain has returned it, so a long stream holds neither the thread nor a slot.
"""

from __future__ import annotations

import asyncio
import contextvars

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest, HttpResponseBase


class SyncChainASGIHandler(ASGIHandler):
    """`ASGIHandler` whose middleware chain and view run in one thread hop."""

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
            raise
        # What the chain set (the request id, read by the access log line) is this task's
        # too, as after a plain `await sync_to_async(...)`.
        for variable, value in context.items():
            variable.set(value)
        return response


def _close_dropped(chain: asyncio.Future) -> None:
    if chain.cancelled() or chain.exception() is not None:
        return
    asyncio.get_running_loop().run_in_executor(None, chain.result().close)
