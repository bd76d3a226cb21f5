"""Shared pieces of the engine benchmarks in this folder (stdlib + `games` only).

The scripts run as `python benchmarks/engine_<game>.py` from the project root. Python puts
the script's folder on `sys.path`, so they import this module as `common`; importing it
puts the project root on `sys.path` as well, so import it before anything from `games`.

What the pieces measure:
- random play: engine time only, summed per call by `EngineClock` (`legal_moves` +
  `apply`); the whole-loop figure (with `new`, `view` and the bots' choices) is for scale;
- replay: the wall time of whole `core.replay()` calls, in milliseconds.
Every match is seeded from a SHA-256 of a fixed label, so each run plays the same matches.
"""

from __future__ import annotations

import hashlib
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, NoReturn

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.ai import Bot, get_bot  # noqa: E402
from games.ai.play import EngineClock, play_match  # noqa: E402
from games.engine.core import Game, Move, replay  # noqa: E402

Moves = list[tuple[int, Move]]
"""A match's log: (seat, move) pairs, as `play_match` returns them and `replay` reads them."""

Seed = Callable[[str, int], bytes]
"""Gives the seed of match `index` of a series called `label`."""


def bench_seed(*parts: object) -> bytes:
    """A fixed seed: the SHA-256 of `bench:<part>:<part>:...`."""
    return hashlib.sha256(":".join(["bench", *map(str, parts)]).encode()).digest()


def random_bots(seats: int) -> list[Bot]:
    """One fresh random bot per seat."""
    return [get_bot("random") for _ in range(seats)]


def random_play_run(
    game: Game, seats: int, matches: int, seed: Seed, label: str, count_key: str = "matches"
) -> dict[str, Any]:
    """Play `matches` random matches seeded `seed(label, index)` and time them."""
    clock = EngineClock()
    started = time.perf_counter()
    for index in range(matches):
        play_match(game, seed(label, index), random_bots(seats), clock=clock)
    wall_seconds = time.perf_counter() - started
    return {
        count_key: matches,
        "moves": clock.moves,
        "engine_seconds": round(clock.seconds, 4),
        "moves_per_second": round(clock.moves_per_second),
        # For scale: the whole loop, with new(), view() and the bots' choices included.
        "wall_seconds": round(wall_seconds, 4),
        "moves_per_second_whole_loop": round(clock.moves / wall_seconds),
    }


def random_play(
    game: Game,
    seats: int,
    *,
    runs: int,
    matches: int,
    target: int,
    seed: Seed,
    label: str = "run",
    runs_key: str = "runs",
    count_key: str = "matches",
) -> dict[str, Any]:
    """Best of `runs` random-play runs (run `n` is seeded with label `<label><n>`)."""
    results = [
        random_play_run(game, seats, matches, seed, f"{label}{run}", count_key)
        for run in range(runs)
    ]
    best = max(result["moves_per_second"] for result in results)
    return {
        runs_key: results,
        "best_moves_per_second": best,
        "target_moves_per_second": target,
        "meets_target": best >= target,
    }


def longest_random_match(
    game: Game, seats: int, candidates: int, seed: Seed, label: str = "replay"
) -> tuple[bytes, Moves]:
    """The seed and log of the longest of `candidates` random matches (the first on a tie)."""
    longest_seed, longest = b"", []
    for index in range(candidates):
        match_seed = seed(label, index)
        _state, _plies, moves = play_match(game, match_seed, random_bots(seats))
        if len(moves) > len(longest):
            longest_seed, longest = match_seed, moves
    return longest_seed, longest


def time_replays(
    game: Game,
    seats: int,
    match_seed: bytes,
    options: Mapping[str, Any] | None,
    moves: Moves,
    repetitions: int,
) -> tuple[list[float], Any, list[list[Any]]]:
    """Replay a log `repetitions` times: (each time in ms, final state, last events)."""
    times = []
    for _ in range(repetitions):
        started = time.perf_counter()
        state, events = replay(game, seats, match_seed, options, moves)
        times.append((time.perf_counter() - started) * 1000)
    return times, state, events


def replay_summary(
    plies: int, times: list[float], target_ms: float, **details: Any
) -> dict[str, Any]:
    """The replay section of a result; `details` go right after `plies`."""
    median_ms = statistics.median(times)
    return {
        "plies": plies,
        **details,
        "repetitions": len(times),
        "median_ms": round(median_ms, 3),
        "min_ms": round(min(times), 3),
        "max_ms": round(max(times), 3),
        "target_ms": target_ms,
        "meets_target": median_ms < target_ms,
    }


def result(benchmark: str, **sections: Any) -> dict[str, Any]:
    """A benchmark's result: its name, the Python and machine, then `sections` in order."""
    return {
        "benchmark": benchmark,
        "python": platform.python_version(),
        "machine": platform.machine(),
        **sections,
    }


def finish(outcome: dict[str, Any]) -> NoReturn:
    """Write `results/<benchmark>.json`, print it, and exit 1 if a section missed its target."""
    text = json.dumps(outcome, indent=2)
    results = ROOT / "benchmarks" / "results"
    results.mkdir(parents=True, exist_ok=True)
    (results / f"{outcome['benchmark']}.json").write_text(text + "\n")
    print(text)
    sections = [value for value in outcome.values() if isinstance(value, dict)]
    ok = all(section["meets_target"] for section in sections if "meets_target" in section)
    sys.exit(0 if ok else 1)
