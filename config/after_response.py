"""Work that follows a request's answer, run once the answer has gone out.

What follows a committed change (games.effects: the socket pushes, the AI task, the inbox
notices) need not delay the answer to the player who made it. During a request,
`after_response(step)` keeps `step` for later; `AfterResponseMiddleware` hands what was
kept to the answer, which runs it when it is closed. Django's ASGI handler closes an answer
after its last byte is sent (and the test client as soon as it has the answer), in the
request's own thread, before the `request_finished` signal hands the thread's database
connection back. So a move's answer goes out as soon as its own board is drawn, and the
other seats' boards are drawn and pushed just after, in the same thread, with the same
connection, still counted in the worker's request limit (config/overload.py).

Outside a request (a Celery task, a command, a socket consumer), and for a streaming
answer (which may stay open for hours), a step runs at once. Each step runs once; one that
fails is logged and does not stop the others, as `transaction.on_commit(robust=True)` does.

A client that hangs up while its view runs would never have its answer closed (Django's
handler drops it): config/handler.py closes such an answer itself, so its steps still run.
"""

from __future__ import annotations

import contextvars
import logging
from collections.abc import Callable, Hashable
from typing import Any

from django.http import HttpRequest, HttpResponseBase

logger = logging.getLogger(__name__)

Step = Callable[[], Any]

_pending: contextvars.ContextVar[list[Step] | None] = contextvars.ContextVar(
    "after_response", default=None
)
_memo: contextvars.ContextVar[dict[Hashable, Any] | None] = contextvars.ContextVar(
    "request_memo", default=None
)


def after_response(step: Step) -> None:
    """Run `step` once this request's answer has gone out; at once outside a request."""
    pending = _pending.get()
    if pending is None:
        _run([step])
    else:
        pending.append(step)


def request_memo() -> dict[Hashable, Any] | None:
    """What one request's view and the steps after its answer share (None outside a
    request): something the view drew or read that a step would otherwise send or read
    again. It lives as long as the request's steps, and no other request sees it (a test
    client or a WSGI server runs one request after another in the same context)."""
    return _memo.get()


class AfterResponseMiddleware:
    """Keeps what a request's view leaves for after its answer, and hands it to the answer.

    Put it just inside the request id's middleware: the steps run in the request's context
    (its request id in every log line), after every other middleware has answered."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        pending: list[Step] = []
        token, memo_token = _pending.set(pending), _memo.set({})
        try:
            response = self.get_response(request)
        except BaseException:
            _pending.reset(token)
            _run(pending)
            raise
        else:
            _pending.reset(token)
            if pending:
                if response.streaming:
                    _run(pending)
                else:
                    # Django's own list of what an answer holds (private, unchanged since
                    # 3.0): each is run, then the list cleared, by close(). The steps run in
                    # a copy of this context: with this request's memo.
                    closers = response._resource_closers  # type: ignore[attr-defined]
                    closers.append(Later(pending, contextvars.copy_context()))
            return response
        finally:
            _memo.reset(memo_token)


class Later:
    """A request's steps, run once, in its context, when its answer is closed."""

    def __init__(self, steps: list[Step], context: contextvars.Context) -> None:
        self.steps = steps
        self.context = context

    def __call__(self) -> None:
        steps, self.steps = self.steps, []
        if steps:
            self.context.run(_run, steps)


def _run(steps: list[Step]) -> None:
    for step in steps:
        try:
            step()
        except Exception:
            logger.exception("a step after the answer failed: %r", step)
