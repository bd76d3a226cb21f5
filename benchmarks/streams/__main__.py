"""`python -m benchmarks.streams [--streams 1000] [--matches 50] [--moves 40]`: open match
streams of the Bot API on the production shape and time a change reaching every one.

Starts the stack of the load benchmark (benchmarks/load/stack.py: a fresh PostgreSQL
database, `uvicorn --workers 2` with DEBUG=0, one Celery worker; Redis at --redis-url, the
run's keys under its own prefix), then makes `--matches` two-player Dog Blade matches
between bot accounts with tokens, and spectator accounts. Each match is followed by its
two seats' streams and by spectator streams (a spectator account opens at most 15, under
the API's per-account cap of 16), `--streams` in all, spread evenly. Then, one match at a
time, round robin, the seat to act posts a legal move taken from its own stream
(`POST /api/v1/matches/{id}/moves`) and the run waits until every stream of that match has
a line at the new ply. Latency per stream line = arrival (wall clock) minus the Move
row's `created` (stamped at the INSERT, just before the commit; same machine clock).
Reported: p50/p99/max over every line, the uvicorn workers' RSS before and after opening
the streams, PostgreSQL connections of the run's database and Redis clients (peak of
samples), the load average before and after, and a reference in the same run: the p50 of
a GET of a static file (whitenoise) while the streams are open.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

import aiohttp
import psycopg

from benchmarks.load.stack import Stack, raise_fd_limit

SPECTATOR_STREAMS = 15

SETUP = """
import json
from django.contrib.auth import get_user_model
from accounts.services import profile_ensure
from botapi import services as api
from games import services as games
User = get_user_model()
def player(name):
    user = User.objects.create_user(name, f"{name}@example.com", "pw-pw-pw-pw")
    profile_ensure(user=user)
    return user, api.token_create(user=user, name="bench", scopes=["play", "read"])[1]
matches, spectators = [], []
for i in range(MATCHES):
    (a, ta), (b, tb) = player(f"bot{i}a"), player(f"bot{i}b")
    seat = games.SeatSpec(kind="player", username=b.username)
    match = games.match_create(creator=a, game_slug="dogblade", others=[seat], is_casual=True)
    games.match_join(match_id=match.pk, user=b)
    matches.append({"id": match.pk, "tokens": [ta, tb]})
for i in range(SPECTATORS):
    spectators.append(player(f"watch{i}")[1])
print(json.dumps({"matches": matches, "spectators": spectators}))
"""


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


class Stream:
    def __init__(self, match_id: int, token: str, seat: bool) -> None:
        self.match_id, self.token, self.seat = match_id, token, seat
        self.latest: dict | None = None
        self.arrivals: dict[int, float] = {}  # ply -> wall-clock arrival of its line
        self.changed = asyncio.Event()
        self.failed = ""

    async def follow(self, http: aiohttp.ClientSession, base: str, opened: asyncio.Event) -> None:
        url = f"{base}/api/v1/matches/{self.match_id}/stream"
        try:
            async with http.get(url, headers={"Authorization": f"Bearer {self.token}"}) as answer:
                if answer.status != 200:
                    self.failed = f"{answer.status}: {(await answer.text())[:200]}"
                    opened.set()
                    return
                async for raw in answer.content:
                    if not raw.strip():
                        continue
                    now = time.time()
                    document = json.loads(raw)
                    self.arrivals.setdefault(document["ply"], now)
                    self.latest = document
                    self.changed.set()
                    opened.set()
        except Exception as error:  # noqa: BLE001 - reported with the results
            self.failed = repr(error)
            opened.set()


def sample(stack: Stack, peak: dict[str, int]) -> None:
    import redis

    with psycopg.connect(stack.pg_url.replace("postgres://", "postgresql://", 1)) as db:
        (count,) = db.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [stack.db_name]
        ).fetchone()
    peak["pg_connections"] = max(peak.get("pg_connections", 0), count)
    clients = redis.Redis.from_url(stack.redis_url).info("clients")["connected_clients"]
    peak["redis_clients_all"] = max(peak.get("redis_clients_all", 0), clients)


async def static_p50(http: aiohttp.ClientSession, base: str, path: str, count: int = 50) -> float:
    times = []
    for _ in range(count):
        started = time.perf_counter()
        async with http.get(base + path) as answer:
            await answer.read()
        times.append((time.perf_counter() - started) * 1000)
        await asyncio.sleep(0.02)
    return statistics.median(times)


async def run(stack: Stack, args: argparse.Namespace, data: dict) -> dict:
    base = stack.base_url
    streams: list[Stream] = []
    per_match = args.streams // len(data["matches"])
    spectators = iter(data["spectators"])
    token, used = next(spectators), 0
    for match in data["matches"]:
        streams += [Stream(match["id"], seat_token, True) for seat_token in match["tokens"]]
        for _ in range(per_match - 2):
            if used == SPECTATOR_STREAMS:
                token, used = next(spectators), 0
            streams.append(Stream(match["id"], token, False))
            used += 1
    peak: dict[str, int] = {}
    rss_before = stack.workers_rss_bytes()
    connector = aiohttp.TCPConnector(limit=0)
    timeout = aiohttp.ClientTimeout(total=None, sock_read=None)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as http:
        tasks = []
        started = time.monotonic()
        for stream in streams:  # opened 50 at a time, each answered before the next batch
            opened = asyncio.Event()
            tasks.append(asyncio.ensure_future(stream.follow(http, base, opened)))
            if len(tasks) % 50 == 0:
                await asyncio.sleep(0.2)
        for stream in streams:
            while stream.latest is None and not stream.failed:
                await asyncio.sleep(0.05)
        open_seconds = time.monotonic() - started
        failed = [stream.failed for stream in streams if stream.failed]
        sample(stack, peak)
        rss_open = stack.workers_rss_bytes()
        static = await _static_path(http, base)
        reference_p50 = await static_p50(http, base, static)
        latencies: list[float] = []
        moves = 0
        by_match: dict[int, list[Stream]] = {}
        for stream in streams:
            by_match.setdefault(stream.match_id, []).append(stream)
        db = psycopg.connect(stack.database_url.replace("postgres://", "postgresql://", 1))
        db.autocommit = True
        match_ids = list(by_match)
        round_index = 0
        deadline = time.monotonic() + args.seconds
        while moves < args.moves and time.monotonic() < deadline:
            match_id = match_ids[round_index % len(match_ids)]
            round_index += 1
            members = [stream for stream in by_match[match_id] if not stream.failed]
            mover = next(
                (s for s in members if s.seat and s.latest and s.latest["is_my_turn"]), None
            )
            if mover is None or mover.latest["match"]["status"] != "active":
                continue
            ply = mover.latest["ply"]
            move = mover.latest["legal_moves"][0]
            async with http.post(
                f"{base}/api/v1/matches/{match_id}/moves",
                json={"ply": ply, "move": move},
                headers={"Authorization": f"Bearer {mover.token}"},
            ) as answer:
                if answer.status != 200:
                    print("move refused:", answer.status, (await answer.text())[:200])
                    continue
            new_ply = ply + 1
            wait_until = time.monotonic() + 10
            while time.monotonic() < wait_until and not all(
                new_ply in stream.arrivals or stream.failed for stream in members
            ):
                await asyncio.sleep(0.005)
            (created,) = db.execute(
                "SELECT extract(epoch FROM created) FROM games_move WHERE match_id = %s"
                " AND ply = %s",
                [match_id, ply],
            ).fetchone()
            missing = sum(1 for stream in members if new_ply not in stream.arrivals)
            if missing:
                print(f"match {match_id} ply {new_ply}: {missing} streams got no line in 10 s")
            latencies += [
                (stream.arrivals[new_ply] - float(created)) * 1000
                for stream in members
                if new_ply in stream.arrivals
            ]
            moves += 1
            if moves % 10 == 0:
                sample(stack, peak)
            await asyncio.sleep(args.pause)
        db.close()
        sample(stack, peak)
        rss_after = stack.workers_rss_bytes()
        still_open = sum(1 for task in tasks if not task.done())
        for task in tasks:
            task.cancel()
    return {
        "streams": len(streams),
        "streams_failed": len(failed),
        "failures": sorted(set(failed))[:5],
        "streams_open_after_moves": still_open,
        "seconds_to_open_all": round(open_seconds, 1),
        "moves": moves,
        "lines_timed": len(latencies),
        "latency_ms": {
            "p50": round(percentile(latencies, 0.50), 1),
            "p99": round(percentile(latencies, 0.99), 1),
            "max": round(max(latencies), 1) if latencies else None,
        },
        "rss_mb": {
            "workers_before_streams": round(rss_before / 2**20),
            "workers_streams_open": round(rss_open / 2**20),
            "workers_after_moves": round(rss_after / 2**20),
            "per_stream_kb": round((rss_open - rss_before) / max(1, len(streams)) / 1024, 1),
        },
        "peak": peak,
        "reference_static_get_p50_ms": round(reference_p50, 2),
    }


async def _static_path(http: aiohttp.ClientSession, base: str) -> str:
    async with http.get(base + "/accounts/login/") as answer:
        page = await answer.text()
    start = page.index("/static/")
    return page[start : page.index('"', start)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=120, help="bound on the move phase")
    parser.add_argument("--pause", type=float, default=0.25, help="seconds between moves")
    parser.add_argument("--redis-url", default=os.environ.get("STREAMS_REDIS_URL", ""))
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    if not args.redis_url:
        parser.error("--redis-url (or STREAMS_REDIS_URL): a Redis of this run's own")
    raise_fd_limit()
    redis_base = args.redis_url.rstrip("/").rsplit("/", 1)[0]
    os.environ.setdefault("RATELIMIT_ENABLE", "0")  # one generator, thousands of requests
    load_before = os.getloadavg()
    log_dir = Path(tempfile.mkdtemp(prefix="cardhall-streams-"))
    print("logs in", log_dir)
    with Stack(redis_url=f"{redis_base}/4", broker_url=f"{redis_base}/6", log_dir=log_dir) as stack:
        stack.start()
        spectators = -(-(args.streams - 2 * args.matches) // SPECTATOR_STREAMS)
        code = SETUP.replace("MATCHES", str(args.matches)).replace("SPECTATORS", str(spectators))
        output = stack.run_python(["manage.py", "shell", "-c", code])
        data = json.loads(output.strip().splitlines()[-1])
        result = asyncio.run(run(stack, args, data))
    result["load_average_before"] = [round(value, 2) for value in load_before]
    result["load_average_after"] = [round(value, 2) for value in os.getloadavg()]
    print(json.dumps(result, indent=2))
    if args.out:
        args.out.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
