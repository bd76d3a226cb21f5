"""The Celery app. With no CELERY_BROKER_URL, tasks run eagerly in the calling process.

Sending a task never fails what asked for it: tasks are sent after a commit (a move, a
new table), and a broker that does not answer must not turn a committed move into an
error, nor make every request wait for it. While the broker is unreachable, sends are
dropped, logged once per outage (`config.outage`), and tried again every few seconds.
Nothing is lost for good: what a dropped task would have done is swept up once the broker
is back (docs/operations.md, "Outages"): the AI's moves by `games.tasks.sweep_automation`,
reminders by `inbox.tasks.send_due_reminders`, overdue clocks by `games.tasks.sweep_clocks`.
"""

from __future__ import annotations

import os
import threading
from typing import Any

import kombu.exceptions
import redis
from celery import Celery, Task
from celery.utils import uuid

from config.outage import Outage

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# The broker cannot be reached, or timed out (kombu re-raises the transport's connection
# errors as its OperationalError; the rest are caught in case one is not).
BROKER_OUTAGE_ERRORS: tuple[type[BaseException], ...] = (
    kombu.exceptions.OperationalError,
    redis.ConnectionError,
    redis.TimeoutError,
    OSError,
)


def _count_unsent() -> None:
    metrics.ERRORS.labels("task_not_sent").inc()  # config.metrics, imported below


broker_outage = Outage("Celery broker", on_miss=_count_unsent)


class FailSoftTask(Task):
    """A task whose sending goes without the broker while it is unreachable.

    The answer is then the result handle of a task that was not sent (every task here
    ignores its result, and nothing waits on one). Eager tasks (no broker) run as usual,
    and raise as usual.
    """

    def apply_async(
        self, args: Any = None, kwargs: Any = None, task_id: str | None = None, **options: Any
    ) -> Any:
        if self.app.conf.task_always_eager:
            return super().apply_async(args, kwargs, task_id=task_id, **options)
        task_id = task_id or uuid()
        if broker_outage.should_skip():
            return self.AsyncResult(task_id)
        try:
            result = super().apply_async(args, kwargs, task_id=task_id, **options)
        except BROKER_OUTAGE_ERRORS as error:
            broker_outage.failed(error)
            return self.AsyncResult(task_id)
        broker_outage.succeeded()
        return result


app = Celery("cardhall", task_cls=FailSoftTask)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def task_send(name: str, *args: Any) -> Any:
    """Send the task registered as `name` ("games.tasks.advance_automatic_seats"), as its
    `.delay(*args)` would (eager without a broker; fail-soft without one that answers).

    Tasks sit above services (they call them), so a service, or games.effects, that
    imported a task would run an arrow back up: they send it by its name instead, as a view
    reverses a URL by its name (docs/architecture.md, "Rules the tools enforce").
    tests/tasks/test_task_names.py checks that every name sent is a registered task.
    """
    return task_named(name).delay(*args)


def task_named(name: str) -> Task:
    """The task registered as `name`, the apps' tasks modules imported on first need (as a
    worker imports them at start). One thread imports them; any other that needs a task
    meanwhile waits for it: two threads importing at once each found the registry half
    filled and raised NotRegistered (a fresh process's first sends, from requests running
    side by side: tests/tasks/test_task_names.py)."""
    if name not in app.tasks:
        with _importing:
            if name not in app.tasks:
                app.loader.import_default_modules()
    return app.tasks[name]


_importing = threading.Lock()


# Celery signals of their own (no domain logic): the request id travels with each task
# (config.logs); task durations, failures and live workers are counted (config.metrics).
from config import logs, metrics  # noqa: E402,F401
