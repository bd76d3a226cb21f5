"""BaniraCards engine speed: random-play throughput and the replay time of a long log.

Run from the project root: `python benchmarks/engine_banira.py`. Prints the result and
writes it to benchmarks/results/engine_banira.json. Targets (one core):
- random play: at least 30,000 applied moves per second, counting engine work only
  (`legal_moves` + `apply`, which includes the end-of-run check after every move; the
  bot's choices and `view` are not timed), best of 3 runs of 1,000 runs each;
- replay: `core.replay()` of the longest of 1,000 random runs in under 5 ms (median of
  200 repetitions).
For scale (no target) it also times `view`, which builds the costs map of every held
card against every slot.
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

GAME = registry.get("banira")
THROUGHPUT_TARGET = 30_000  # applied moves per second
REPLAY_TARGET_MS = 5.0
RUNS_PER_BATCH = 1_000
BATCHES = 3
LONG_LOG_CANDIDATES = 1_000
REPLAY_REPETITIONS = 200


def seed(label: str, index: int) -> bytes:
    return hashlib.sha256(f"bench:banira:{label}:{index}".encode()).digest()


def throughput_batch(batch: int) -> dict[str, Any]:
    clock = EngineClock()
    started = time.perf_counter()
    for index in range(RUNS_PER_BATCH):
        play_match(GAME, seed(f"batch{batch}", index), [get_bot("random")], clock=clock)
    wall_seconds = time.perf_counter() - started
    return {
        "runs": RUNS_PER_BATCH,
        "moves": clock.moves,
        "engine_seconds": round(clock.seconds, 4),
        "moves_per_second": round(clock.moves_per_second),
        # For scale: the whole loop, with new(), view() and the bot's choices included.
        "wall_seconds": round(wall_seconds, 4),
        "moves_per_second_whole_loop": round(clock.moves / wall_seconds),
    }


def long_log() -> tuple[bytes, list[tuple[int, dict[str, Any]]]]:
    """The longest log among many random runs."""
    longest: tuple[bytes, list[tuple[int, dict[str, Any]]]] = (b"", [])
    for index in range(LONG_LOG_CANDIDATES):
        run_seed = seed("replay", index)
        _state, plies, moves = play_match(GAME, run_seed, [get_bot("random")])
        if plies > len(longest[1]):
            longest = (run_seed, moves)
    return longest


def replay_times_ms(run_seed: bytes, moves: list[tuple[int, dict[str, Any]]]) -> list[float]:
    times = []
    for _ in range(REPLAY_REPETITIONS):
        started = time.perf_counter()
        state, _events = replay(GAME, 1, run_seed, None, moves)
        times.append((time.perf_counter() - started) * 1000)
    assert GAME.outcome(state) is not None
    return times


def view_time_us(run_seed: bytes, moves: list[tuple[int, dict[str, Any]]]) -> float:
    """The median time of one `view` over the positions of a log, in microseconds."""
    state = GAME.new(1, run_seed)
    times = []
    for _seat, move in moves:
        started = time.perf_counter()
        GAME.view(state, 0)
        times.append((time.perf_counter() - started) * 1_000_000)
        state, _events = GAME.apply(state, 0, move)
    return statistics.median(times)


def main() -> dict[str, Any]:
    batches = [throughput_batch(batch) for batch in range(BATCHES)]
    best = max(batch["moves_per_second"] for batch in batches)
    run_seed, moves = long_log()
    times = replay_times_ms(run_seed, moves)
    median_ms = statistics.median(times)
    result = {
        "benchmark": "engine_banira",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "random_play": {
            "batches": batches,
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
        "view_median_us": round(view_time_us(run_seed, moves), 1),
    }
    results = ROOT / "benchmarks" / "results"
    results.mkdir(parents=True, exist_ok=True)
    (results / "engine_banira.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    return result


if __name__ == "__main__":
    outcome = main()
    ok = outcome["random_play"]["meets_target"] and outcome["replay"]["meets_target"]
    sys.exit(0 if ok else 1)
