"""Rate limits in the production shape (docs/security.md): uvicorn with two workers,
DEBUG=0, on a throwaway Redis. The two workers share one count (it lives in Redis, not in
a process), and when that Redis is stopped the limits fail open: requests go on, none is
answered 429 or 500.
"""

from __future__ import annotations

import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request
from email.message import Message

import pytest

from tests.realtime.live_redis import needs_redis, production_server, throwaway_redis

pytestmark = [needs_redis]

LIMIT = 5
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@pytest.fixture(autouse=True)
def _fast_and_clean():
    """Replaces the suite-wide fixture (tests/conftest.py): nothing here uses this
    process's cache, and clearing it would flush a shared Redis database."""
    yield


class Browser:
    """An anonymous visitor: cookies kept, a new connection per request (so uvicorn's
    workers take turns)."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        page = self.get("/verify/")
        self.token = TOKEN.search(page).group(1)

    def get(self, path: str) -> str:
        with self.opener.open(self.base_url + path, timeout=10) as response:
            return response.read().decode()

    def post_verify(self) -> tuple[int, Message, str]:
        data = urllib.parse.urlencode({"csrfmiddlewaretoken": self.token, "export": "{x"})
        request = urllib.request.Request(
            self.base_url + "/verify/",
            data=data.encode(),
            headers={"Referer": self.base_url + "/verify/"},
        )
        try:
            with self.opener.open(request, timeout=10) as response:
                return response.status, response.headers, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.headers, error.read().decode()


def test_two_workers_share_one_count_and_fail_open_without_redis(tmp_path_factory):
    directory = tmp_path_factory.mktemp("ratelimit-live")
    with (
        throwaway_redis() as redis,
        production_server(
            directory,
            redis_url=redis.url,
            RATELIMIT_ENABLE="1",
            RATE_LIMIT_VERIFY_IP=f"{LIMIT}/m",
        ) as server,
    ):
        visitor = Browser(server.url)
        answers = [visitor.post_verify() for _ in range(4 * LIMIT)]
        statuses = [status for status, _, _ in answers]
        # Counted per process, each of the two workers would let LIMIT through.
        assert sum(status != 429 for status in statuses) == LIMIT, statuses
        assert max(statuses) < 500, statuses
        status, headers, page = answers[-1]
        assert status == 429
        assert 1 <= int(headers["Retry-After"]) <= 60
        assert "faster than the hall allows" in page

        redis.stop()
        statuses = [visitor.post_verify()[0] for _ in range(LIMIT)]
        assert all(status < 429 for status in statuses), statuses  # let through, no 500
