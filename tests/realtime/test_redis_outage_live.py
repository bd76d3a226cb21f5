"""Redis down while people play, in the production shape: uvicorn with 2 workers, DEBUG=0,
the Redis cache (sessions too) and channel layer on a throwaway redis-server of this test.

- Hung (SIGSTOP: connections accepted, nothing answered): pages and moves still answer
  quickly, since each process waits for one timeout, then goes without Redis.
- Killed: moves commit and pages render (home, lobby, match page, board fragment, move
  POST); open sockets are closed with 1013 ("try again later") and new ones refused the
  same way, never a 500; the other player's board catches up by polling. Each process
  logs each outage once, not once per call. Restarted (empty, same port): a new socket
  is pushed the next move again, and no server was restarted.
"""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from dataclasses import dataclass

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from config.outage import RETRY_SECONDS
from tests.realtime.live_redis import (
    needs_redis,
    production_server,
    seed_match_sockets,
    throwaway_redis,
)

pytestmark = [needs_redis]

WORKERS = 2
WAIT = 30.0  # the bound on every wait; never a timing being tested
QUICK = 3.0  # seconds: no request may take longer while Redis is down or hung
CSRF = "b" * 32  # our own CSRF cookie, sent back in the header as htmx does
PLY = re.compile(r'\bdata-ply="(\d+)"')
VERSION = re.compile(r'\bdata-version="([^"]+)"')
SERVER_ERROR = re.compile(r'\\?" 5\d\d\b')  # an access-log line answered 5xx
CACHE_DOWN = re.compile(r"Redis cache at \S+ unreachable")
LAYER_DOWN = re.compile(r"Redis channel layer at \S+ unreachable")


@pytest.fixture(autouse=True)
def _fast_and_clean():
    """Replaces the suite-wide fixture: nothing here uses this process's own cache."""
    yield


@dataclass
class Seat:
    """A signed-in player of the match, as a browser: cookies, htmx headers, a socket."""

    server_url: str
    match_id: int
    session: str | None  # None: an anonymous spectator

    def get(self, path: str, *, htmx: bool = False) -> tuple[int, str, float]:
        return self._open(
            urllib.request.Request(self.server_url + path, headers=self._headers(htmx))
        )

    def move(self, ply: int) -> tuple[int, str, float]:
        body = json.dumps({"ply": ply, "move": {"type": "attack"}}).encode()
        headers = self._headers(True) | {"Content-Type": "application/json"}
        url = f"{self.server_url}/matches/{self.match_id}/move/"
        return self._open(urllib.request.Request(url, data=body, headers=headers))

    def board(self, have: str = "") -> str:
        query = f"?have={have}" if have else ""
        status, body, _ = self.get(f"/matches/{self.match_id}/board/{query}", htmx=True)
        assert status == 200, f"the board answered {status}:\n{body[:2000]}"
        return body

    def socket(self) -> ClientConnection:
        ws_url = self.server_url.replace("http://", "ws://") + f"/ws/matches/{self.match_id}/"
        headers = {"Cookie": f"sessionid={self.session}"} if self.session else {}
        return connect(ws_url, origin=self.server_url, additional_headers=headers,
                       open_timeout=WAIT, close_timeout=2)  # fmt: skip

    def _headers(self, htmx: bool) -> dict[str, str]:
        cookies = [f"csrftoken={CSRF}"] + ([f"sessionid={self.session}"] if self.session else [])
        headers = {"Cookie": "; ".join(cookies), "X-CSRFToken": CSRF}
        return headers | ({"HX-Request": "true"} if htmx else {})

    def _open(self, request: urllib.request.Request) -> tuple[int, str, float]:
        started = time.monotonic()
        try:
            with urllib.request.urlopen(request, timeout=WAIT) as response:
                status, body = response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            status, body = error.code, error.read().decode(errors="replace")
        return status, body, time.monotonic() - started


def ply_of(html: str) -> int:
    found = PLY.search(html)
    assert found, f"no data-ply in:\n{html[:2000]}"
    return int(found[1])


def to_move(first: Seat, second: Seat) -> tuple[Seat, Seat]:
    """(the seat to move, the other), from their own boards."""
    return (first, second) if "Your turn!" in first.board() else (second, first)


def play(first: Seat, second: Seat) -> tuple[int, Seat, Seat]:
    """One move by whoever is to act, as their board's form posts it: the new ply."""
    mover, other = to_move(first, second)
    ply = ply_of(mover.board())
    status, board, took = mover.move(ply)
    assert status == 200, f"the move answered {status}:\n{board[:2000]}"
    assert ply_of(board) == ply + 1
    assert took < QUICK, f"a move took {took:.1f} s"
    return ply + 1, mover, other


def pushed_ply(socket: ClientConnection, at_least: int, within: float = WAIT) -> int:
    """The ply of the first board pushed at `at_least` or later (the hello is skipped);
    TimeoutError if none comes `within` seconds."""
    deadline = time.monotonic() + within
    while True:
        message = socket.recv(timeout=max(deadline - time.monotonic(), 0.01))
        found = PLY.search(message if isinstance(message, str) else message.decode())
        if found and int(found[1]) >= at_least:
            return int(found[1])


def every_page(seats: list[Seat]) -> None:
    """Home, lobby, the match page, the board fragment: each seat and a spectator, all 200
    and quick."""
    for seat in seats:
        for path, htmx in [("/", False), ("/play/", False), (f"/matches/{seat.match_id}/", False),
                           (f"/matches/{seat.match_id}/board/", True)]:  # fmt: skip
            status, body, took = seat.get(path, htmx=htmx)
            assert status == 200, f"{path} answered {status}:\n{body[:2000]}"
            assert took < QUICK, f"{path} took {took:.1f} s"


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    directory = tmp_path_factory.mktemp("redis-outage")
    with throwaway_redis() as redis, production_server(directory, redis_url=redis.url,
                                                       workers=WORKERS) as server:  # fmt: skip
        (match_id, first), (_, second), (_, _) = seed_match_sockets(server, directory, matches=1)
        seats = [Seat(server.url, match_id, first), Seat(server.url, match_id, second)]
        yield redis, server, seats, Seat(server.url, match_id, None)


def log_since(server, mark: int) -> str:
    return server.log_path.read_text(errors="replace")[mark:]


def test_a_hung_redis_costs_a_timeout_per_process_not_per_request(live):
    redis, server, (ann, ben), spectator = live
    play(ann, ben)  # everything warm: sessions cached, pools connected
    mark = len(server.log_path.read_text(errors="replace"))
    redis.pause()
    try:
        started = time.monotonic()
        every_page([ann, ben, spectator])
        for _ in range(3):
            play(ann, ben)
        took = time.monotonic() - started
    finally:
        redis.resume()
    # 27 requests; each process waits REDIS_TIMEOUT (1 s) at most once per dependency
    # (the cache, the channel layer), then goes without Redis until its next try.
    assert took < 15, f"27 requests with Redis hung took {took:.1f} s"
    print(f"27 requests with Redis hung: {took:.1f} s")
    log = log_since(server, mark)
    assert not SERVER_ERROR.search(log), log[-5000:]
    assert len(CACHE_DOWN.findall(log)) <= WORKERS, log[-5000:]


def test_with_redis_killed_moves_commit_pages_render_and_pushes_resume(live):
    """Last in this module: it kills the throwaway Redis and starts another."""
    redis, server, (ann, ben), spectator = live
    time.sleep(6)  # past the retry interval: both processes use Redis again after the hang
    # Pushes work before the outage. A process whose last call in the hang above failed
    # just before the resume may still go without Redis for up to RETRY_SECONDS: a push
    # lost then is healed by the page's poll, as designed, so a later move's push counts.
    deadline = time.monotonic() + WAIT
    while True:
        _mover, other = to_move(ann, ben)
        with other.socket() as socket:
            socket.recv(timeout=WAIT)  # the hello: grouped, presence recorded
            ply, _, _ = play(ann, ben)
            try:
                assert pushed_ply(socket, ply, within=RETRY_SECONDS + 1) == ply
            except TimeoutError:
                assert time.monotonic() < deadline, "pushes never worked before the outage"
                continue

            seen_by_other = VERSION.search(other.board())[1]
            mark = len(server.log_path.read_text(errors="replace"))
            redis.kill()
            with pytest.raises(ConnectionClosed) as closed:  # its receive loop lost Redis
                socket.recv(timeout=WAIT)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        break

    # Redis is down: pages render, moves commit, boards catch up by polling.
    started = time.monotonic()
    every_page([ann, ben, spectator])
    plies = [play(ann, ben)[0] for _ in range(4)]
    print(f"12 pages and 4 moves with Redis killed: {time.monotonic() - started:.1f} s")
    assert plies == list(range(ply + 1, ply + 5))
    caught_up = other.board(have=seen_by_other)  # the poll: an older version in hand
    assert ply_of(caught_up) == ply + 4
    with pytest.raises((InvalidStatus, ConnectionClosed)) as refused, other.socket() as socket:
        socket.recv(timeout=WAIT)  # a page reconnecting: refused, or closed with 1013
    if isinstance(refused.value, InvalidStatus):
        assert refused.value.response.status_code == 403  # the handshake, not a 500
    else:
        assert refused.value.rcvd.code == 1013

    log = log_since(server, mark)
    assert not SERVER_ERROR.search(log), log[-5000:]
    assert "Traceback" not in log, log[-5000:]
    assert "push to the channel layer failed" not in log
    assert 1 <= len(CACHE_DOWN.findall(log)) <= WORKERS, log[-5000:]  # once per process
    assert 1 <= len(LAYER_DOWN.findall(log)) <= WORKERS, log[-5000:]

    # Redis is back, empty, on the same port; no server restarts. Each process tries it
    # again at its next call after the retry interval (config.outage.RETRY_SECONDS).
    redis.start()
    restarted = time.monotonic()
    time.sleep(RETRY_SECONDS + 1)
    deadline = time.monotonic() + WAIT
    while True:  # the page's socket reconnects until the server uses Redis again
        try:
            with other.socket() as socket:
                socket.recv(timeout=WAIT)  # the hello: joined its group again
                ply, _, _ = play(ann, ben)
                # The process that took the move may still be within its retry interval
                # (config.outage: a call that failed just before Redis came back keeps it
                # going without Redis up to RETRY_SECONDS more): that push is lost, as
                # designed (the page's poll heals it), and a later move's push arrives.
                assert pushed_ply(socket, ply, within=RETRY_SECONDS + 1) == ply
                print(f"pushed again {time.monotonic() - restarted:.1f} s after the restart")
                break
        except (InvalidStatus, ConnectionClosed, TimeoutError):
            assert time.monotonic() < deadline, "pushes never resumed"
            time.sleep(0.5)
    log = log_since(server, mark)
    assert "reachable again" in log
    assert not SERVER_ERROR.search(log), log[-5000:]
