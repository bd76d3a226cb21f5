"""A Celery worker killed with kill -9 in the middle of an AI move: the move is made exactly
once, within a bounded time (docs/operations.md, "Outages").

Real processes on a throwaway redis-server (the broker, the cache and the channel layer):
a worker whose AI thinks slowly once (tests/tasks/slow_ai_worker.py) takes the AI task of
a new match; the test kills it while the AI thinks. The task was delivered and not
acknowledged (acks_late):
- the whole worker killed (a lost machine, a container killed): the task stays in
  Kombu's "unacked" set until it is older than the visibility timeout; then a live
  worker's restore sweep puts it back on its queue, and a new worker makes the move;
- only the process running the task killed (the OOM killer), its parent alive:
  reject_on_worker_lost puts the task back at once, and the next process makes the move.
Either way the log has one move for that ply, and the sweeper finds nothing more to do.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.live import (
    QUIET_WORKER,
    LiveProcess,
    _running,
    _spawn,
    _wait_for_log,
    fresh_database,
    live_celery_worker,
    manage,
    prepare_database,
    server_env,
)
from tests.realtime.live_redis import needs_redis, throwaway_redis

pytestmark = [needs_redis, pytest.mark.worker]

VISIBILITY = 6  # CELERY_VISIBILITY_TIMEOUT for these workers (300 in production)
RESTORE = 1  # CELERY_UNACKED_RESTORE_SECONDS (10 in production)
STARTUP = 25.0  # seconds a worker may take to start on a busy machine
WAIT = 60.0

AI_FIRST = {"deal": {"decks": [[[20, 150]] * 4, [[20, 150]] * 4], "first": 1}}
NEW_MATCH = f"""
from accounts.services import profile_ensure
from django.contrib.auth import get_user_model
from games import services
user = get_user_model().objects.create_user(username="ann", password="x" * 12)
profile_ensure(user=user)
match = services.match_create(creator=user, game_slug="dogblade", opponent="ai",
                              options={json.dumps(AI_FIRST)})
print("MATCH", match.pk)
"""


@pytest.fixture(autouse=True)
def _fast_and_clean():
    """Replaces the suite-wide fixture: nothing here uses this process's cache."""
    yield


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[dict[str, str]]:
    """One database and one throwaway Redis (broker, cache, channel layer) for the module;
    each test runs its own workers on them (`worker_env`)."""
    directory = tmp_path_factory.mktemp("worker-killed")
    with fresh_database(directory) as database_url, throwaway_redis() as redis:
        env = server_env(
            database_url,
            REDIS_URL=redis.url,
            CELERY_BROKER_URL=f"redis://127.0.0.1:{redis.port}/2",
            SLOW_AI_SECONDS="120",
        )
        env.pop("REDIS_CACHE_URL", None)
        prepare_database(env)
        yield env


def worker_env(site: dict[str, str], directory: Path, **settings_env: str) -> dict[str, str]:
    """The module's environment, with this test's own slow-AI mark and settings."""
    return site | {"SLOW_AI_MARK": str(directory / "thinking")} | settings_env


@contextmanager
def slow_worker(env: dict[str, str], log_path: Path, *pool: str) -> Iterator[LiveProcess]:
    command = [sys.executable, "-m", "tests.tasks.slow_ai_worker", "-A", "config", "worker",
               *pool, "--loglevel", "INFO", *QUIET_WORKER]  # fmt: skip
    worker = LiveProcess(_spawn(command, env, log_path), log_path, env)
    try:
        _wait_for_log(worker, "ready.")
        yield worker
    finally:
        if worker.is_running():
            worker.process.kill()
            worker.process.wait(10)


def new_ai_match(env: dict[str, str], directory: Path) -> int:
    """A match whose AI is to move first; its task is sent to the broker at the commit."""
    out = directory / "match.txt"
    code = NEW_MATCH.replace("ann", directory.name[-20:])  # a new player for each test
    manage(env, "shell", "-c", code + f"\nopen({str(out)!r}, 'w').write(str(match.pk))")
    return int(out.read_text())


def thinking_pid(env: dict[str, str]) -> int:
    """The process whose AI is thinking (the slow worker wrote it), once it is."""
    mark = Path(env["SLOW_AI_MARK"])
    deadline = time.monotonic() + WAIT
    while not (mark.exists() and mark.read_text().strip()):
        assert time.monotonic() < deadline, "the slow worker never started the AI's move"
        time.sleep(0.05)
    return int(mark.read_text())


def delivered_at(env: dict[str, str]) -> float:
    """When the worker took the task from the broker, on this process's monotonic clock: the
    moment the broker's visibility timeout counts from (kombu's unacked index holds it, as
    wall time). The AI's mark comes later, by the task's start and this test's polling:
    on a slow machine, more than a second later."""
    import redis

    client = redis.Redis.from_url(env["CELERY_BROKER_URL"])
    try:
        taken = client.zrange("unacked_index", 0, -1, withscores=True)
    finally:
        client.close()
    assert len(taken) == 1, taken
    return time.monotonic() - (time.time() - taken[0][1])


def moves(env: dict[str, str], match_id: int) -> list[tuple[int, int]]:
    """(ply, seat) of every logged move, straight from the database."""
    url = env["DATABASE_URL"]
    query = "SELECT ply, seat FROM games_move WHERE match_id = %s ORDER BY ply"
    if url.startswith("postgres"):
        import psycopg

        dsn = urlunsplit(urlsplit(url)._replace(scheme="postgresql"))
        with psycopg.connect(dsn) as conn:
            return [tuple(row) for row in conn.execute(query, [match_id]).fetchall()]
    with sqlite3.connect(url.removeprefix("sqlite:///")) as conn:
        return [tuple(row) for row in conn.execute(query.replace("%s", "?"), [match_id])]


def until_moved(env: dict[str, str], match_id: int) -> float:
    """Wait for the AI's move; the monotonic time it was seen."""
    deadline = time.monotonic() + WAIT
    while not moves(env, match_id):
        assert time.monotonic() < deadline, "the AI never moved"
        time.sleep(0.1)
    return time.monotonic()


def test_a_worker_killed_mid_move_leaves_its_task_to_the_next_after_the_visibility_timeout(
    site, tmp_path
):
    env = worker_env(
        site,
        tmp_path,
        CELERY_VISIBILITY_TIMEOUT=str(VISIBILITY),
        CELERY_UNACKED_RESTORE_SECONDS=str(RESTORE),
    )
    with slow_worker(env, tmp_path / "slow.log", "--pool", "solo") as doomed:
        match_id = new_ai_match(env, tmp_path)
        pid = thinking_pid(env)
        delivered = delivered_at(env)
        assert pid == doomed.process.pid  # solo: the worker itself runs the task
        os.kill(pid, signal.SIGKILL)
        doomed.process.wait(10)
        killed = time.monotonic()
    assert moves(env, match_id) == []  # it died before the move

    with live_celery_worker(env, tmp_path / "next.log"):
        moved = until_moved(env, match_id)
        time.sleep(2)  # a second delivery, if there were one, would have moved by now
        assert moves(env, match_id) == [(0, 1)]  # exactly once
    # Not before the visibility timeout (the task was held, not lost or doubled), and
    # within it plus one restore sweep (and the new worker's start).
    assert moved - delivered >= VISIBILITY - 0.5, f"redelivered after {moved - delivered:.1f} s"
    assert moved - killed <= VISIBILITY + RESTORE + STARTUP, f"{moved - killed:.1f} s"
    print(f"moved {moved - delivered:.1f} s after delivery, {moved - killed:.1f} s after kill")


def test_a_pool_process_killed_mid_move_has_its_task_requeued_at_once(site, tmp_path):
    """Prefork, as `make worker` runs it: the parent sees its child die (WorkerLostError)
    and rejects the task back to the queue; the visibility timeout is not waited for."""
    env = worker_env(site, tmp_path)  # the production visibility timeout, 300 s
    pool = ("--pool", "prefork", "--concurrency", "1")
    with slow_worker(env, tmp_path / "slow.log", *pool) as worker, _running(worker, "worker"):
        match_id = new_ai_match(env, tmp_path)
        pid = thinking_pid(env)
        assert pid != worker.process.pid  # the pool's child, not the worker
        os.kill(pid, signal.SIGKILL)
        killed = time.monotonic()
        moved = until_moved(env, match_id)
        time.sleep(2)
        assert moves(env, match_id) == [(0, 1)]  # exactly once
        assert worker.is_running()
    assert moved - killed < 30, f"requeued after {moved - killed:.1f} s"
    log = worker.log_tail(lines=2000)
    assert "WorkerLostError" in log or "SIGKILL" in log, log
