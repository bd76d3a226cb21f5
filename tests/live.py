"""Live processes for the tests that talk to the project only over HTTP and websockets (the
browser tests, the scale-out test): a fresh database, uvicorn servers and Celery workers in
subprocesses, each stopped and the database dropped afterwards.

Nothing here uses the Django test database. The database is created here:
- DATABASE_URL set to PostgreSQL: a new database `cardhall_e2e_<random>` on that server;
- otherwise: a SQLite file in the given directory.
REDIS_URL, when set, is passed through, so the servers' channel layer is Redis; their cache
is a database of its own on that Redis (`live_cache_url`).
"""

from __future__ import annotations

import os
import secrets
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from config.websocket import UVICORN_WS

REPO_ROOT = Path(__file__).resolve().parents[1]
STARTUP_TIMEOUT = 30.0
STOP_TIMEOUT = 10.0
LOG_TAIL_LINES = 80
QUIET_WORKER = ["--without-heartbeat", "--without-gossip", "--without-mingle"]
# The live servers' cache database on REDIS_URL's Redis. Not the settings' default (the
# next one): a unit-test run sharing that Redis clears its cache before and after every
# test (tests/conftest.py), flushing that whole database several times a second. A live
# server's cache there would forget its presence (who has a match open), and
# `games.notifications.match_changed` pushes a board only to the pages of players present:
# an open board would stop getting the AI's replies and the other players' moves.
LIVE_CACHE_DB = 9


@dataclass
class LiveProcess:
    """A subprocess of the project, with its log and its environment."""

    process: subprocess.Popen
    log_path: Path
    env: dict[str, str]  # its environment, for `manage` against its database

    def manage(self, *args: str) -> None:
        """Run a management command against this process's database."""
        manage(self.env, *args)

    def log_tail(self, lines: int = LOG_TAIL_LINES) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])

    def is_running(self) -> bool:
        return self.process.poll() is None


@dataclass
class LiveServer(LiveProcess):
    url: str = ""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def fresh_database(directory: Path) -> Iterator[str]:
    """Yield the DATABASE_URL of a new, empty database; drop it afterwards."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        yield f"sqlite:///{directory / 'e2e.sqlite3'}"
        return

    import psycopg
    from psycopg import sql

    name = f"cardhall_e2e_{secrets.token_hex(6)}"
    parts = urlsplit(url)
    maintenance = urlunsplit(parts._replace(scheme="postgresql", path="/postgres"))
    with psycopg.connect(maintenance, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(maintenance, autocommit=True) as conn:
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )


def start_match_ids_at_random(database_url: str) -> None:
    """Push the first match id far from 1.

    Socket groups are named after match ids, so two servers sharing one Redis (another
    test run, a developer's `make run`) would otherwise push each other's match 1 boards.
    """
    start = secrets.randbelow(10**9) + 10**6
    if database_url.startswith("postgres"):
        import psycopg

        dsn = urlunsplit(urlsplit(database_url)._replace(scheme="postgresql"))
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("SELECT setval(pg_get_serial_sequence('games_match', 'id'), %s)", [start])
    else:
        path = database_url.removeprefix("sqlite:///")
        with sqlite3.connect(path) as conn:
            moved = conn.execute(
                "UPDATE sqlite_sequence SET seq = ? WHERE name = 'games_match'", [start]
            ).rowcount
            if not moved:
                conn.execute(
                    "INSERT INTO sqlite_sequence (name, seq) VALUES ('games_match', ?)", [start]
                )


def live_cache_url(redis_url: str) -> str:
    """The live servers' cache on the Redis of `redis_url`: database `LIVE_CACHE_DB`."""
    return urlunsplit(urlsplit(redis_url)._replace(path=f"/{LIVE_CACHE_DB}"))


def server_env(database_url: str, **overrides: str) -> dict[str, str]:
    """The production shape on `database_url` (DEBUG=0); eager Celery unless `overrides`
    name a CELERY_BROKER_URL. With REDIS_URL, the cache is `live_cache_url` unless
    `overrides` name a REDIS_CACHE_URL."""
    env = {key: value for key, value in os.environ.items() if key != "CELERY_BROKER_URL"}
    env.update(
        DATABASE_URL=database_url,
        DEBUG="0",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        FAST_PASSWORD_HASHER="1",
        MATCH_POLL_SECONDS="600",
        DJANGO_SETTINGS_MODULE="config.settings",
        PYTHONUNBUFFERED="1",
        SECURE_HTTPS="0",  # plain HTTP on 127.0.0.1: no HTTPS redirect, HSTS or secure cookies
        RATELIMIT_ENABLE="0",  # tests must not trip limits by accident; their own test sets 1
    )
    if env.get("REDIS_URL") and "REDIS_CACHE_URL" not in overrides:
        env["REDIS_CACHE_URL"] = live_cache_url(overrides.get("REDIS_URL") or env["REDIS_URL"])
    env.update(overrides)
    return env  # REDIS_URL, when set, is passed through: the channel layer is then Redis


def manage(env: dict[str, str], *args: str) -> None:
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    if result.returncode != 0:
        pytest.fail(
            f"manage.py {' '.join(args)} failed ({result.returncode}):\n"
            f"{result.stdout[-4000:]}\n{result.stderr[-4000:]}",
            pytrace=False,
        )


def prepare_database(env: dict[str, str]) -> None:
    """Migrate the database of `env`, move its match ids, collect static files (DEBUG=0
    serves them through WhiteNoise's manifest storage)."""
    manage(env, "migrate", "--noinput")
    start_match_ids_at_random(env["DATABASE_URL"])
    manage(env, "collectstatic", "--noinput", "--verbosity", "0")


def _wait_until_healthy(server: LiveServer) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT
    last_error = ""
    while time.monotonic() < deadline:
        if not server.is_running():
            pytest.fail(
                f"The server exited with {server.process.returncode} while starting:\n"
                f"{server.log_tail()}",
                pytrace=False,
            )
        try:
            with urllib.request.urlopen(f"{server.url}/healthz", timeout=2) as response:
                if response.status == 200:
                    return
                last_error = f"HTTP {response.status}"
        except urllib.error.HTTPError as error:
            last_error = f"HTTP {error.code}"
        except OSError as error:
            last_error = str(error)
        time.sleep(0.2)
    pytest.fail(
        f"/healthz did not answer 200 within {STARTUP_TIMEOUT:.0f} s ({last_error}):\n"
        f"{server.log_tail()}",
        pytrace=False,
    )


def _stop(live: LiveProcess) -> None:
    if live.is_running():
        live.process.terminate()
        try:
            live.process.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            live.process.kill()
            live.process.wait(timeout=STOP_TIMEOUT)


@contextmanager
def _running(live: LiveProcess, what: str) -> Iterator[None]:
    """Stop `live` on the way out; fail if it died while in use."""
    try:
        yield
        died = not live.is_running()
    finally:
        _stop(live)
    if died:
        pytest.fail(
            f"The {what} died during the tests (exit {live.process.returncode}):\n"
            f"{live.log_tail()}",
            pytrace=False,
        )


def _spawn(command: list[str], env: dict[str, str], log_path: Path) -> subprocess.Popen:
    with open(log_path, "wb") as log:
        return subprocess.Popen(
            command, cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
        )


@contextmanager
def live_server(env: dict[str, str], log_path: Path) -> Iterator[LiveServer]:
    """uvicorn serving the project on a free port, answering /healthz, until the block ends."""
    port = free_port()
    command = [sys.executable, "-m", "uvicorn", "web.asgi:application", *UVICORN_WS]
    process = _spawn([*command, "--host", "127.0.0.1", "--port", str(port)], env, log_path)
    server = LiveServer(process, log_path, env, url=f"http://127.0.0.1:{port}")
    with _running(server, f"server on port {port}"):
        _wait_until_healthy(server)
        yield server


@contextmanager
def served(directory: Path, **overrides: str) -> Iterator[LiveServer]:
    """A server of its own: a fresh database, migrated, and uvicorn on it (`server_env`
    with `overrides`), its log in `directory`; all of it gone when the block ends."""
    with fresh_database(directory) as database_url:
        env = server_env(database_url, **overrides)
        prepare_database(env)
        with live_server(env, directory / "server.log") as server:
            yield server


@contextmanager
def live_celery_worker(env: dict[str, str], log_path: Path) -> Iterator[LiveProcess]:
    """A real Celery worker (one process, `--pool solo`) on the broker `env` names."""
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo"]
    process = _spawn([*command, "--loglevel", "INFO", *QUIET_WORKER], env, log_path)
    worker = LiveProcess(process, log_path, env)
    with _running(worker, "Celery worker"):
        _wait_for_log(worker, "ready.")
        yield worker


def _wait_for_log(live: LiveProcess, text: str) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT
    while time.monotonic() < deadline:
        if not live.is_running():
            break
        if text in live.log_tail(lines=200):
            return
        time.sleep(0.2)
    pytest.fail(f"{text!r} not in the log within {STARTUP_TIMEOUT:.0f} s:\n{live.log_tail()}")
