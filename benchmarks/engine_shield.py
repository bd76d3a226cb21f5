"""Shield engine speed: random 4-player throughput and the replay time of a long log.

Run from the project root: `python benchmarks/engine_shield.py`. Prints the result and
writes it to benchmarks/results/engine_shield.json. Targets (one core):
- random play: at least 50,000 applied moves per second in 4-player matches, counting
  engine work only (`legal_moves` + `apply`, reshuffles included; the bots' choices and
  the views they read are not timed), best of 3 runs of 1,000 matches;
- replay: `core.replay()` of the longest of 1,000 random 4-player matches in under 5 ms
  (median of 200 repetitions).
"""

from __future__ import annotations

import hashlib
import json
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.ai import get_bot  # noqa: E402
from games.ai.play import EngineClock, play_match  # noqa: E402
from games.engine import registry  # noqa: E402
from games.engine.core import replay  # noqa: E402

GAME = registry.get("shield")
SEATS = 4
THROUGHPUT_TARGET = 50_000  # applied moves per second
REPLAY_TARGET_MS = 5.0
MATCHES_PER_RUN = 1_000
RUNS = 3
LONG_LOG_CANDIDATES = 1_000
REPLAY_REPETITIONS = 200


def seed(label: str, index: int) -> bytes:
    return hashlib.sha256(f"bench:shield:{label}:{index}".encode()).digest()


def random_bots() -> list[Any]:
    return [get_bot("random") for _ in range(SEATS)]


def throughput_run(run: int) -> dict[str, Any]:
    clock = EngineClock()
    started = time.perf_counter()
    for index in range(MATCHES_PER_RUN):
        play_match(GAME, seed(f"run{run}", index), random_bots(), clock=clock)
    wall_seconds = time.perf_counter() - started
    return {
        "matches": MATCHES_PER_RUN,
        "moves": clock.moves,
        "engine_seconds": round(clock.seconds, 4),
        "moves_per_second": round(clock.moves_per_second),
        # For scale: the whole loop, with new(), view() and the bots' choices included.
        "wall_seconds": round(wall_seconds, 4),
        "moves_per_second_whole_loop": round(clock.moves / wall_seconds),
    }


def long_log() -> tuple[bytes, list[tuple[int, dict[str, Any]]]]:
    """The longest log among many random 4-player matches."""
    longest: tuple[bytes, list[tuple[int, dict[str, Any]]]] = (b"", [])
    for index in range(LONG_LOG_CANDIDATES):
        match_seed = seed("replay", index)
        _state, plies, moves = play_match(GAME, match_seed, random_bots())
        if plies > len(longest[1]):
            longest = (match_seed, moves)
    return longest


def replay_times_ms(match_seed: bytes, moves: list[tuple[int, dict[str, Any]]]) -> list[float]:
    times = []
    for _ in range(REPLAY_REPETITIONS):
        started = time.perf_counter()
        state, _events = replay(GAME, SEATS, match_seed, None, moves)
        times.append((time.perf_counter() - started) * 1000)
    assert GAME.outcome(state) is not None
    return times


def main() -> dict[str, Any]:
    runs = [throughput_run(run) for run in range(RUNS)]
    best = max(run["moves_per_second"] for run in runs)
    match_seed, moves = long_log()
    times = replay_times_ms(match_seed, moves)
    median_ms = statistics.median(times)
    result = {
        "benchmark": "engine_shield",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "seats": SEATS,
        "random_play": {
            "runs": runs,
            "best_moves_per_second": best,
            "target_moves_per_second": THROUGHPUT_TARGET,
            "meets_target": best >= THROUGHPUT_TARGET,
        },
        "replay": {
            "plies": len(moves),
            "repetitions": REPLAY_REPETITIONS,
            "median_ms": round(median_ms, 3),
            "min_ms": round(min(times), 3),
            "max_ms": round(max(times), 3),
            "target_ms": REPLAY_TARGET_MS,
            "meets_target": median_ms < REPLAY_TARGET_MS,
        },
    }
    results = ROOT / "benchmarks" / "results"
    results.mkdir(parents=True, exist_ok=True)
    (results / "engine_shield.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    return result


if __name__ == "__main__":
    outcome = main()
    ok = outcome["random_play"]["meets_target"] and outcome["replay"]["meets_target"]
    sys.exit(0 if ok else 1)
