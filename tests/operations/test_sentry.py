"""Sentry is ready through SENTRY_DSN: off (nothing sent) without it; with it, an error in a
request reaches Sentry tagged with the request id, and without hidden cards, locals or
request bodies.

Each case loads the settings in a fresh process (sentry_sdk.init patches Django, Celery
and redis-py for the whole process). The DSN points at a throwaway HTTP server of the
test's own on 127.0.0.1, which keeps what it is sent.
"""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
import threading
import uuid
import zlib
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.operations.faulty import HIDDEN_CARD

REPO_ROOT = Path(__file__).resolve().parents[2]

INSPECT_CLIENT = """
import json, sentry_sdk
from django.conf import settings
settings.SENTRY_DSN  # loads the settings, which start Sentry when it is set
client = sentry_sdk.get_client()
print(json.dumps({
    "active": client.is_active(),
    "integrations": sorted(client.integrations),
    "pii": client.options.get("send_default_pii"),
    "locals": client.options.get("include_local_variables"),
    "bodies": client.options.get("max_request_body_size"),
}))
"""

CRASH_A_REQUEST = """
import logging, sentry_sdk, django
django.setup()
from django.test import Client
from django.test.utils import override_settings

with override_settings(ROOT_URLCONF="tests.operations.faulty", ALLOWED_HOSTS=["testserver"]):
    client = Client(raise_request_exception=False)
    response = client.post(
        "/faulty/crash/",
        {"cards": "HIDDEN", "move": '{"type": "play", "card": HIDDEN}'},
        HTTP_X_REQUEST_ID="THE_ID",
    )
    assert response.status_code == 500, response.status_code
logging.getLogger("games").error("a hand went astray", extra={"hand": ["HIDDEN"]})
sentry_sdk.flush(10)
"""


class Collector(BaseHTTPRequestHandler):
    """Keeps each envelope posted to it, decompressed."""

    envelopes: list[bytes] = []

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        encoding = self.headers.get("Content-Encoding", "")
        if encoding == "gzip":
            body = gzip.decompress(body)
        elif encoding == "deflate":
            body = zlib.decompress(body)
        elif encoding == "br":
            pytest.fail("the SDK sent brotli; ask it for gzip", pytrace=False)
        self.envelopes.append(body)
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args: object) -> None:
        """Quiet."""


@pytest.fixture
def sentry_server() -> Iterator[tuple[str, list[bytes]]]:
    Collector.envelopes = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), Collector)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://public@127.0.0.1:{server.server_port}/1", Collector.envelopes
    finally:
        server.shutdown()
        server.server_close()


def _run(code: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("SENTRY_")}
    environment |= {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'unused.sqlite3'}",
        "DEBUG": "0",
        "SECURE_HTTPS": "0",
        **env,
    }
    result = subprocess.run(
        [sys.executable, "-c", code], env=environment, cwd=REPO_ROOT,
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-4000:]
    return result


def test_without_a_dsn_sentry_is_off(tmp_path):
    report = json.loads(_run(INSPECT_CLIENT, tmp_path).stdout.splitlines()[-1])
    assert report["active"] is False


def test_with_a_dsn_it_is_on_with_the_integrations_and_without_pii(tmp_path, sentry_server):
    dsn, _ = sentry_server
    report = json.loads(_run(INSPECT_CLIENT, tmp_path, SENTRY_DSN=dsn).stdout.splitlines()[-1])
    assert report["active"] is True
    assert {"django", "celery", "redis", "logging"} <= set(report["integrations"])
    assert report["pii"] is False and report["locals"] is False and report["bodies"] == "never"


def test_an_error_arrives_tagged_and_scrubbed(tmp_path, sentry_server):
    dsn, envelopes = sentry_server
    request_id = uuid.uuid4().hex
    code = CRASH_A_REQUEST.replace("HIDDEN", HIDDEN_CARD).replace("THE_ID", request_id)
    _run(code, tmp_path, SENTRY_DSN=dsn, SENTRY_ENVIRONMENT="test")

    events = [item for envelope in envelopes for item in _events(envelope)]
    crash = next(e for e in events if e.get("exception"))
    (error,) = crash["exception"]["values"]
    assert error["type"] == "RuntimeError" and error["value"] == "a bug, while holding 2 cards"
    assert crash["tags"]["request_id"] == request_id
    assert crash["environment"] == "test"
    assert crash["transaction"] == "/faulty/crash/"
    assert not crash["request"].get("data")  # no body: the posted move names cards
    assert all("vars" not in frame for frame in error["stacktrace"]["frames"])
    logged = next(e for e in events if e.get("logentry", {}).get("message") == "a hand went astray")
    assert logged["extra"]["hand"] == "[Filtered]"
    # The hidden card is nowhere in what was sent: not in a body, a local, an extra. (The
    # events do carry source lines around each frame: code, never a game's data.)
    assert all(HIDDEN_CARD.encode() not in envelope for envelope in envelopes)


def _events(envelope: bytes) -> Iterator[dict]:
    """The event items of a Sentry envelope (a header line, then header/payload pairs)."""
    lines = envelope.split(b"\n")
    index = 1
    while index + 1 < len(lines):
        header = json.loads(lines[index])
        payload = lines[index + 1]
        if header.get("type") == "event":
            yield json.loads(payload)
        index += 2
