"""Scale-out, shown: two independent servers (separate processes and ports, as on two
machines) on one PostgreSQL database and one Redis, plus a real Celery worker.

- A move posted to server A, exactly as the board's form posts it, reaches the other seat's
  socket held on server B; and the other way round.
- An AI move, computed by the worker, reaches both the player's socket on A and a
  spectator's on B.

The test knows the site only as a browser does: HTML forms over HTTP, and what the match
socket sends. A pushed message either carries the board (`data-ply`) or tells the page to
fetch it (`hx-get`); both count, as both update the page.

Runs only where PostgreSQL and Redis are configured (DATABASE_URL, REDIS_URL; the broker is
CELERY_TEST_BROKER_URL, else REDIS_URL): .ci/run sets them where they answer.
"""

from __future__ import annotations

import html
import http.cookiejar
import json
import os
import re
import secrets
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser

import pytest
from websockets.sync.client import ClientConnection, connect

from tests.live import (
    LiveProcess,
    LiveServer,
    fresh_database,
    live_cache_url,
    live_celery_worker,
    live_server,
    prepare_database,
    server_env,
)

DATABASE_URL = os.environ.get("DATABASE_URL", "")
REDIS_URL = os.environ.get("REDIS_URL", "")
BROKER_URL = os.environ.get("CELERY_TEST_BROKER_URL", "") or REDIS_URL

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.worker,
    pytest.mark.skipif(
        not (DATABASE_URL.startswith("postgres") and REDIS_URL),
        reason="needs PostgreSQL and Redis (set DATABASE_URL and REDIS_URL)",
    ),
]

WAIT = 30.0  # seconds: the bound on every wait (a slow shared machine), never a timing tested
PASSWORD = "Lantern-Fox-4821"
PLY = re.compile(r'\bdata-ply="(\d+)"')
BOARD_FETCH = re.compile(r'hx-get="(/matches/\d+/board/[^"]*)"')
TASK_SUCCEEDED = re.compile(r"Task [\w.]+\[[\w-]+\] succeeded")
SERVER_ERROR = re.compile(r'" 5\d\d\b')  # an access log line answered 5xx


@dataclass
class Cluster:
    a: LiveServer
    b: LiveServer
    worker: LiveProcess
    namespace: str


@pytest.fixture(autouse=True)
def _fast_and_clean():
    """Replaces the suite-wide fixture (tests/conftest.py): this test uses neither this
    process's database nor its cache, and clearing the cache would flush a shared Redis
    database under the live servers."""
    yield


@pytest.fixture(scope="module")
def cluster(tmp_path_factory) -> Iterator[Cluster]:
    directory = tmp_path_factory.mktemp("scale-out")
    namespace = f"cardhall-live-{secrets.token_hex(4)}"
    with fresh_database(directory) as database_url:
        env = server_env(
            database_url,
            CELERY_BROKER_URL=BROKER_URL,  # real Celery: the web processes never run tasks
            DJANGO_SETTINGS_MODULE="tests.live_settings",
            CARDHALL_LIVE_NAMESPACE=namespace,
        )
        prepare_database(env)
        try:
            with (
                live_celery_worker(env, directory / "worker.log") as worker,
                live_server(env, directory / "a.log") as a,
                live_server(env, directory / "b.log") as b,
            ):
                yield Cluster(a, b, worker, namespace)
                for server in (a, b):
                    assert not SERVER_ERROR.search(server.log_tail(lines=10_000)), (
                        f"{server.url} answered 5xx:\n{server.log_tail()}"
                    )
        finally:
            _forget_namespace(namespace)


def _forget_namespace(namespace: str) -> None:
    """Delete this run's keys (queue, cache, channel layer) from the shared Redis; nothing
    else is touched."""
    import redis

    urls = {BROKER_URL, REDIS_URL, live_cache_url(REDIS_URL)}  # the servers' cache
    for url in urls:
        client = redis.Redis.from_url(url)
        try:
            for key in client.scan_iter(match=f"*{namespace}*", count=500):
                client.delete(key)
        finally:
            client.close()


# --- a browser without a browser: cookies, forms, the match socket ---------------------


class _Forms(HTMLParser):
    """Every form of a page: its attributes, and the fields and buttons inside it."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = {name: value or "" for name, value in attrs}
        if tag == "form":
            self.forms.append({"attrs": attributes, "fields": [], "buttons": []})
        elif self.forms and tag in ("input", "select", "textarea"):
            self.forms[-1]["fields"].append(attributes)
        elif self.forms and tag == "button":
            self.forms[-1]["buttons"].append(attributes)


def forms_in(html: str) -> list[dict]:
    parser = _Forms()
    parser.feed(html)
    return parser.forms


def hidden_fields(form: dict) -> dict[str, str]:
    return {
        field["name"]: field.get("value", "")
        for field in form["fields"]
        if field.get("type") == "hidden" and field.get("name")
    }


@dataclass
class Player:
    username: str
    cookies: http.cookiejar.CookieJar = field(default_factory=http.cookiejar.CookieJar)

    def __post_init__(self) -> None:
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def get(self, server: LiveServer, path: str, *, htmx: bool = False) -> tuple[int, str, str]:
        return self._open(urllib.request.Request(server.url + path, headers=_headers(htmx)))

    def post(
        self,
        server: LiveServer,
        path: str,
        fields: dict[str, str],
        *,
        htmx: bool = False,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, str, str]:
        body = urllib.parse.urlencode(fields).encode()
        headers = _headers(htmx) | (headers or {})
        return self._open(urllib.request.Request(server.url + path, data=body, headers=headers))

    def _open(self, request: urllib.request.Request) -> tuple[int, str, str]:
        """(status, body, final path) after redirects; a 5xx fails the test at once."""
        try:
            with self.opener.open(request, timeout=WAIT) as response:
                status, body, url = response.status, response.read().decode(), response.url
        except urllib.error.HTTPError as error:
            status, body, url = error.code, error.read().decode(errors="replace"), error.url
        assert status < 500, f"{request.full_url} answered {status}:\n{body[:2000]}"
        return status, body, urllib.parse.urlsplit(url).path

    def cookie_header(self) -> str:
        return "; ".join(f"{cookie.name}={cookie.value}" for cookie in self.cookies)

    def sign_up(self, server: LiveServer) -> None:
        _, page, _ = self.get(server, "/accounts/signup/")
        form = next(f for f in forms_in(page) if f["attrs"].get("action") == "/accounts/signup/")
        fields = hidden_fields(form) | {
            "username": self.username,
            "email": f"{self.username}@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        }
        status, page, _ = self.post(server, "/accounts/signup/", fields)
        assert status == 200 and self.username in page, f"sign-up failed:\n{page[:2000]}"
        assert any(cookie.name == "sessionid" for cookie in self.cookies)

    def start_match(self, server: LiveServer, **choices: str) -> int:
        """A Dog Blade match for two from the lobby's form; its id."""
        _, page, _ = self.get(server, "/play/")
        form = next(f for f in forms_in(page) if "lobby-form" in f["attrs"].get("class", ""))
        fields = hidden_fields(form) | {
            "game": "dogblade",
            "players": "2",
            "ai_level": "easy",
            "time_control": "",
        }
        status, page, path = self.post(server, "/play/", fields | choices)
        found = re.fullmatch(r"/matches/(\d+)/", path)
        assert status == 200 and found, f"no match was created ({status} {path}):\n{page[:2000]}"
        return int(found[1])

    def submit_form(self, server: LiveServer, match_id: int, action_suffix: str) -> str:
        """Post the match page's form whose action ends with `action_suffix` (join, ...)."""
        _, page, _ = self.get(server, f"/matches/{match_id}/")
        form = next(
            f for f in forms_in(page) if f["attrs"].get("action", "").endswith(action_suffix)
        )
        _, page, _ = self.post(server, form["attrs"]["action"], hidden_fields(form))
        return page

    def board(self, server: LiveServer, match_id: int) -> str:
        status, board, _ = self.get(server, f"/matches/{match_id}/board/", htmx=True)
        assert status == 200, f"board answered {status}"
        return board

    def move_form(self, server: LiveServer, match_id: int) -> dict | None:
        """The match page's first move form, if it is this player's turn, with the CSRF
        token htmx sends with it (the page's `hx-headers`)."""
        _, page, _ = self.get(server, f"/matches/{match_id}/")
        moves = [f for f in forms_in(page) if "move-form" in f["attrs"].get("class", "")]
        if not moves:
            return None
        headers = re.search(r"<body[^>]*\bhx-headers='([^']*)'", page)
        moves[0]["hx-headers"] = json.loads(html.unescape(headers[1])) if headers else {}
        return moves[0]

    def wait_for_turn(self, server: LiveServer, match_id: int) -> dict:
        deadline = time.monotonic() + WAIT
        while (form := self.move_form(server, match_id)) is None:
            assert time.monotonic() < deadline, f"never {self.username}'s turn in {WAIT:.0f} s"
            time.sleep(0.2)
        return form

    def play(self, server: LiveServer, form: dict) -> int:
        """Post a move form as htmx posts it (its hidden fields and the pressed button);
        the ply of the board answered."""
        button = form["buttons"][0]
        fields = hidden_fields(form) | {button["name"]: button["value"]}
        json.loads(fields["move"])  # the button carries the move as JSON
        status, board, _ = self.post(
            server, form["attrs"]["action"], fields, htmx=True, headers=form["hx-headers"]
        )
        assert status == 200, f"the move answered {status}:\n{board[:2000]}"
        return ply_of(board)


def _headers(htmx: bool) -> dict[str, str]:
    return {"HX-Request": "true"} if htmx else {}


def ply_of(board: str) -> int:
    found = PLY.search(board)
    assert found, f"no data-ply in the board:\n{board[:2000]}"
    return int(found[1])


class MatchSocket:
    """The match page's socket, as `who` holds it on `server` (see `match_socket`)."""

    def __init__(self, who: Player, server: LiveServer, socket: ClientConnection) -> None:
        self.who, self.server, self.socket = who, server, socket
        self.seen: list[int | None] = []
        # The hello on (re)connect makes the page catch up; a push must come after it.
        self.ply_at_connect = self._board_ply(self.socket.recv(timeout=WAIT))

    def wait_for_ply(self, at_least: int) -> str:
        """The first board pushed at `at_least` or later (fetched, if the push says so)."""
        deadline = time.monotonic() + WAIT
        while True:
            remaining = deadline - time.monotonic()
            try:
                message = self.socket.recv(timeout=max(remaining, 0.01))
            except TimeoutError:
                pytest.fail(
                    f"{self.who.username}'s socket on {self.server.url} got no board at ply "
                    f"{at_least} within {WAIT:.0f} s (plies pushed: {self.seen}; "
                    f"at connect: {self.ply_at_connect})",
                    pytrace=False,
                )
            board = self._board(message)
            self.seen.append(ply_of(board) if board else None)
            if board and ply_of(board) >= at_least:
                return board

    def _board(self, message: str | bytes) -> str | None:
        text = message.decode() if isinstance(message, bytes) else message
        if PLY.search(text):
            return text
        fetch = BOARD_FETCH.search(text)
        if fetch is None:
            return None
        status, board, _ = self.who.get(self.server, fetch[1].replace("&amp;", "&"), htmx=True)
        return board if status == 200 else None

    def _board_ply(self, message: str | bytes) -> int | None:
        board = self._board(message)
        return ply_of(board) if board else None


@contextmanager
def match_socket(who: Player, server: LiveServer, match_id: int) -> Iterator[MatchSocket]:
    with connect(
        f"ws://{server.url.removeprefix('http://')}/ws/matches/{match_id}/",
        origin=server.url,
        additional_headers={"Cookie": who.cookie_header()},
        open_timeout=WAIT,
        close_timeout=2,
    ) as socket:
        yield MatchSocket(who, server, socket)


# --- the tests ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def players(cluster: Cluster) -> tuple[Player, Player]:
    """Two players, one signed up (and so logged in) on each server."""
    suffix = secrets.token_hex(3)
    first, second = Player(f"ann{suffix}"), Player(f"ben{suffix}")
    first.sign_up(cluster.a)
    second.sign_up(cluster.b)
    return first, second


def test_a_move_posted_to_one_server_reaches_a_socket_on_the_other(cluster, players):
    a, b = cluster.a, cluster.b
    ann, ben = players
    match_id = ann.start_match(a, opponent="player", username=ben.username)
    ben.submit_form(b, match_id, "/join/")

    mover, other = (ann, ben) if ann.move_form(a, match_id) else (ben, ann)
    form = mover.wait_for_turn(a, match_id)
    ply = int(hidden_fields(form)["ply"])

    # The mover posts to A; the other seat's socket is on B.
    with match_socket(other, b, match_id) as on_b, match_socket(mover, a, match_id) as on_a:
        assert mover.play(a, form) == ply + 1
        pushed = on_b.wait_for_ply(ply + 1)
        assert "Your turn!" in pushed, "B pushed a board, but not the other seat's own"

        # And back: the other seat posts to B, and the mover's socket on A hears of it.
        form = other.wait_for_turn(b, match_id)
        assert other.play(b, form) == ply + 2
        assert "Your turn!" in on_a.wait_for_ply(ply + 2)


def test_an_ai_move_made_by_the_worker_reaches_sockets_on_both_servers(cluster, players):
    a, b = cluster.a, cluster.b
    ann, ben = players
    match_id = ann.start_match(a, opponent="ai", ai_level="normal")
    form = ann.wait_for_turn(a, match_id)  # if the AI opened, the worker has moved already
    ply = int(hidden_fields(form)["ply"])

    with (
        match_socket(ann, a, match_id) as player,
        match_socket(ben, b, match_id) as spectator,  # ben holds no seat: he watches
    ):
        assert ann.play(a, form) == ply + 1
        # ann's move, then the AI's reply: each socket gets a board at ply + 2 or later.
        for_player, for_spectator = (s.wait_for_ply(ply + 2) for s in (player, spectator))
        assert "Your turn!" in for_player
        assert "move-form" not in for_spectator and "Your turn!" not in for_spectator
        assert "Your turn!" in ann.board(b, match_id)  # either server tells the same story
    assert TASK_SUCCEEDED.search(cluster.worker.log_tail(lines=10_000)), (
        f"the worker ran no task:\n{cluster.worker.log_tail()}"
    )
