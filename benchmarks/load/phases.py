"""What each phase of the run offers and measures (see __main__ for the order)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

from benchmarks.load.players import IdleSockets, Pair, Recorder
from benchmarks.load.schedule import open_loop
from benchmarks.load.stats import rate, summary

DRAIN = 15.0  # seconds allowed for in-flight work after a window closes
HEALTH_EVERY = 0.25  # seconds between two readiness checks while a phase runs
BOARD_FETCHES_PER_SECOND = 10.0  # timed board fetches beside the fixed-rate moves
ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Peaks:
    pg: int = 0
    redis_ours: int = 0
    redis_total: int = 0


@dataclass
class Sampler:
    """Samples PostgreSQL connections to the run's database and Redis clients, 4 times a
    second, keeping the peak of each phase."""

    pg_dsn: str
    db_name: str
    redis_url: str
    redis_dbs: set[int]
    phase: str = "setup"
    peaks: dict[str, Peaks] = field(default_factory=dict)
    _task: asyncio.Task | None = None

    async def __aenter__(self) -> Sampler:
        import psycopg
        import redis

        self._pg = psycopg.connect(self.pg_dsn, autocommit=True)
        self._redis = redis.Redis.from_url(self.redis_url)
        self._task = asyncio.create_task(self._loop())
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._task:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._pg.close()
        self._redis.close()

    def _sample(self) -> tuple[int, int, int]:
        pg = self._pg.execute(
            "select count(*) from pg_stat_activity where datname = %s and pid <> pg_backend_pid()",
            [self.db_name],
        ).fetchone()[0]
        clients = self._redis.client_list()
        ours = sum(1 for client in clients if int(client.get("db", -1)) in self.redis_dbs)
        return pg, ours - 1, len(clients)  # less the sampler's own connection

    async def _loop(self) -> None:
        while True:
            try:
                pg, ours, total = await asyncio.to_thread(self._sample)
            except Exception:  # a sample lost under load is not worth stopping the run
                await asyncio.sleep(0.25)
                continue
            peak = self.peaks.setdefault(self.phase, Peaks())
            peak.pg, peak.redis_ours = max(peak.pg, pg), max(peak.redis_ours, ours)
            peak.redis_total = max(peak.redis_total, total)
            await asyncio.sleep(0.25)

    def now(self) -> tuple[int, int, int]:
        return self._sample()


def move_count(pg_dsn: str) -> int:
    import psycopg

    with psycopg.connect(pg_dsn) as connection:
        return connection.execute("select count(*) from games_move").fetchone()[0]


async def moves_committed(pg_dsn: str) -> int:
    return await asyncio.to_thread(move_count, pg_dsn)


def slowest(recorder: Recorder, count: int = 12) -> list[list[float]]:
    """The slowest move POSTs as [epoch second sent, ms from the intended start], slowest
    first: when a tail happened, to set beside the servers' own logs."""
    timed = sorted(zip(recorder.post_ms, recorder.post_sent, strict=True), reverse=True)
    return [[round(sent, 3), round(ms, 1)] for ms, sent in timed[:count]]


def phase_report(recorder: Recorder, *, seconds: float, commit_ms: list[float]) -> dict:
    fives = {key: count for key, count in recorder.statuses.items() if _is_5xx(key)}
    return {
        "seconds": round(seconds, 1),
        "moves_ok_client": recorder.moves_ok,
        "move_post_ms_from_intended_start": summary(recorder.post_ms),
        "move_post_ms_from_send": summary(recorder.post_service_ms),
        "slowest_move_posts": slowest(recorder),
        "board_get_ms": summary(recorder.board_ms),
        "socket_ms_from_post_start": summary(recorder.socket_ms),
        "socket_ms_from_move_row_created": summary(commit_ms),
        "missing_pushes": recorder.missing_pushes,
        "statuses": dict(sorted(recorder.statuses.items())),
        "5xx": sum(fives.values()),
        "errors": recorder.errors[:10],
        "matches_finished": recorder.matches_finished,
    }


def _is_5xx(key: str) -> bool:
    code = key.rsplit(" ", 1)[-1]
    return not code.isdigit() or int(code) >= 500


async def closed_loop_moves(
    pairs: list[Pair], *, warmup: float, window: float, pg_dsn: str, refetch: bool = False
) -> tuple[Recorder, dict]:
    """Every pair moves as fast as it can; durable moves are Move rows committed in the
    window (counted in PostgreSQL at its start and end), not client counts. The waiting
    seat takes its new board from the push, as a page does (`refetch`: and fetches it too)."""
    recorder, stop = Recorder(), asyncio.Event()

    async def loop(pair: Pair) -> None:
        while not stop.is_set() and not pair.is_done:
            await pair.step(recorder, refetch=refetch)

    tasks = [asyncio.create_task(loop(pair)) for pair in pairs if not pair.is_done]
    await asyncio.sleep(warmup)
    ok_before, before, started = recorder.moves_ok, await moves_committed(pg_dsn), time.monotonic()
    received_before = _received(pairs)
    await asyncio.sleep(window)
    after, ended = await moves_committed(pg_dsn), time.monotonic()
    ok_in_window = recorder.moves_ok - ok_before
    received = _received(pairs) - received_before
    stop.set()
    await _finish(tasks)
    seconds = ended - started
    return recorder, {
        "concurrent_matches": len(tasks),
        "board_fetch_after_each_push": refetch,
        "window_seconds": round(seconds, 1),
        "moves_committed": after - before,
        "durable_moves_per_second": rate(after - before, seconds),
        "client_moves_ok_per_second": rate(ok_in_window, seconds),
        # What the players' sockets brought per move: each push (one a move since the
        # mover's own page is spared its push; two before), and the hellos of the sockets
        # opened for each next match.
        "socket_messages_per_move": round(received / ok_in_window, 2) if ok_in_window else None,
    }


def _received(pairs: list[Pair]) -> int:
    return sum(player.received for pair in pairs for player in pair.players)


async def open_loop_moves(
    pairs: list[Pair],
    *,
    offered: float,
    window: float,
    pg_dsn: str,
    boards_per_second: float = BOARD_FETCHES_PER_SECOND,
) -> tuple[Recorder, dict]:
    """Moves offered at a fixed rate on an open-loop timetable; each slot takes the next
    match whose seat may move (a real player cannot move before seeing the board), and its
    latency counts from when the slot was due, so waiting for a match counts too. The
    waiting seat takes its new board from the push, as a page does. Board fetches are
    timed apart, `boards_per_second` of them on their own timetable, each the board of a
    seat that is waiting for the other, as a page opening or reconnecting fetches it."""
    recorder, ready = Recorder(), asyncio.Queue()
    for pair in pairs:
        if not pair.is_done:
            ready.put_nowait(pair)
    waited = Counter()
    deadline = time.perf_counter() + window + DRAIN

    async def fire(due: float) -> None:
        try:
            pair = await asyncio.wait_for(ready.get(), max(0.01, deadline - time.perf_counter()))
        except TimeoutError:
            waited["never_sent"] += 1
            return
        if time.perf_counter() - due > 0.005:
            waited["waited_for_a_match"] += 1
        try:
            await pair.step(recorder, intended=due, refetch=False)
        finally:
            if not pair.is_done:
                ready.put_nowait(pair)

    fetches = 0

    async def fetch(due: float) -> None:
        nonlocal fetches
        live = [pair for pair in pairs if not pair.is_done]
        if not live:
            return
        pair = live[fetches % len(live)]
        fetches += 1
        waiting = 1 - (pair.mover() or 0)
        recorder.board_ms.append(await pair.fetch_board(waiting, recorder, keep=False))

    before = await moves_committed(pg_dsn)
    started = time.monotonic()
    schedule, _ = await asyncio.gather(
        open_loop(offered, window, fire, drain_seconds=DRAIN),
        open_loop(boards_per_second, window, fetch, drain_seconds=DRAIN),
    )
    seconds = time.monotonic() - started
    after = await moves_committed(pg_dsn)
    lateness = [value * 1000 for value in schedule.lateness]
    return recorder, {
        "offered_moves_per_second": offered,
        "board_fetches_per_second": boards_per_second,
        "slots": schedule.fired,
        "slots_unfinished_after_drain": schedule.unfinished,
        "slots_waiting_for_a_ready_match": waited["waited_for_a_match"],
        "slots_never_sent": waited["never_sent"],
        "scheduler_lateness_ms": summary(lateness),
        "moves_committed": after - before,
        "durable_moves_per_second_incl_drain": rate(after - before, seconds),
    }


async def _finish(tasks: list[asyncio.Task]) -> None:
    if not tasks:
        return
    _, pending = await asyncio.wait(tasks, timeout=DRAIN)
    for task in pending:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def static_reference(
    base_url: str, path: str, *, offered: float, window: float, concurrency: int
) -> dict:
    """A whitenoise static file: p50/p99 at a fixed offered rate, then req/s with
    `concurrency` closed loops; the same generator, so machines can be compared."""
    session = aiohttp.ClientSession(
        base_url=base_url,
        connector=aiohttp.TCPConnector(limit=concurrency),
        timeout=aiohttp.ClientTimeout(total=30),
    )
    statuses: Counter = Counter()
    latencies: list[float] = []

    async def get(due: float | None = None) -> None:
        sent = time.perf_counter()
        try:
            async with session.get(path) as response:
                await response.read()
                statuses[response.status] += 1
        except (aiohttp.ClientError, TimeoutError) as error:
            statuses[type(error).__name__] += 1
        latencies.append((time.perf_counter() - (due if due is not None else sent)) * 1000)

    try:
        await open_loop(offered, window, get, drain_seconds=DRAIN)
        fixed = summary(latencies)
        stop, count = time.monotonic() + window, 0

        async def loop() -> None:
            nonlocal count
            while time.monotonic() < stop:
                await get()
                count += 1

        started = time.monotonic()
        await asyncio.gather(*(loop() for _ in range(concurrency)))
        seconds = time.monotonic() - started
    finally:
        await session.close()
    return {
        "path": path,
        "offered_per_second": offered,
        "latency_ms_at_offered": fixed,
        "saturation_requests_per_second": rate(count, seconds),
        "saturation_concurrency": concurrency,
        "statuses": {str(key): value for key, value in statuses.items()},
    }


class HealthProbe:
    """`GET /healthz` and `GET /healthz/live` every `HEALTH_EVERY` s while a phase runs, as
    a load balancer would, from a process of its own (`benchmarks.load.probe`): how long
    readiness takes under load, its statuses, and what it says of the channel layer (it
    once said "down", after 2 s, whenever a worker held sockets). Liveness, which asks no
    dependency, is the reference measured beside it."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.found: dict = {}
        self._process: asyncio.subprocess.Process | None = None

    async def __aenter__(self) -> HealthProbe:
        self._process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "benchmarks.load.probe",
            self.base_url,
            str(HEALTH_EVERY),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            cwd=ROOT,
        )
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._process is not None
        out, _ = await self._process.communicate(b"")  # its stdin closes: it stops, reports
        self.found = json.loads(out or b"{}")

    def report(self) -> dict:
        return {
            "ms": summary(self.found.get("ready_ms", [])),
            "live_ms": summary(self.found.get("live_ms", [])),
            "statuses": self.found.get("statuses", {}),
            "channel_layer": self.found.get("channel_layer", {}),
        }


async def open_idle(idle: IdleSockets, count: int, match_ids: list[int]) -> dict:
    started = time.monotonic()
    await idle.open(count, match_ids)
    return {
        "requested": count,
        "opened": len(idle.sockets),
        "failed": idle.failed,
        "seconds_to_open": round(time.monotonic() - started, 1),
    }
