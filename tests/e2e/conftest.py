"""Browser tests: a real uvicorn server in a subprocess, on its own fresh database, and a
headless Chromium driven by Playwright.

The server, its database and their clean-up are tests/live.py's: nothing here uses the
Django test database.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.live import LiveServer, fresh_database, live_server, prepare_database, server_env

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def e2e_server(tmp_path_factory) -> Iterator[LiveServer]:
    """uvicorn serving the project (DEBUG=0, eager Celery) on a free port and a fresh DB."""
    directory = tmp_path_factory.mktemp("e2e-server")
    with fresh_database(directory) as database_url:
        env = server_env(database_url)
        prepare_database(env)
        with live_server(env, directory / "server.log") as server:
            yield server


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
