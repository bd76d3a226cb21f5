"""Browser tests: a real uvicorn server in a subprocess, on its own fresh database, and a
headless Chromium driven by Playwright.

The server, its database and their clean-up are tests/live.py's: nothing here uses the
Django test database.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

from tests.live import LiveServer, served
from tests.push_service import PushService, push_service, vapid_key_pair

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
    with served(tmp_path_factory.mktemp("e2e-server")) as server:
        yield server


class PushServer(NamedTuple):
    server: LiveServer
    service: PushService  # our own push service on localhost, in this process
    public_key: str  # the server's VAPID public key (base64url)


@pytest.fixture(scope="module")
def push_server(tmp_path_factory) -> Iterator[PushServer]:
    """A server of the module's own with Web Push on: VAPID keys, localhost endpoints
    allowed (`WEBPUSH_ALLOW_LOCALHOST`), and our push service (tests/push_service.py).

    Not the session's `e2e_server`: with push on, every other test's invitations and turns
    would be pushed too.
    """
    public, private = vapid_key_pair()
    directory = tmp_path_factory.mktemp("push-server")
    with (
        push_service() as service,
        served(
            directory,
            WEBPUSH_VAPID_PUBLIC_KEY=public,
            WEBPUSH_VAPID_PRIVATE_KEY=private,
            WEBPUSH_ALLOW_LOCALHOST="1",
        ) as server,
    ):
        yield PushServer(server, service, public)


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
