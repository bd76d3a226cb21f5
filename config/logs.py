"""Logs: one line per record, each carrying the request id (docs/operations.md, "Logs,
metrics and alerts").

- The request id is django-guid's: its middleware (first in MIDDLEWARE) takes a well-formed
  `X-Request-ID` from the request (a UUID, as a proxy sets it) or makes one, keeps it in a
  context variable for the request, and echoes it in the response.
- `RequestIdFilter` puts it on every record (`-` outside a request) and, inside a Celery
  task, the task's name and id.
- A task enqueued during a request carries the id in its message headers
  (`before_task_publish`); the worker adopts it while the task runs (`task_prerun`), so the
  task's lines carry the id of the request that caused them. A task with no id (beat's)
  gets a fresh one. Eager tasks run inside the request and keep its id as it is.
- `logging_config` is the LOGGING setting: JSON lines (`python-json-logger`) or readable
  lines, to stderr; uvicorn's and Celery's own loggers go through the same handler.

Nothing here reads Django settings at import: config.celery_app imports it first.
"""

from __future__ import annotations

import logging
import uuid
from typing import Any

from celery import current_task, signals
from django_guid.context import guid
from pythonjsonlogger.core import RESERVED_ATTRS

REQUEST_ID_HEADER = "X-Request-ID"
TASK_HEADER = "request_id"  # the message header that carries it to the worker
NO_REQUEST = "-"

TEXT_FORMAT = "%(asctime)s %(levelname)s [%(request_id)s] %(name)s: %(message)s"
JSON_FIELDS = "%(levelname)s %(name)s %(message)s %(request_id)s"


class RequestIdFilter(logging.Filter):
    """Adds `request_id` to every record, and `task`/`task_id` inside a Celery task."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = guid.get() or NO_REQUEST
        task = current_task  # a proxy: false outside a task
        if task and not hasattr(record, "task"):
            record.task = task.name
            record.task_id = task.request.id
        return True


def logging_config(*, fmt: str, level: str) -> dict[str, Any]:
    """The LOGGING setting: `fmt` is "json" (production) or "text" (development)."""
    if fmt not in ("json", "text"):
        raise ValueError(f'LOG_FORMAT must be "json" or "text", not {fmt!r}')
    formatters = {
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": JSON_FIELDS,
            "rename_fields": {"levelname": "level", "name": "logger"},
            "timestamp": "time",  # ISO 8601, UTC
            # uvicorn's coloured copy of its message, and django.request's request object.
            "reserved_attrs": [*RESERVED_ATTRS, "color_message", "request", "taskName"],
        },
        "text": {"format": TEXT_FORMAT},
    }
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_id": {"()": "config.logs.RequestIdFilter"}},
        "formatters": {fmt: formatters[fmt]},
        "handlers": {
            "console": {
                "class": "logging.StreamHandler",
                "formatter": fmt,
                "filters": ["request_id"],
            }
        },
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            # uvicorn set up handlers of its own before loading Django: its lines (the
            # access log included) go through ours instead, in the same format.
            "uvicorn": {"handlers": [], "propagate": True},
            "uvicorn.access": {"handlers": [], "propagate": True},
            # django-guid says at INFO that every request got an id: noise.
            "django_guid": {"level": "WARNING"},
        },
    }


# --- Celery: the request id travels with the task ----------------------------------------


@signals.before_task_publish.connect
def _carry_request_id(headers: dict[str, Any] | None = None, **kwargs: Any) -> None:
    request_id = guid.get()
    if request_id and headers is not None:
        headers.setdefault(TASK_HEADER, request_id)


@signals.task_prerun.connect
def _adopt_request_id(task: Any = None, **kwargs: Any) -> None:
    if task is None or task.request.is_eager:
        return  # run inside the request (eager Celery): it keeps the request's id
    guid.set(task.request.get(TASK_HEADER) or uuid.uuid4().hex)


@signals.task_postrun.connect
def _drop_request_id(task: Any = None, **kwargs: Any) -> None:
    if task is not None and not task.request.is_eager:
        guid.set(None)


@signals.setup_logging.connect
def _use_django_logging(**kwargs: Any) -> None:
    """A Celery worker logs through Django's LOGGING, not a format of its own (having a
    receiver here is what stops Celery from configuring the root logger)."""
    from logging.config import dictConfig

    from django.conf import settings

    dictConfig(settings.LOGGING)
