"""CPU per move in one quiet process: the move POST, the pushes it sets off, the board GET.

`python -m benchmarks.load.movecost [--moves N] [--profile [--answer-only]]` (after `pip install -e
".[dev,load]"`, with PostgreSQL and Redis answering as for `make loadtest`). The load
run's `Stack` makes its fresh database (migrated, static files collected) and cleans up
after it, but starts no server; in a child process on the production settings
(DEBUG=0, PostgreSQL with its pool, Redis cache and channel layer) plays two-human Dog
Blade matches through Django's test client with the board's own form and htmx headers, as
the load generator does. Both seats count as looking at their match (presence), each with
one page, and the mover's POST names its page's socket as a page does (`X-Board-Socket`),
so every move renders and sends the other seat's push after its commit, as in the load run.

It prints JSON: CPU milliseconds of this process per move (the POST with its pushes, and
the other seat's board GET) measured by `time.process_time`, the POST's split into before
its answer and after it (config.after_response: the pushes and tasks that follow), beside
a reference measured in the same run (a bare Django view through the same middleware), so
machines and hours compare by the ratio. With --profile, cProfile's view of the same moves
by package and by project function: a steadier picture of where a move's CPU goes than a
sampled profile of a loaded server, though it leaves out uvicorn, the event loop and the
sockets (with --answer-only, the POST up to its answer).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks.load.stack import DEFAULT_PG_URL, DEFAULT_REDIS_URL, Stack

ROOT = Path(__file__).resolve().parents[2]


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.load.movecost")
    parser.add_argument("--moves", type=int, default=600)
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--queries", action="store_true", help="add one move's SQL")
    parser.add_argument(
        "--garbage",
        action="store_true",
        help="add what a move leaves for the cyclic garbage collector, by type (through the "
        "test client, whose requests config.handler does not let go: see its docstring)",
    )
    parser.add_argument("--pstats", help="with --profile, also write cProfile's stats to this file")
    parser.add_argument(
        "--answer-only",
        action="store_true",
        help="profile the POST up to its answer, without what follows it",
    )
    parser.add_argument("--pg-url", default=os.environ.get("LOADTEST_PG_URL", DEFAULT_PG_URL))
    parser.add_argument(
        "--redis-url", default=os.environ.get("LOADTEST_REDIS_URL", DEFAULT_REDIS_URL)
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args)))
        return 0
    # The load run's environment (its settings, a fresh database, keys under the run's
    # prefix), with no server: tasks run eagerly (a live game queues none per move), and
    # the per-user limits rise too, since each player here moves several times a second.
    extra = {
        "CELERY_BROKER_URL": "",
        "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
        **{f"RATE_LIMIT_{group}_USER": "1000000/m" for group in ("MOVE", "START", "WRITE")},
    }
    log_dir = Path(tempfile.mkdtemp(prefix="cardhall-movecost-"))
    with Stack(args.pg_url, args.redis_url, log_dir=log_dir) as stack:
        stack.create_database()
        child = ["-m", "benchmarks.load.movecost", "--child", *sys.argv[1:]]
        print(stack.run_python(child, env=extra).strip().splitlines()[-1])
    return 0


def measure(args: argparse.Namespace) -> dict:
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.test import Client

    from accounts.services import profile_ensure
    from benchmarks.load.board import parse_move_form
    from games import presence, services

    headers = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "board"}
    after_answer = _time_after_answer(args)
    tables = []
    for pair in range(args.matches):
        users = []
        for seat in (0, 1):
            user = get_user_model().objects.create_user(
                username=f"cost{pair}x{seat}", password="x-cost"
            )
            profile_ensure(user=user)
            users.append(user)
        clients = []
        for user in users:
            client = Client(HTTP_HOST="127.0.0.1")
            client.force_login(user)
            clients.append(client)
        tables.append([users, clients, None])

    def new_match(table: list) -> None:
        users = table[0]
        match = services.match_create(
            creator=users[0],
            game_slug="dogblade",
            opponent="player",
            invitee_username=users[1].username,
        )
        services.match_join(match_id=match.pk, user=users[1])
        table[2] = match.pk

    def step(table: list) -> tuple[str, float, float]:
        users, clients, match_id = table
        for user in users:  # as a page's socket heartbeat does
            presence.presence_touch(user_id=user.pk, match_id=match_id, channel=f"cost.{user.pk}")
        url = f"/matches/{match_id}/board/"
        forms = [parse_move_form(client.get(url, **headers).content.decode()) for client in clients]
        seat = next((seat for seat, form in enumerate(forms) if form is not None), None)
        if seat is None:
            new_match(table)
            return "new", 0.0, 0.0, 0.0
        form = forms[seat]
        if profiler is not None:
            profiler.enable()
        after_answer.profiler = profiler
        after_answer.ms = 0.0
        started = time.process_time()
        page = {"HTTP_X_BOARD_SOCKET": f"cost.{users[seat].pk}"}  # as presence has it
        response = clients[seat].post(form.action, form.data(), **headers, **page)
        posted = time.process_time()
        after_answer.profiler = None
        clients[1 - seat].get(url, **headers)
        fetched = time.process_time()
        if profiler is not None:
            profiler.disable()
        if response.status_code != 200:
            raise RuntimeError(f"move answered {response.status_code}")
        return "move", (posted - started) * 1000, (fetched - posted) * 1000, after_answer.ms

    profiler = None
    for table in tables:
        new_match(table)
    for table in tables:  # warm-up: caches, prepared statements, imports
        for _ in range(3):
            step(table)

    reference = _reference(tables[0][1][0])
    queries = _one_move_queries(step, tables[0]) if args.queries else None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile()
    if args.garbage:
        gc.collect()
        gc.set_debug(gc.DEBUG_SAVEALL)  # what the collector finds is kept, to be counted
    post_ms: list[float] = []
    get_ms: list[float] = []
    later_ms: list[float] = []
    loop = 0
    while len(post_ms) < args.moves:
        table = tables[loop % len(tables)]
        loop += 1
        kind, post, get, later = step(table)
        if kind == "move":
            post_ms.append(post)
            get_ms.append(get)
            later_ms.append(later)
    result = {
        "benchmark": "movecost",
        "moves": len(post_ms),
        "post_cpu_ms_mean": round(sum(post_ms) / len(post_ms), 2),
        # Of which: before the answer goes out, and after it (config.after_response: the
        # other boards' renders and pushes, the tasks).
        "post_answer_cpu_ms_mean": round((sum(post_ms) - sum(later_ms)) / len(post_ms), 2),
        "post_after_answer_cpu_ms_mean": round(sum(later_ms) / len(post_ms), 2),
        "board_get_cpu_ms_mean": round(sum(get_ms) / len(get_ms), 2),
        "move_cpu_ms_mean": round((sum(post_ms) + sum(get_ms)) / len(post_ms), 2),
        "reference_cpu_ms_mean": reference,
    }
    if profiler is not None:
        result["profile"] = _profile_summary(profiler)
        if args.pstats:
            profiler.dump_stats(args.pstats)  # type: ignore[attr-defined]
    if queries is not None:
        result["queries"] = queries
    if args.garbage:
        result["garbage"] = _garbage_summary(moves=len(post_ms))
    return result


def _garbage_summary(*, moves: int) -> dict:
    """What the moves left that only the cyclic collector frees (objects in reference
    cycles), per move and by type: each such object costs a worker a share of a collection
    pause, which holds the event loop and every request thread."""
    gc.collect()
    gc.set_debug(0)
    kinds = Counter(f"{type(obj).__module__}.{type(obj).__qualname__}" for obj in gc.garbage)
    total = len(gc.garbage)
    gc.garbage.clear()
    return {
        "objects_per_move": round(total / moves, 1),
        "by_type_per_move": {
            kind: round(count / moves, 1) for kind, count in kinds.most_common(25)
        },
    }


class _AfterAnswer:
    """Times what a POST runs after its answer (config.after_response), which the test
    client runs before it returns; with --answer-only, leaves it out of the profile."""

    def __init__(self) -> None:
        self.ms = 0.0
        self.profiler: Any = None


def _time_after_answer(args: argparse.Namespace) -> _AfterAnswer:
    from config import after_response

    timer = _AfterAnswer()
    run = after_response.Later.__call__

    def timed(later: Any) -> None:
        profiler = timer.profiler if args.answer_only else None
        if profiler is not None:
            profiler.disable()
        started = time.process_time()
        try:
            run(later)
        finally:
            timer.ms += (time.process_time() - started) * 1000
            if profiler is not None:
                profiler.enable()

    after_response.Later.__call__ = timed  # type: ignore[method-assign]
    return timer


def _one_move_queries(step: object, table: list) -> list[str]:
    """The SQL of one move POST and the board GET after it (a new match's first moves are
    not typical: a few moves in)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        step(table)  # type: ignore[operator]
    return [query["sql"][:300] for query in captured.captured_queries]


def _reference(signed_in: object) -> float:
    """CPU ms of one signed-in GET of a plain page through the whole middleware chain."""
    runs = 300
    for _ in range(20):
        signed_in.get("/healthz/live")  # type: ignore[attr-defined]
    started = time.process_time()
    for _ in range(runs):
        signed_in.get("/healthz/live")  # type: ignore[attr-defined]
    return round((time.process_time() - started) * 1000 / runs, 3)


def _profile_summary(profiler: object) -> dict:
    import pstats

    stats = pstats.Stats(profiler)  # type: ignore[arg-type]
    total = stats.total_tt  # type: ignore[attr-defined]
    by_package: dict[str, float] = {}
    project: dict[str, float] = {}
    root = str(ROOT) + "/"
    entries = stats.stats.items()  # type: ignore[attr-defined]
    for (filename, _line, name), (_cc, _nc, tt, ct, _callers) in entries:
        package = _package(filename, root)
        by_package[package] = by_package.get(package, 0.0) + tt
        if filename.startswith(root) and "/.venv/" not in filename:
            label = f"{filename[len(root) :]}:{name}"
            project[label] = max(project.get(label, 0.0), ct)
    top = sorted(by_package.items(), key=lambda item: -item[1])[:16]
    inclusive = sorted(project.items(), key=lambda item: -item[1])[:30]
    return {
        "total_seconds": round(total, 3),
        "self_by_package": [{"package": k, "percent": round(100 * v / total, 1)} for k, v in top],
        "project_inclusive": [
            {"function": k, "percent": round(100 * v / total, 1)} for k, v in inclusive
        ],
    }


def _package(filename: str, root: str) -> str:
    if "site-packages/" in filename:
        parts = filename.split("site-packages/", 1)[1].split("/")
        return "/".join(parts[:2]) if parts[0] == "django" else parts[0]
    if filename.startswith(root):
        return filename[len(root) :].split("/")[0]
    if filename.startswith("~") or filename.startswith("<"):
        return "(builtins)"
    return "(stdlib) " + Path(filename).stem


if __name__ == "__main__":
    sys.exit(main())
