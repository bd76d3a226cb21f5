"""`make loadtest` / `python -m benchmarks.load [--quick] [--profile]`: the live core under load.

Starts the production shape on a fresh PostgreSQL database (stack.py), makes 200 players
in 100 two-human Dog Blade matches (setup_data.py), logs every player in through the real
login form, opens both seats' match sockets, then runs, each phase bounded in time:

1. reference: a whitenoise static file, p50/p99 at a fixed rate and req/s at saturation;
2. saturation: every match moves as fast as it can; durable moves/s from Move rows. The
   waiting seat takes its new board from the push, as a page does; then a second window
   where it also fetches its board after each push, the workload of passes 1 to 7;
3. fixed rate (default 50 moves/s, open loop): POST and push latencies, statuses, and
   board GETs timed beside the moves (10 a second, as pages opening fetch them);
4. RSS per idle socket (uvicorn workers before/after opening the idle sockets), then the
   fixed-rate run again with 4,000 idle spectator sockets open;
5. steps at 1x, 2x, 3x the measured saturation, counting 5xx;
6. SQL queries per move POST and board GET (querycount.py), and with --profile a py-spy
   profile of one worker during the saturation window.

Peak PostgreSQL connections and Redis clients are sampled throughout. The JSON goes to
benchmarks/results/load.json (a --quick run's to its log folder), a summary to stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import gc
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from benchmarks.load import phases, profile
from benchmarks.load.players import IdleSockets, Pair, log_in_all
from benchmarks.load.stack import (
    BIN,
    DEFAULT_BROKER_URL,
    DEFAULT_PG_URL,
    DEFAULT_REDIS_URL,
    ROOT,
    Stack,
    raise_fd_limit,
)

RESULT = ROOT / "benchmarks" / "results" / "load.json"
TARGETS = {
    "saturation_moves_per_second_min": 150,
    "move_post_p50_ms_max": 15,
    "move_post_p99_ms_max": 50,
    "board_get_p50_ms_max": 10,
    "board_get_p99_ms_max": 30,
    "socket_p99_ms_max": 100,
    "rss_per_idle_socket_kb_max": 60,
    "5xx_max": 0,
    "healthz_p99_ms_max": 50,
}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.load", description=__doc__)
    add = parser.add_argument
    add("--quick", action="store_true", help="a smoke run: 40 players, short windows")
    add("--window", type=float, help="seconds per measured window (default 20; quick 4)")
    add("--rate", type=float, help="offered moves/s of the fixed-rate runs (default 50)")
    add("--players", type=int, help="players, two per match (default 200; quick 40)")
    add("--idle-sockets", type=int, help="idle sockets (default 4000; quick 300)")
    add("--step-seconds", type=float, help="seconds per 1x/2x/3x step (default 10; quick 3)")
    add("--reserve", type=int, help="matches waiting per pair for when one ends (default 4)")
    add("--profile", action="store_true", help="py-spy one uvicorn worker during saturation")
    add("--strict", action="store_true", help="exit 1 when a target is missed")
    add("--output", type=Path, help="where the JSON goes (default benchmarks/results/load.json)")
    add("--pg-url", default=os.environ.get("LOADTEST_PG_URL", DEFAULT_PG_URL))
    add("--redis-url", default=os.environ.get("LOADTEST_REDIS_URL", DEFAULT_REDIS_URL))
    add("--broker-url", default=os.environ.get("LOADTEST_BROKER_URL", DEFAULT_BROKER_URL))
    args = parser.parse_args(argv)
    quick = args.quick
    defaults = {
        "window": 4 if quick else 20,
        "rate": 20 if quick else 50,
        "players": 40 if quick else 200,
        "idle_sockets": 300 if quick else 4000,
        "step_seconds": 3 if quick else 10,
        "reserve": 2 if quick else 4,
    }
    for name, value in defaults.items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    if args.players < 2 or args.players % 2:
        parser.error("--players is an even number, at least 2")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    fd_limit = raise_fd_limit()
    log_dir = Path(tempfile.mkdtemp(prefix="cardhall-load-"))
    output = args.output or (log_dir / "load-quick.json" if args.quick else RESULT)
    started = time.monotonic()
    report: dict = {
        "benchmark": "load",
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "revision": _revision(),
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "load_average_before": [round(value, 2) for value in os.getloadavg()],
        },
        # The run's settings; where its JSON went is not one (a path of this machine).
        "settings": {k: v for k, v in vars(args).items() if k != "output"},
        "fd_limit": fd_limit,
    }
    print(f"loadtest: logs in {log_dir}", flush=True)
    with Stack(args.pg_url, args.redis_url, args.broker_url, log_dir=log_dir) as stack:
        try:
            stack.start()
            print(f"loadtest: servers up on {stack.base_url}, database {stack.db_name}", flush=True)
            setup = json.loads(
                stack.run_python(
                    [
                        "-m",
                        "benchmarks.load.setup_data",
                        "--players",
                        str(args.players),
                        "--reserve",
                        str(args.reserve),
                        "--idle",
                        "50",
                    ]
                ).splitlines()[-1]
            )
            report.update(asyncio.run(run(stack, setup, args)))
            report["queries"] = _query_counts(stack)
        finally:
            report["server_log"] = _log_findings(stack)
            report["seconds"] = round(time.monotonic() - started, 1)
            report["machine"]["load_average_after"] = [round(v, 2) for v in os.getloadavg()]
    report["targets"] = check_targets(report)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(report, indent=2) + "\n")
    print(human_summary(report))
    print(f"loadtest: JSON written to {output}")
    missed = [name for name, verdict in report["targets"].items() if not verdict["met"]]
    return 1 if args.strict and missed else 0


async def run(stack: Stack, setup: dict, args: argparse.Namespace) -> dict:
    result: dict = {}
    base, pg_dsn = stack.base_url, stack.database_url.replace("postgres://", "postgresql://", 1)
    redis_dbs = {_db_number(stack.redis_url), _db_number(stack.redis_url) + 1}
    redis_dbs.add(_db_number(stack.broker_url))
    sampler = phases.Sampler(pg_dsn, stack.db_name, stack.redis_url, redis_dbs)
    async with sampler:
        usernames = [name for pair in setup["pairs"] for name in pair["players"]]
        players = await log_in_all(base, usernames, setup["password"])
        pairs = [
            Pair([players[a], players[b]], pair["match"], pair["reserve"])
            for pair, (a, b) in ((pair, pair["players"]) for pair in setup["pairs"])
        ]
        setup_recorder = phases.Recorder()
        gate = asyncio.Semaphore(20)

        async def open_pair(pair: Pair) -> None:
            async with gate:
                await pair.open(setup_recorder)

        await asyncio.gather(*(open_pair(pair) for pair in pairs))
        result["setup"] = {
            "players": len(players),
            "matches": len(pairs),
            "statuses": dict(setup_recorder.statuses),
        }
        _say(f"{len(players)} players logged in, {len(pairs)} matches open with both sockets")
        try:
            result.update(await _measure(stack, pairs, setup, args, sampler, pg_dsn))
        finally:
            await asyncio.gather(*(player.close() for player in players.values()))
    result["peaks"] = {
        phase: {
            "postgresql_connections": peak.pg,
            "redis_clients_on_run_dbs": peak.redis_ours,
            "redis_clients_whole_server": peak.redis_total,
        }
        for phase, peak in sampler.peaks.items()
    }
    result["peaks"]["redis_run_dbs"] = sorted(redis_dbs)
    return result


async def _measure(stack, pairs, setup, args, sampler, pg_dsn) -> dict:
    result: dict = {}
    sampler.phase = "reference"
    result["reference_static"] = await phases.static_reference(
        stack.base_url, _static_path(), offered=50, window=args.window / 2, concurrency=32
    )
    _say(f"reference: {result['reference_static']['saturation_requests_per_second']} static req/s")

    sampler.phase = "saturation"
    spy = _start_profile(stack, args) if args.profile else None
    async with phases.HealthProbe(stack.base_url) as health:
        recorder, counts = await _with_cpu(
            stack,
            phases.closed_loop_moves(pairs, warmup=3, window=args.window, pg_dsn=pg_dsn),
        )
    if spy is not None:
        result["profile"] = _finish_profile(*spy)
    saturation = counts["durable_moves_per_second"]
    result["saturation"] = {**counts, **_brief(recorder), "healthz": health.report()}
    _say(f"saturation: {saturation} durable moves/s")
    recorder, counts = await _with_cpu(
        stack,
        phases.closed_loop_moves(pairs, warmup=3, window=args.window, pg_dsn=pg_dsn, refetch=True),
    )
    result["saturation_with_refetch"] = {**counts, **_brief(recorder)}
    _say(
        "saturation with a board fetch after each push: "
        f"{counts['durable_moves_per_second']} durable moves/s"
    )

    sampler.phase = "fixed_rate"
    recorder, counts = await _with_cpu(
        stack,
        phases.open_loop_moves(pairs, offered=args.rate, window=args.window, pg_dsn=pg_dsn),
    )
    result["fixed_rate"] = {**counts, "recorder": recorder}
    _say(f"fixed rate {args.rate}/s done")

    sampler.phase = "idle_sockets"
    await asyncio.sleep(2)
    rss_before = stack.workers_rss_bytes()
    idle = IdleSockets(stack.base_url)
    try:
        opened = await phases.open_idle(idle, args.idle_sockets, setup["idle_matches"])
        await asyncio.sleep(3)
        rss_after = stack.workers_rss_bytes()
        count = max(1, idle.open_count)
        result["idle_sockets"] = {
            **opened,
            "worker_rss_mb_before": round(rss_before / 2**20, 1),
            "worker_rss_mb_after": round(rss_after / 2**20, 1),
            "rss_kb_per_idle_socket": round((rss_after - rss_before) / count / 1024, 1),
            "workers": len(stack.worker_pids()),
        }
        _say(f"idle sockets: {idle.open_count} open")
        sampler.phase = "fixed_rate_idle"
        async with phases.HealthProbe(stack.base_url) as health:
            recorder, counts = await _with_cpu(
                stack,
                phases.open_loop_moves(pairs, offered=args.rate, window=args.window, pg_dsn=pg_dsn),
            )
        counts["idle_sockets_still_open"] = idle.open_count
        counts["healthz"] = health.report()
        result["fixed_rate_with_idle_sockets"] = {**counts, "recorder": recorder}
        _say(f"fixed rate {args.rate}/s with {idle.open_count} idle sockets done")
    finally:
        await idle.close()

    sampler.phase = "steps"
    steps = []
    for multiple in (1, 2, 3):
        offered = max(1.0, round(saturation * multiple, 1))
        recorder, counts = await _with_cpu(
            stack,
            phases.open_loop_moves(pairs, offered=offered, window=args.step_seconds, pg_dsn=pg_dsn),
        )
        steps.append({"multiple": multiple, **counts, **_brief(recorder)})
        _say(f"step {multiple}x ({offered}/s): {steps[-1]['5xx']} 5xx")
    result["overload_steps"] = steps

    created = await asyncio.to_thread(_move_times, pg_dsn)
    for name in ("fixed_rate", "fixed_rate_with_idle_sockets"):
        block = result[name]
        recorder = block.pop("recorder")
        commit_ms = [
            (epoch - created[(match, ply)]) * 1000
            for match, ply, epoch in recorder.arrivals
            if (match, ply) in created
        ]
        block.update(phases.phase_report(recorder, seconds=args.window, commit_ms=commit_ms))
    return result


async def _with_cpu(stack: Any, phase: Any) -> tuple[Any, dict]:
    """Run one move phase (a coroutine, not started yet) and add to its counts the CPU each
    process class spent in it."""
    with generator_garbage_set_aside():
        before = stack.cpu_snapshot()
        recorder, counts = await phase
        counts["cpu_seconds"] = cpu_used(before, stack.cpu_snapshot(), recorder.moves_ok)
    return recorder, counts


@contextlib.contextmanager
def generator_garbage_set_aside():
    """Keep the generator's own garbage collector from timing the server: what the
    generator holds when a phase starts (its players, their sessions, the 4,000 idle
    sockets) is collected once and set aside (`gc.freeze`) for the phase, and given back
    after it. Without this, a full collection in the generator scanned the idle sockets
    for 166-318 ms, and every answer that arrived meanwhile was timed that much late (the
    idle phase's p99 and max: docs/benchmarks.md, nineteenth pass)."""
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def cpu_used(before: dict[str, Any], after: dict[str, Any], moves: int = 0) -> dict:
    """CPU seconds per process class over a phase. PostgreSQL and Redis serve everyone on
    the machine, not only this run; "others" is everything else (other people's tests and
    servers), which makes every figure here noisy. "uvicorn_each": each worker's share,
    busiest first (one worker busier than the other is a core the run could not use)."""
    scalar = [name for name in before if name not in ("wall", "uvicorn_each")]
    used = {name: round(after[name] - before[name], 1) for name in scalar}
    earlier = before["uvicorn_each"]  # a worker started since counts from 0
    each = [seconds - earlier.get(pid, 0.0) for pid, seconds in after["uvicorn_each"].items()]
    used["uvicorn_each"] = sorted((round(seconds, 1) for seconds in each), reverse=True)
    accounted = ("uvicorn_workers", "celery", "generator", "postgresql_all", "redis_all")
    used["others"] = round(max(0.0, used["machine"] - sum(used[name] for name in accounted)), 1)
    used["wall"] = round(after["wall"] - before["wall"], 1)
    used["cores_busy"] = round(used["machine"] / used["wall"], 2) if used["wall"] else None
    if moves:
        server = used["uvicorn_workers"] + used["celery"]
        used["server_cpu_ms_per_move"] = round(1000 * server / moves, 1)
    return used


def _brief(recorder) -> dict:
    report = phases.phase_report(recorder, seconds=0, commit_ms=[])
    keep = ("move_post_ms_from_send", "board_get_ms", "statuses", "5xx", "errors")
    return {key: report[key] for key in keep}


def _move_times(pg_dsn: str) -> dict[tuple[int, int], float]:
    import psycopg

    with psycopg.connect(pg_dsn) as connection:
        rows = connection.execute(
            "select match_id, ply, extract(epoch from created)::float8 from games_move"
        ).fetchall()
    return {(match, ply): epoch for match, ply, epoch in rows}


def _static_path() -> str:
    manifest = json.loads((ROOT / "staticfiles" / "staticfiles.json").read_text())
    return "/static/" + manifest["paths"].get("css/cardhall.css", "css/cardhall.css")


def _start_profile(stack: Stack, args) -> tuple[subprocess.Popen, Path] | None:
    spy = BIN / "py-spy"
    workers = stack.worker_pids()
    if not spy.exists() or not workers:
        _say("no py-spy (pip install -e '.[load]') or no worker: no profile")
        return None
    output = stack.log_dir / "profile.raw"
    command = [str(spy), "record", "--pid", str(workers[0]), "--gil", "--rate", "100"]
    command += ["--format", "raw"]
    command += ["--duration", str(int(args.window + 3)), "--output", str(output), "--nonblocking"]
    log = open(stack.log_dir / "py-spy.log", "w")  # noqa: SIM115 - the child holds it open
    process = subprocess.Popen(
        command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    log.close()
    return process, output


def _finish_profile(process: subprocess.Popen, output: Path) -> dict:
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)
    if not output.exists():
        return {"error": "py-spy wrote nothing (see py-spy.log in the log folder)"}
    return profile.summarise(output.read_text())


def _query_counts(stack: Stack) -> dict:
    try:
        return json.loads(stack.run_python(["-m", "benchmarks.load.querycount"]).splitlines()[-1])
    except (RuntimeError, ValueError, IndexError, subprocess.TimeoutExpired) as error:
        return {"error": str(error)[-500:]}


_EXCEPTION_LINE = re.compile(r"^([A-Za-z_][\w.]*(Error|Exception|Timeout)[\w.]*)(: .*)?$")


def _log_findings(stack: Stack) -> dict:
    """500s and exceptions the servers logged: counts and the commonest lines."""
    findings: dict = {}
    for name in ("uvicorn", "celery"):
        lines = stack.log(name).splitlines()
        exceptions = Counter(
            line.strip()[:200] for line in lines if _EXCEPTION_LINE.match(line.strip())
        )
        findings[name] = {
            "lines": len(lines),
            "internal_server_errors": sum("Internal Server Error" in line for line in lines),
            "exceptions": [{"line": text, "count": n} for text, n in exceptions.most_common(6)],
            "warnings": sum(" WARNING" in line or "WARNING:" in line for line in lines),
        }
    return findings


def check_targets(report: dict) -> dict:
    def verdict(value, limit, *, at_least: bool = False) -> dict:
        met = value is not None and (value >= limit if at_least else value <= limit)
        return {"value": value, "target": limit, "met": bool(met)}

    idle = report.get("fixed_rate_with_idle_sockets", {})
    steps = report.get("overload_steps", [])
    all_5xx = sum(step.get("5xx", 0) for step in steps) + sum(
        report.get(name, {}).get("5xx", 0)
        for name in (
            "saturation",
            "saturation_with_refetch",
            "fixed_rate",
            "fixed_rate_with_idle_sockets",
        )
    )
    return {
        "saturation_moves_per_second": verdict(
            report.get("saturation", {}).get("durable_moves_per_second"),
            TARGETS["saturation_moves_per_second_min"],
            at_least=True,
        ),
        "move_post_p50_ms_with_idle": verdict(
            idle.get("move_post_ms_from_intended_start", {}).get("p50"),
            TARGETS["move_post_p50_ms_max"],
        ),
        "move_post_p99_ms_with_idle": verdict(
            idle.get("move_post_ms_from_intended_start", {}).get("p99"),
            TARGETS["move_post_p99_ms_max"],
        ),
        "board_get_p50_ms_with_idle": verdict(
            idle.get("board_get_ms", {}).get("p50"), TARGETS["board_get_p50_ms_max"]
        ),
        "board_get_p99_ms_with_idle": verdict(
            idle.get("board_get_ms", {}).get("p99"), TARGETS["board_get_p99_ms_max"]
        ),
        "commit_to_socket_p99_ms_with_idle": verdict(
            idle.get("socket_ms_from_move_row_created", {}).get("p99"),
            TARGETS["socket_p99_ms_max"],
        ),
        "rss_kb_per_idle_socket": verdict(
            report.get("idle_sockets", {}).get("rss_kb_per_idle_socket"),
            TARGETS["rss_per_idle_socket_kb_max"],
        ),
        "5xx_in_all_move_phases": verdict(all_5xx, TARGETS["5xx_max"]),
        # Readiness under load: the worse of the saturation window and the fixed rate with
        # every idle socket open (issue 14: "answers in under 50 ms under load").
        "healthz_p99_ms_under_load": verdict(
            max(
                (
                    block.get("healthz", {}).get("ms", {}).get("p99") or 0.0
                    for block in (report.get("saturation", {}), idle)
                ),
                default=None,
            ),
            TARGETS["healthz_p99_ms_max"],
        ),
    }


def _health_line(health: dict) -> str:
    ms, live = health["ms"], health.get("live_ms") or {}
    return (
        f"p50 {ms['p50']} / p99 {ms['p99']} / max {ms['max']} ms (n={ms['count']}); "
        f"liveness beside it p50 {live.get('p50')} / p99 {live.get('p99')} ms; "
        f"statuses {health['statuses']}; channel layer {health['channel_layer']}"
    )


def human_summary(report: dict) -> str:
    def lat(block: dict, key: str) -> str:
        s = block.get(key, {})
        return (
            f"p50 {s.get('p50')} / p95 {s.get('p95')} / p99 {s.get('p99')} ms (n={s.get('count')})"
        )

    lines = ["", f"== Cardhall live core under load ({report['date']}, {report['revision']}) =="]
    lines.append(
        f"machine: {report['machine']['cpus']} CPUs, shared with the generator; load average "
        f"{report['machine'].get('load_average_before')} before, "
        f"{report['machine'].get('load_average_after')} after"
    )
    ref = report.get("reference_static", {})
    if ref:
        fixed = ref["latency_ms_at_offered"]
        lines.append(
            f"reference static GET: p50 {fixed['p50']} / p99 {fixed['p99']} ms at "
            f"{ref['offered_per_second']}/s; "
            f"{ref['saturation_requests_per_second']} req/s saturated"
        )
    sat = report.get("saturation", {})
    if sat:
        lines.append(
            f"saturation: {sat['durable_moves_per_second']} durable moves/s "
            f"({sat['moves_committed']} Move rows in {sat['window_seconds']} s, "
            f"{sat['concurrent_matches']} matches); 5xx: {sat['5xx']}"
        )
        if sat.get("healthz"):
            lines.append(f"  /healthz: {_health_line(sat['healthz'])}")
        cpu = sat["cpu_seconds"]
        lines.append(
            f"  CPU in the window: server {cpu.get('server_cpu_ms_per_move')} ms per move; "
            f"uvicorn {cpu['uvicorn_workers']} s, celery {cpu['celery']} s, generator "
            f"{cpu['generator']} s, PostgreSQL {cpu['postgresql_all']} s, Redis "
            f"{cpu['redis_all']} s, everything else {cpu['others']} s; {cpu['wall']} s wall"
        )
    again = report.get("saturation_with_refetch", {})
    if again:
        lines.append(
            f"saturation with a board fetch after each push (passes 1-7): "
            f"{again['durable_moves_per_second']} durable moves/s; server "
            f"{again['cpu_seconds'].get('server_cpu_ms_per_move')} ms CPU per move; "
            f"5xx: {again['5xx']}"
        )
    for name, title in (
        ("fixed_rate", "fixed rate"),
        ("fixed_rate_with_idle_sockets", "fixed rate + idle sockets"),
    ):
        block = report.get(name)
        if not block:
            continue
        lines.append(
            f"{title}: {block['offered_moves_per_second']} moves/s offered, "
            f"{block['moves_committed']} committed"
        )
        lines.append(
            f"  move POST (from intended start): {lat(block, 'move_post_ms_from_intended_start')}"
        )
        lines.append(f"  board GET: {lat(block, 'board_get_ms')}")
        lines.append(
            f"  socket from Move row created: {lat(block, 'socket_ms_from_move_row_created')}"
        )
        lines.append(f"  socket from POST start: {lat(block, 'socket_ms_from_post_start')}")
        lines.append(f"  statuses: {block['statuses']}; missing pushes {block['missing_pushes']}")
        if block.get("healthz"):
            lines.append(f"  /healthz: {_health_line(block['healthz'])}")
        cpu = block.get("cpu_seconds", {})
        lines.append(
            f"  slots waiting for a ready match {block['slots_waiting_for_a_ready_match']}, "
            f"unfinished {block['slots_unfinished_after_drain']}; server CPU "
            f"{cpu.get('server_cpu_ms_per_move')} ms per move, machine {cpu.get('cores_busy')} "
            "cores busy"
        )
        if block["5xx"]:
            lines.append(f"  !!! {block['5xx']} 5xx / failed requests: {block['errors'][:3]}")
    idle = report.get("idle_sockets")
    if idle:
        lines.append(
            f"idle sockets: {idle['opened']} opened ({idle['failed']} failed), "
            f"{idle['rss_kb_per_idle_socket']} KB RSS each "
            f"({idle['worker_rss_mb_before']} -> {idle['worker_rss_mb_after']} MB)"
        )
    for step in report.get("overload_steps", []):
        flag = "  !!!" if step["5xx"] else ""
        lines.append(
            f"step {step['multiple']}x: {step['offered_moves_per_second']}/s offered, "
            f"{step['moves_committed']} committed, 5xx {step['5xx']}{flag} "
            f"{ {k: v for k, v in step['statuses'].items() if not k.endswith(' 200')} }"
        )
    for phase, peak in report.get("peaks", {}).items():
        if isinstance(peak, dict):
            lines.append(
                f"peak {phase}: PostgreSQL {peak['postgresql_connections']}, Redis "
                f"{peak['redis_clients_on_run_dbs']} on the run's dbs "
                f"({peak['redis_clients_whole_server']} server-wide)"
            )
    queries = report.get("queries", {})
    for kind in ("move", "board"):
        if kind in queries and "queries_max" in queries[kind]:
            q = queries[kind]
            lines.append(
                f"queries per {kind}: {q['queries_min']}-{q['queries_max']} "
                f"(mean {q['queries_mean']}), {q['ms_median_in_process']} ms in process"
            )
    spy = report.get("profile", {})
    if spy.get("samples"):
        lines.append(
            "profile of one worker at saturation, self time by package: "
            + ", ".join(
                f"{entry['function']} {entry['percent']}%" for entry in spy["self_by_package"][:8]
            )
        )
        for entry in spy["project_inclusive"][:8]:
            lines.append(f"  {entry['percent']}% in {entry['function']}")
    for name, found in report.get("server_log", {}).items():
        if found.get("internal_server_errors") or found.get("exceptions"):
            lines.append(
                f"!!! {name} log: {found['internal_server_errors']} 500s; {found['exceptions'][:3]}"
            )
    missed = [name for name, v in report.get("targets", {}).items() if not v["met"]]
    lines.append(f"targets missed: {', '.join(missed) if missed else 'none'}")
    lines.append(f"total {report['seconds']} s")
    return "\n".join(lines)


def _db_number(url: str) -> int:
    tail = url.rstrip("/").rpartition("/")[2]
    return int(tail) if tail.isdigit() else 0


def _revision() -> str:
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True
        )
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        return done.stdout.strip() + ("+uncommitted changes" if dirty.stdout.strip() else "")
    except OSError:
        return "unknown"


def _say(text: str) -> None:
    print(f"loadtest: {text}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
