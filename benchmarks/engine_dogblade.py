"""Dog Blade engine speed: random-play throughput and the replay time of a long log.

Run from the project root: `python benchmarks/engine_dogblade.py`. Prints the result and
writes it to benchmarks/results/engine_dogblade.json. Targets (one core):
- random play: at least 100,000 applied moves per second, counting engine work only
  (`legal_moves` + `apply`; the bots' choices are not timed), best of 3 runs;
- replay: `core.replay()` of a 300-move log in under 5 ms (median of 200 repetitions).
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

GAME = registry.get("dogblade")
THROUGHPUT_TARGET = 100_000  # applied moves per second
REPLAY_TARGET_MS = 5.0
MATCHES_PER_RUN = 300
RUNS = 3
REPLAY_PLIES = 300
REPLAY_REPETITIONS = 200
# Weak, tough monsters: 10 damage against 150 HP, so each card takes 15 hits and a match
# of 200-card decks runs far past 300 plies.
LONG_DEAL = {"deal": {"decks": [[[10, 150]] * 200, [[10, 150]] * 200], "first": 0}}


def seed(label: str, index: int) -> bytes:
    return hashlib.sha256(f"bench:{label}:{index}".encode()).digest()


def throughput_run(run: int) -> dict[str, Any]:
    clock = EngineClock()
    started = time.perf_counter()
    for index in range(MATCHES_PER_RUN):
        bots = [get_bot("random"), get_bot("random")]
        play_match(GAME, seed(f"run{run}", index), bots, clock=clock)
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
    match_seed = seed("replay", 0)
    bots = [get_bot("random"), get_bot("random")]
    state, plies, moves = play_match(GAME, match_seed, bots, LONG_DEAL, max_plies=REPLAY_PLIES)
    if plies != REPLAY_PLIES or GAME.outcome(state) is not None:
        raise RuntimeError("the long deal ended before 300 plies")
    return match_seed, moves


def replay_times_ms() -> list[float]:
    match_seed, moves = long_log()
    times = []
    for _ in range(REPLAY_REPETITIONS):
        started = time.perf_counter()
        state, _events = replay(GAME, 2, match_seed, LONG_DEAL, moves)
        times.append((time.perf_counter() - started) * 1000)
    assert state.ply == REPLAY_PLIES
    return times


def main() -> dict[str, Any]:
    runs = [throughput_run(run) for run in range(RUNS)]
    best = max(run["moves_per_second"] for run in runs)
    times = replay_times_ms()
    median_ms = statistics.median(times)
    result = {
        "benchmark": "engine_dogblade",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "random_play": {
            "runs": runs,
            "best_moves_per_second": best,
            "target_moves_per_second": THROUGHPUT_TARGET,
            "meets_target": best >= THROUGHPUT_TARGET,
        },
        "replay": {
            "plies": REPLAY_PLIES,
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
    (results / "engine_dogblade.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    return result


if __name__ == "__main__":
    outcome = main()
    ok = outcome["random_play"]["meets_target"] and outcome["replay"]["meets_target"]
    sys.exit(0 if ok else 1)
