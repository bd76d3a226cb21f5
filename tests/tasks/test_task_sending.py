"""Sending a task with the broker down: dropped at once, logged once, counted, and sent
again as soon as the broker is back (config.celery_app.FailSoftTask).

A throwaway redis-server is the broker, killed and started again on its port. What the
dropped tasks would have done is caught up by the beat's sweepers:
tests/tasks/test_broker_outage.py shows it end to end.
"""

from __future__ import annotations

import importlib
import logging
import time

import pytest
import redis as redis_py
from kombu import pools as kombu_pools
from prometheus_client import REGISTRY

from config.celery_app import app as celery_app
from config.outage import Outage
from games import tasks
from tests.realtime.live_redis import needs_redis, throwaway_redis

RETRY = 0.3
celery_module = importlib.import_module("config.celery_app")  # `config.celery_app` is the app


@pytest.fixture(autouse=True)
def _fast_and_clean():
    """Replaces the suite-wide fixture: nothing here uses this process's cache."""
    yield


def drop_broker_connections() -> None:
    kombu_pools.reset()
    if celery_app._pool is not None:
        celery_app._pool.force_close_all()
        celery_app._pool = None
    celery_app.amqp._producer_pool = None


def unsent() -> float:
    return REGISTRY.get_sample_value("cardhall_errors_total", {"kind": "task_not_sent"}) or 0.0


@pytest.fixture
def broker(monkeypatch):
    """This process sends to a throwaway broker (not eagerly), with a fresh outage state."""
    with throwaway_redis() as server:
        saved = {key: celery_app.conf[key] for key in ("broker_url", "task_always_eager")}
        celery_app.conf.update(
            broker_url=f"redis://127.0.0.1:{server.port}/0", task_always_eager=False
        )
        drop_broker_connections()
        monkeypatch.setattr(
            celery_module,
            "broker_outage",
            Outage("Celery broker", retry_seconds=RETRY, on_miss=celery_module._count_unsent),
        )
        try:
            yield server
        finally:
            celery_app.conf.update(**saved)
            drop_broker_connections()


def queued(server) -> int:
    with redis_py.Redis(port=server.port, db=0) as client:
        return client.llen("celery")


@needs_redis
def test_with_the_broker_down_a_task_is_dropped_at_once_and_logged_once(broker, caplog):
    caplog.set_level(logging.INFO, logger="cardhall.outage")
    tasks.sweep_clocks.delay()
    assert queued(broker) == 1  # the broker up: sent

    broker.kill()
    before = unsent()
    started = time.monotonic()
    results = [tasks.sweep_clocks.delay() for _ in range(20)]  # 20 moves' after-commit sends
    took = time.monotonic() - started
    assert all(result.id for result in results)  # a handle, never an exception
    assert took < 3.0, f"20 sends with the broker down took {took:.1f} s"
    assert unsent() - before == 20
    down = [r.getMessage() for r in caplog.records if "Celery broker" in r.getMessage()]
    assert len(down) == 1 and "unreachable" in down[0], down

    broker.start()  # back, empty, on the same port
    deadline = time.monotonic() + 10
    while queued(broker) == 0:  # sent again at the first try after the retry interval
        assert time.monotonic() < deadline, "sending never resumed"
        tasks.sweep_clocks.delay()
        time.sleep(RETRY / 3)
    assert any("reachable again" in r.getMessage() for r in caplog.records)


def test_eager_tasks_still_raise(settings):
    """Without a broker tasks run in the process; their errors are not swallowed."""
    assert celery_app.conf.task_always_eager
    with pytest.raises(TypeError):
        tasks.advance_automatic_seats.delay()  # a missing argument: a bug, raised
