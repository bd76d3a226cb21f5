"""Pages and a task that fail on purpose, for the tests of what an operator sees: the
site's own URLs plus these (`ROOT_URLCONF = "tests.operations.faulty"`)."""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import OperationalError
from django.http import HttpRequest, HttpResponse
from django.urls import include, path

from web import urls as site_urls

logger = logging.getLogger(__name__)

# A card value no page shows: it must never reach Sentry. Computed, so that the source
# lines Sentry sends with a stack frame do not hold it either.
HIDDEN_CARD = str(97 * 103)


def crash(request: HttpRequest) -> HttpResponse:
    deck = [HIDDEN_CARD, "12"]  # a local holding hidden cards, as an engine's frame might
    raise RuntimeError(f"a bug, while holding {len(deck)} cards")


def database_gone(request: HttpRequest) -> HttpResponse:
    raise OperationalError("connection refused")


def answer(request: HttpRequest, status: int) -> HttpResponse:
    return HttpResponse(f"answered {status}", status=status)


def chatty(request: HttpRequest) -> HttpResponse:
    """Logs, and runs a task that logs (eager Celery: inside this request)."""
    logger.warning("a line from the view")
    says_something.delay()
    return HttpResponse("said")


@shared_task(ignore_result=True)
def says_something() -> None:
    logger.warning("a line from the task")


@shared_task(ignore_result=True)
def fails_on_purpose() -> None:
    raise RuntimeError("a task that fails")


# The site's error pages, as the real URLconf names them.
handler400, handler403 = site_urls.handler400, site_urls.handler403
handler404, handler500 = site_urls.handler404, site_urls.handler500

urlpatterns = [
    path("faulty/crash/", crash),
    path("faulty/database-gone/", database_gone),
    path("faulty/status/<int:status>/", answer),
    path("faulty/chatty/", chatty),
    path("", include("web.urls")),
]
