"""Browser tests: a real uvicorn server in a subprocess, on its own fresh database, and a
headless Chromium driven by Playwright.

Nothing here uses the Django test database: the server is a separate process reached only
over HTTP and websockets. Its database is created here and dropped afterwards:
- DATABASE_URL set to PostgreSQL: a new database `cardhall_e2e_<random>` on that server;
- otherwise: a SQLite file in a pytest temporary directory.
REDIS_URL, when set, is passed through, so the server's channel layer is Redis.
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

REPO_ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
STARTUP_TIMEOUT = 30.0
LOG_TAIL_LINES = 80


@dataclass
class LiveServer:
    url: str
    process: subprocess.Popen
    log_path: Path
    env: dict[str, str]  # the server's environment, for `manage` against its database

    def manage(self, *args: str) -> None:
        """Run a management command against the live server's database."""
        _manage(self.env, *args)

    def log_tail(self, lines: int = LOG_TAIL_LINES) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return "(no server log)"
        return "\n".join(text.splitlines()[-lines:])

    def is_running(self) -> bool:
        return self.process.poll() is None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def _fresh_database(directory: Path) -> Iterator[str]:
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


def _start_match_ids_at_random(database_url: str) -> None:
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


def _server_env(database_url: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != "CELERY_BROKER_URL"}
    env.update(
        DATABASE_URL=database_url,
        DEBUG="0",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        FAST_PASSWORD_HASHER="1",
        MATCH_POLL_SECONDS="600",
        DJANGO_SETTINGS_MODULE="config.settings",
        PYTHONUNBUFFERED="1",
    )
    return env  # REDIS_URL, when set, is passed through: the channel layer is then Redis


def _manage(env: dict[str, str], *args: str) -> None:
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


@pytest.fixture(scope="session")
def e2e_server(tmp_path_factory) -> Iterator[LiveServer]:
    """uvicorn serving the project (DEBUG=0, eager Celery) on a free port and a fresh DB."""
    directory = tmp_path_factory.mktemp("e2e-server")
    with _fresh_database(directory) as database_url:
        env = _server_env(database_url)
        _manage(env, "migrate", "--noinput")
        _start_match_ids_at_random(database_url)
        # DEBUG=0 serves static files through WhiteNoise's manifest storage: collect first.
        _manage(env, "collectstatic", "--noinput", "--verbosity", "0")

        port = _free_port()
        log_path = directory / "server.log"
        with open(log_path, "wb") as log:
            process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "uvicorn",
                    "config.asgi:application",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    str(port),
                ],
                cwd=REPO_ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        server = LiveServer(f"http://127.0.0.1:{port}", process, log_path, env)
        try:
            _wait_until_healthy(server)
            yield server
            died = not server.is_running()
        finally:
            if server.is_running():
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(timeout=10)
        if died:
            pytest.fail(
                f"The server died during the tests (exit {process.returncode}):\n"
                f"{server.log_tail()}",
                pytrace=False,
            )


@pytest.fixture(autouse=True)
def _fast_and_clean():
    """Replaces the suite-wide fixture of that name (tests/conftest.py) for these tests.

    They use neither this process's settings nor its cache, and clearing a Redis cache
    flushes the whole Redis database, channel-layer groups included: that would cut the
    pushes of any live server sharing it (this one, or another run's).
    """
    yield


@pytest.fixture(scope="session")
def live_server_url(e2e_server: LiveServer) -> str:
    return e2e_server.url


@pytest.fixture(scope="session")
def chromium_browser():
    """A headless Chromium (Debian's); the test is skipped only if it is not installed."""
    if not CHROMIUM.exists():
        message = f"Chromium is not installed at {CHROMIUM}: browser tests need it"
        if os.environ.get("CI_STRICT"):
            pytest.fail(message)  # CI installs it: a missing browser is a broken run, not a skip
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield browser
        finally:
            browser.close()
