"""Logged-in players, their match sockets, and one pair's match loop (aiohttp).

Each player has its own HTTP session (cookie jar, keep-alive connection), as a browser
would. A move is posted exactly as htmx posts the board's form: the form's hidden fields and
the pressed button's `move`, with htmx's headers (HX-Request, HX-Current-URL, HX-Target,
X-CSRFToken from the page's hx-headers). The other seat holds the match socket open and
waits for the push. The push is the board fragment, which a page swaps in as it is, so by
default that board carries the seat's next move; with `refetch` the seat also fetches its
board fragment after each push (the workload of passes 1 to 7, kept for comparison).
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections import Counter
from dataclasses import dataclass, field

import aiohttp

from benchmarks.load.board import MoveForm, board_ply, board_status, parse_move_form, socket_name

TIMEOUT = aiohttp.ClientTimeout(total=30)
PUSH_TIMEOUT = 10.0
LOGINS_PER_ADDRESS = 25  # allauth allows 30 logins a minute per IP address
# uvicorn closes a keep-alive connection idle for 5 s. A browser that sends a request on a
# connection the server has just closed sends it again on a new one; aiohttp does not (it
# reported "Server disconnected" for a POST sent on a player's connection after a pause
# between phases). So players let an idle connection go before the server does.
KEEPALIVE_SECONDS = 4.0
# Every socket offers compression as a browser does: with 15, aiohttp offers
# "permessage-deflate; client_max_window_bits", what Chromium sends. The server's answer
# decides what a socket costs it (config.websocket); without the offer, the run measured
# sockets no browser opens.
BROWSER_DEFLATE = 15
_CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
_ERRORS = re.compile(r'class="[^"]*error[^"]*"[^>]*>\s*(?:<li>)?([^<]{1,200})')


@dataclass
class Recorder:
    """Everything one phase saw, client side (times in ms)."""

    post_ms: list[float] = field(default_factory=list)  # from the intended start
    post_sent: list[float] = field(default_factory=list)  # epoch s of each POST's send
    post_service_ms: list[float] = field(default_factory=list)  # from the actual send
    board_ms: list[float] = field(default_factory=list)
    socket_ms: list[float] = field(default_factory=list)  # POST start -> other seat's push
    arrivals: list[tuple[int, int, float]] = field(default_factory=list)  # match, ply, epoch s
    statuses: Counter = field(default_factory=Counter)  # "move 200", "board 500", ...
    errors: list[str] = field(default_factory=list)  # the first few 5xx / failures
    missing_pushes: int = 0
    moves_ok: int = 0
    matches_finished: int = 0

    def status(self, kind: str, code: int | str, body: str = "") -> None:
        self.statuses[f"{kind} {code}"] += 1
        is_failure = not isinstance(code, int) or code >= 500
        if is_failure and len(self.errors) < 20:
            self.errors.append(f"{kind} {code}: {body[:300]}")


class Player:
    def __init__(self, base_url: str, username: str, address: str) -> None:
        self.base_url = base_url
        self.username = username
        self.session = aiohttp.ClientSession(
            base_url=base_url,
            connector=aiohttp.TCPConnector(
                local_addr=(address, 0), limit=4, keepalive_timeout=KEEPALIVE_SECONDS
            ),
            cookie_jar=aiohttp.CookieJar(unsafe=True),  # cookies for an IP-address host
            timeout=TIMEOUT,
        )
        self.socket: aiohttp.ClientWebSocketResponse | None = None
        self.pushes: asyncio.Queue = asyncio.Queue()
        self._reader: asyncio.Task | None = None
        self.socket_name = ""  # what the socket's hello named it: sent with moves
        self.received = 0  # messages its sockets brought: pushes and hellos

    @property
    def csrf_cookie(self) -> str:
        for cookie in self.session.cookie_jar:
            if cookie.key == "csrftoken":
                return cookie.value
        return ""

    async def login(self, password: str) -> None:
        """Through allauth's real login form: GET it (CSRF cookie + token), POST it."""
        async with self.session.get("/accounts/login/") as response:
            page = await response.text()
        token = _CSRF_INPUT.search(page)
        data = {"login": self.username, "password": password}
        data["csrfmiddlewaretoken"] = token.group(1) if token else self.csrf_cookie
        headers = {"Origin": self.base_url, "Referer": self.base_url + "/accounts/login/"}
        async with self.session.post(
            "/accounts/login/", data=data, headers=headers, allow_redirects=False
        ) as response:
            body = await response.text()
            if response.status != 302:
                said = _ERRORS.findall(body) or [body[:200]]
                raise RuntimeError(
                    f"login of {self.username} answered {response.status}: {' / '.join(said)}"
                )

    def htmx_headers(
        self, match_id: int, *, trigger: str = "", post: bool = False
    ) -> dict[str, str]:
        headers = {
            "HX-Request": "true",
            "HX-Current-URL": f"{self.base_url}/matches/{match_id}/",
            "HX-Target": "board",
            "X-CSRFToken": self.csrf_cookie,
            "Origin": self.base_url,
            "Referer": f"{self.base_url}/matches/{match_id}/",
        }
        if trigger:
            headers["HX-Trigger"] = trigger
        if post and self.socket_name:  # as cardhall.js adds it to a page's posts
            headers["X-Board-Socket"] = self.socket_name
        return headers

    async def open_socket(self, match_id: int) -> None:
        await self.close_socket()
        self.pushes = asyncio.Queue()
        self.socket = await self.session.ws_connect(
            f"/ws/matches/{match_id}/",
            origin=self.base_url,
            heartbeat=None,
            max_msg_size=0,
            compress=BROWSER_DEFLATE,
        )
        self._reader = asyncio.create_task(self._read(self.socket))

    async def close_socket(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
            self._reader = None
        if self.socket is not None:
            with contextlib.suppress(Exception):
                await self.socket.close()
            self.socket = None

    async def _read(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        async for message in socket:
            if message.type == aiohttp.WSMsgType.TEXT:
                self.received += 1
                self.pushes.put_nowait((time.perf_counter(), time.time(), message.data))

    def forget_pushes(self) -> None:
        while not self.pushes.empty():
            self.pushes.get_nowait()

    async def next_push(self, min_ply: int, timeout: float) -> tuple[float, float, str] | None:
        """(perf_counter, epoch, text) of the first push showing `min_ply` or later (or
        naming no ply: a bare hint), else None after `timeout`."""
        deadline = time.perf_counter() + timeout
        while (left := deadline - time.perf_counter()) > 0:
            try:
                arrived, epoch, text = await asyncio.wait_for(self.pushes.get(), left)
            except TimeoutError:
                return None
            ply = board_ply(text)
            if ply is None or ply >= min_ply:
                return arrived, epoch, text
        return None

    async def close(self) -> None:
        await self.close_socket()
        await self.session.close()


class Pair:
    """Two players and their current match; its reserve matches come next, in order."""

    def __init__(self, players: list[Player], match_id: int, reserve: list[int]) -> None:
        self.players = players
        self.match_id = match_id
        self.reserve = list(reserve)
        self.boards = ["", ""]
        self.is_done = False  # out of matches, or broken

    def form(self, seat: int) -> MoveForm | None:
        return parse_move_form(self.boards[seat])

    def mover(self) -> int | None:
        for seat in (0, 1):
            if self.form(seat) is not None:
                return seat
        return None

    async def open(self, recorder: Recorder) -> None:
        """Both seats open the match page's socket, take the connect message, fetch boards."""
        for player in self.players:
            await player.open_socket(self.match_id)
        for player in self.players:
            hello = await player.next_push(0, 5.0)  # the re-fetch hint every (re)connect sends
            player.socket_name = socket_name(hello[2]) if hello is not None else ""
        await self.refresh(recorder)

    async def refresh(self, recorder: Recorder) -> None:
        for seat in (0, 1):
            await self.fetch_board(seat, recorder, trigger="board-sync")

    async def fetch_board(
        self, seat: int, recorder: Recorder, *, trigger: str = "", keep: bool = True
    ) -> float:
        """GET the seat's board fragment; its time in ms. `keep`: the seat plays on from it
        (a sampled fetch, which a page opening would make, leaves the pair's boards alone)."""
        player = self.players[seat]
        url = f"/matches/{self.match_id}/board/"
        started = time.perf_counter()
        try:
            async with player.session.get(
                url, headers=player.htmx_headers(self.match_id, trigger=trigger)
            ) as response:
                body = await response.text()
                code: int | str = response.status
        except (aiohttp.ClientError, TimeoutError) as error:
            body, code = repr(error), type(error).__name__
        elapsed = (time.perf_counter() - started) * 1000
        recorder.status("board", code, body)
        if code == 200 and keep:
            self.boards[seat] = body
        return elapsed

    async def step(
        self, recorder: Recorder, intended: float | None = None, *, refetch: bool = False
    ) -> bool:
        """One move: the seat to act posts its form, the other seat waits for the push,
        which is its new board (`refetch`: and then fetches its board too, as the earlier
        passes did). False if no move was made (it re-synced or moved on instead)."""
        mover = self.mover()
        if mover is None:
            return await self._no_move(recorder)
        form = self.form(mover)
        assert form is not None
        player, other = self.players[mover], self.players[1 - mover]
        other.forget_pushes()  # nothing for this ply can have arrived before the POST
        sent, sent_epoch = time.perf_counter(), time.time()
        try:
            async with player.session.post(
                form.action, data=form.data(), headers=player.htmx_headers(self.match_id, post=True)
            ) as response:
                body = await response.text()
                code: int | str = response.status
                retry_after = response.headers.get("Retry-After", "")
        except (aiohttp.ClientError, TimeoutError) as error:
            body, code, retry_after = repr(error), type(error).__name__, ""
        done = time.perf_counter()
        recorder.status("move", code, body)
        recorder.post_ms.append((done - (intended if intended is not None else sent)) * 1000)
        recorder.post_service_ms.append((done - sent) * 1000)
        recorder.post_sent.append(sent_epoch)
        if code != 200:
            # A player whose tap failed taps again a moment later (at most a second, or
            # what Retry-After asks for if less), after the page has re-fetched its board.
            await asyncio.sleep(_retry_pause(code, retry_after))
            await self.refresh(recorder)
            return False
        recorder.moves_ok += 1
        self.boards[mover] = body
        push = await other.next_push((form.ply or 0) + 1, PUSH_TIMEOUT)
        if push is None:
            recorder.missing_pushes += 1
        else:
            recorder.socket_ms.append((push[0] - sent) * 1000)
            recorder.arrivals.append((self.match_id, form.ply or 0, push[1]))
        if refetch or push is None or board_ply(push[2]) is None:
            # A lost push, or a bare hint: the page's poll (or the hint) fetches the board.
            elapsed = await self.fetch_board(1 - mover, recorder, trigger="board-sync")
            recorder.board_ms.append(elapsed)
        else:
            self.boards[1 - mover] = push[2]  # the page swaps the pushed board in
        if board_status(self.boards[mover]) == "finished":
            recorder.matches_finished += 1
            await self.next_match(recorder)
        return True

    async def _no_move(self, recorder: Recorder) -> bool:
        statuses = {board_status(board) for board in self.boards}
        if "finished" in statuses:
            await self.next_match(recorder)
        else:
            await asyncio.sleep(0.05)
            await self.refresh(recorder)
            if self.mover() is None:
                self.is_done = True  # neither seat can move: report it, stop this pair
                recorder.errors.append(f"match {self.match_id}: no move form on either board")
        return False

    async def next_match(self, recorder: Recorder) -> None:
        """The guest accepts the next invitation through the join form; both open it."""
        if not self.reserve:
            self.is_done = True
            for player in self.players:
                await player.close_socket()
            return
        self.match_id = self.reserve.pop(0)
        guest = self.players[1]
        data = {"csrfmiddlewaretoken": guest.csrf_cookie}
        headers = {
            "Origin": guest.base_url,
            "Referer": f"{guest.base_url}/matches/{self.match_id}/",
        }
        try:
            async with guest.session.post(
                f"/matches/{self.match_id}/join/", data=data, headers=headers, allow_redirects=False
            ) as response:
                body = await response.text()
                code: int | str = response.status
        except (aiohttp.ClientError, TimeoutError) as error:
            body, code = repr(error), type(error).__name__
        recorder.status("join", code, body)
        await self.open(recorder)


def _retry_pause(code: int | str, retry_after: str) -> float:
    if code in (400, 409):
        return 0.0  # a stale page: the re-fetched board carries the current move
    try:
        return min(1.0, max(0.0, float(retry_after)))
    except ValueError:
        return 0.2


class IdleSockets:
    """Anonymous spectators' sockets on matches nobody plays: they only sit there."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.session = aiohttp.ClientSession(
            base_url=base_url,
            connector=aiohttp.TCPConnector(limit=0),
            timeout=aiohttp.ClientTimeout(total=60),
        )
        self.sockets: list[aiohttp.ClientWebSocketResponse] = []
        self.readers: list[asyncio.Task] = []
        self.failed = 0
        self.messages = 0

    async def open(self, count: int, match_ids: list[int], concurrency: int = 50) -> None:
        gate = asyncio.Semaphore(concurrency)

        async def one(index: int) -> None:
            async with gate:
                try:
                    socket = await self.session.ws_connect(
                        f"/ws/matches/{match_ids[index % len(match_ids)]}/",
                        origin=self.base_url,
                        heartbeat=None,
                        compress=BROWSER_DEFLATE,
                    )
                except (aiohttp.ClientError, TimeoutError):
                    self.failed += 1
                    return
                self.sockets.append(socket)
                self.readers.append(asyncio.create_task(self._drain(socket)))

        await asyncio.gather(*(one(index) for index in range(count)))

    async def _drain(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        async for _ in socket:
            self.messages += 1

    @property
    def open_count(self) -> int:
        return sum(1 for socket in self.sockets if not socket.closed)

    async def close(self) -> None:
        for reader in self.readers:
            reader.cancel()
        await asyncio.gather(*self.readers, return_exceptions=True)
        gate = asyncio.Semaphore(200)

        async def shut(socket: aiohttp.ClientWebSocketResponse) -> None:
            async with gate:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(socket.close(), 5)

        await asyncio.gather(*(shut(socket) for socket in self.sockets))
        self.sockets, self.readers = [], []
        await self.session.close()


async def log_in_all(
    base_url: str, usernames: list[str], password: str, concurrency: int = 10
) -> dict[str, Player]:
    """Every player through the login form, 25 per loopback source address (127.0.0.2+):
    allauth limits logins per IP, and real players don't share one address."""
    players = {
        name: Player(base_url, name, f"127.0.0.{2 + index // LOGINS_PER_ADDRESS}")
        for index, name in enumerate(usernames)
    }
    gate = asyncio.Semaphore(concurrency)

    async def one(player: Player) -> None:
        async with gate:
            await player.login(password)

    await asyncio.gather(*(one(player) for player in players.values()))
    return players
