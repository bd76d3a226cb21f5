"""PostgreSQL restarted, or out of reach: a readable 503, never a 500, and the site recovers
on its own.

The production shape (uvicorn, 2 workers, DEBUG=0, the psycopg pool, Redis) reaches its
database through a TCP proxy of this test's own (tests/tcp_proxy.py): the shared
PostgreSQL is never restarted. `cut()` drops every connection at once and refuses new
ones, as a restarting server does; `restore()` lets them through again. The other failure
is PostgreSQL itself ending this test's connections (`pg_terminate_backend`, on this
test's own database only), as a restart or a failover does to a pool it does not tell.

Sessions here are written to the database only (not to the cache), so loading one needs
the database: with the database gone, that is a 503 too.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from config.websocket import UVICORN_WS
from tests.live import (
    LiveServer,
    _running,
    _spawn,
    _wait_until_healthy,
    free_port,
    fresh_database,
    manage,
    prepare_database,
    server_env,
)
from tests.realtime.live_redis import REDIS_SERVER, throwaway_redis
from tests.tcp_proxy import TcpProxy

DATABASE_URL = os.environ.get("DATABASE_URL", "")

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        not DATABASE_URL.startswith("postgres") or REDIS_SERVER is None,
        reason="needs PostgreSQL (DATABASE_URL) and redis-server for the production shape",
    ),
]

WORKERS = 2
POOL_TIMEOUT = 2.0  # DB_POOL_TIMEOUT of the live server: how long a request waits
POOL_MIN_SIZE = 3  # idle connections each worker's pool keeps open
RECOVERY = 30.0  # seconds: the bound on the site coming back by itself
WAIT = 30.0
CSRF = "a" * 32  # a CSRF cookie of our own, sent back in the header as htmx does
SERVER_ERROR = re.compile(r'" 5\d\d\b')  # an access-log line answered 5xx
UNAVAILABLE = "Cardhall cannot reach its records"  # config.overload.UNREACHABLE_PAGE


@pytest.fixture(autouse=True)
def _fast_and_clean():
    """Replaces the suite-wide fixture: nothing here uses this process's database or cache."""
    yield


@dataclass
class Site:
    server: LiveServer
    proxy: TcpProxy
    database_url: str  # direct, not through the proxy
    match_id: int
    sessions: dict[str, str]  # name -> session key, in the database only


SEED = """
import json
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from accounts.services import profile_ensure
from games import services

def session_for(user):
    session = SessionStore()  # the database only: loading it later needs the database
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key

users = {}
for name in ("ann", "ben"):
    users[name] = get_user_model().objects.create_user(username=name, password="x" * 12)
    profile_ensure(user=users[name])
match = services.match_create(
    creator=users["ann"], game_slug="dogblade", opponent="player", invitee_username="ben"
)
services.match_join(match_id=match.pk, user=users["ben"])
sessions = {name: session_for(user) for name, user in users.items()}
for name, user in users.items():
    sessions.update({f"{name}-fresh-{n}": session_for(user) for n in range(4)})
with open(OUT, "w") as out:
    json.dump({"match": match.pk, "sessions": sessions}, out)
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[Site]:
    directory = tmp_path_factory.mktemp("database-outage")
    with fresh_database(directory) as database_url, throwaway_redis() as redis:
        parts = urlsplit(database_url)
        with TcpProxy(parts.hostname or "127.0.0.1", parts.port or 5432) as proxy:
            through_proxy = urlunsplit(parts._replace(netloc=_netloc(parts, proxy.port)))
            env = server_env(
                through_proxy,
                REDIS_URL=redis.url,
                DB_POOL_TIMEOUT=str(POOL_TIMEOUT),
                DB_POOL_MIN_SIZE=str(POOL_MIN_SIZE),
            )
            env.pop("REDIS_CACHE_URL", None)
            prepare_database(env | {"DATABASE_URL": database_url})
            out = directory / "seed.json"
            code = SEED.replace("OUT", repr(str(out)))
            manage(env | {"DATABASE_URL": database_url}, "shell", "-c", code)
            seeded = json.loads(out.read_text())
            server = _start(env, directory / "server.log")
            with _running(server, "server"):
                _wait_until_healthy(server)
                yield Site(server, proxy, database_url, seeded["match"], seeded["sessions"])
                log = server.log_path.read_text(errors="replace")
                assert "Internal Server Error" not in log, log[-5000:]


def _netloc(parts, port: int) -> str:  # noqa: ANN001
    credentials = parts.netloc.rpartition("@")[0]
    return f"{credentials}@127.0.0.1:{port}" if credentials else f"127.0.0.1:{port}"


def _start(env: dict[str, str], log_path: Path) -> LiveServer:
    port = free_port()
    command = [sys.executable, "-m", "uvicorn", "web.asgi:application", *UVICORN_WS, "--host",
               "127.0.0.1", "--port", str(port), "--workers", str(WORKERS)]  # fmt: skip
    return LiveServer(_spawn(command, env, log_path), log_path, env, url=f"http://127.0.0.1:{port}")


@dataclass
class Answer:
    status: int
    body: str
    headers: dict[str, str]
    seconds: float


def request(site: Site, path: str, *, session: str | None = None, data: dict | None = None,
            htmx: bool = False) -> Answer:  # fmt: skip
    cookies = [f"csrftoken={CSRF}"] + ([f"sessionid={session}"] if session else [])
    headers = {"Cookie": "; ".join(cookies), "X-CSRFToken": CSRF}
    if htmx:
        headers["HX-Request"] = "true"
    body = None
    if data is not None:
        body = json.dumps(data).encode()
        headers["Content-Type"] = "application/json"
    started = time.monotonic()
    wanted = urllib.request.Request(site.server.url + path, data=body, headers=headers)
    try:
        with urllib.request.urlopen(wanted, timeout=WAIT) as response:
            status, text, got = response.status, response.read().decode(), response.headers
    except urllib.error.HTTPError as error:
        status, text, got = error.code, error.read().decode(errors="replace"), error.headers
    headers = {name.lower(): value for name, value in got.items()}
    return Answer(status, text, headers, time.monotonic() - started)


def pages(site: Site, session_for: dict[str, str]) -> list[tuple[str, dict]]:
    """(label, request arguments): every kind of page, anonymous and signed in."""
    match = f"/matches/{site.match_id}/"
    return [
        ("home, anonymous", {"path": "/"}),
        ("lobby, anonymous", {"path": "/play/"}),
        ("open tables", {"path": "/tables/"}),
        ("login page", {"path": "/accounts/login/"}),
        ("match page, anonymous", {"path": match}),
        ("home, signed in", {"path": "/", "session": session_for["ann"]}),
        ("match page, signed in", {"path": match, "session": session_for["ann"]}),
        ("board, signed in", {"path": match + "board/", "session": session_for["ben"],
                              "htmx": True}),
        ("my matches", {"path": "/matches/", "session": session_for["ben"]}),
        ("a move", {"path": match + "move/", "session": session_for["ann"],
                    "data": {"ply": 0, "move": {"type": "attack"}}, "htmx": True}),
    ]  # fmt: skip


NEEDS_THE_DATABASE = {"match page, anonymous", "home, signed in", "match page, signed in",
                      "board, signed in", "my matches", "a move", "open tables"}  # fmt: skip


def check_outage_answers(answers: dict[str, Answer]) -> None:
    """Every page that needs the database is the readable 503; the others may render."""
    for label, answer in answers.items():
        if answer.status == 200 and label not in NEEDS_THE_DATABASE:
            continue  # e.g. the login page: no database needed to show it
        assert answer.status == 503, f"{label}: {answer.status}\n{answer.body[:2000]}"
        assert UNAVAILABLE in answer.body, f"{label}: not the readable page\n{answer.body[:2000]}"
        assert answer.headers.get("retry-after"), label
        assert answer.seconds < POOL_TIMEOUT + 5, f"{label} took {answer.seconds:.1f} s"


def until_all_answer(site: Site, session_for: dict[str, str]) -> tuple[float, list[int]]:
    """Ask for every page until each answers as it should; (seconds taken, every status
    seen on the way). Fails past RECOVERY."""
    started, seen = time.monotonic(), []
    while True:
        answers = {label: request(site, **how) for label, how in pages(site, session_for)}
        seen += [answer.status for answer in answers.values()]
        if all(answer.status < 500 for answer in answers.values()):
            return time.monotonic() - started, seen
        assert time.monotonic() - started < RECOVERY, (
            f"not recovered in {RECOVERY:.0f} s: "
            f"{ {label: answer.status for label, answer in answers.items()} }"
        )
        time.sleep(0.5)


def test_while_the_database_is_unreachable_pages_are_a_readable_503_then_it_recovers(site):
    assert request(site, f"/matches/{site.match_id}/", session=site.sessions["ann"]).status == 200
    site.proxy.cut()  # a restart: every connection dropped, new ones refused
    try:
        fresh = {"ann": site.sessions["ann-fresh-0"], "ben": site.sessions["ben-fresh-0"]}
        answers = {label: request(site, **how) for label, how in pages(site, fresh)}
        health = request(site, "/healthz")
    finally:
        site.proxy.restore()  # the restarted server accepts connections again

    check_outage_answers(answers)
    assert health.status == 503 and json.loads(health.body)["database"] == "down"
    # Back by itself: no restart of the web server, no 500 on the way.
    fresh = {"ann": site.sessions["ann-fresh-1"], "ben": site.sessions["ben-fresh-1"]}
    took, statuses = until_all_answer(site, fresh)
    assert all(status in (200, 204, 302, 409, 503) for status in statuses), statuses
    print(f"recovered in {took:.1f} s after the restore; statuses on the way: {statuses}")
    assert request(site, "/healthz").status == 200


def test_connections_ended_by_the_server_fail_one_request_per_process_at_most(site):
    """PostgreSQL ends every connection of this test's database, as a restart or a failover
    does. The first request of each process that meets a dead connection answers the
    readable 503 and has the pool test the rest: no second failure, no 500."""
    session_for = {"ann": site.sessions["ann-fresh-2"], "ben": site.sessions["ben-fresh-2"]}
    until_all_answer(site, session_for)
    deadline = time.monotonic() + WAIT  # both pools back to their idle connections
    while backends(site.database_url, end=False) < WORKERS * POOL_MIN_SIZE:
        assert time.monotonic() < deadline, "the pools never refilled"
        time.sleep(0.2)
    ended = backends(site.database_url, end=True)
    assert ended >= WORKERS * POOL_MIN_SIZE, f"only {ended} connections ended"

    session_for = {"ann": site.sessions["ann-fresh-3"], "ben": site.sessions["ben-fresh-3"]}
    statuses = []
    for _ in range(3):  # one request at a time, as many as every idle connection twice over
        answers = {label: request(site, **how) for label, how in pages(site, session_for)}
        for label, answer in answers.items():
            statuses.append(answer.status)
            if answer.status >= 500:
                assert answer.status == 503 and UNAVAILABLE in answer.body, (label, answer)
    failed = statuses.count(503)
    assert failed <= WORKERS, f"{failed} requests failed on dead connections: {statuses}"
    assert all(status < 500 for status in statuses[-len(pages(site, session_for)) :]), statuses


def backends(database_url: str, *, end: bool) -> int:
    """How many other connections this test's own database has; `end`: end them all
    (pg_terminate_backend, as a restart does)."""
    import psycopg

    parts = urlsplit(database_url)
    name = parts.path.lstrip("/")
    assert name.startswith("cardhall_e2e_"), name  # never anyone else's database
    dsn = urlunsplit(parts._replace(scheme="postgresql"))
    what = "pg_terminate_backend(pid)" if end else "true"
    with psycopg.connect(dsn, autocommit=True) as conn:
        rows = conn.execute(
            f"SELECT {what} FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            [name],
        ).fetchall()
    return sum(1 for (done,) in rows if done)
