"""Grimhand Tactics engine speed: random-play throughput and the replay time of long logs.

Run from the project root: `python benchmarks/engine_grimhand.py`. Prints the result and
writes it to benchmarks/results/engine_grimhand.json. Targets (one core):
- random play: at least 100,000 applied moves per second, counting engine work only
  (`legal_moves` + `apply`; the bots' choices are not timed), best of 3 runs, default
  options (random matches last about 20 plies, so `new` is not timed either);
- replay: `core.replay()` of a full match in under 5 ms (median of 200 repetitions). Two
  logs are measured: the longest of 300 random matches with the default options (its
  `new` shuffles both decks), and a 300-move log from a fixed deal with no Death card and
  200 HP each, which is still running at ply 300 and reshuffles its decks several times.
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
from games.engine.core import Chance, Move, replay  # noqa: E402

GAME = registry.get("grimhand")
THROUGHPUT_TARGET = 100_000  # applied moves per second
REPLAY_TARGET_MS = 5.0
MATCHES_PER_RUN = 1_000
RUNS = 3
LONG_PLIES = 300
REPLAY_REPETITIONS = 200


def seed(label: str, index: int) -> bytes:
    return hashlib.sha256(f"bench:{label}:{index}".encode()).digest()


def deathless_deal() -> dict[str, Any]:
    """Both decks 4 x 1..12 (no 13, so no sudden death), shuffled; 200 HP each."""
    chance = Chance(seed("deal", 0), "bench/deal")
    cards = list(range(1, 13)) * 4
    deal = {"attack": chance.shuffle(cards), "defense": chance.shuffle(cards), "first": 0}
    return {"hp": 200, "deal": deal}


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


Log = tuple[bytes, dict[str, Any] | None, list[tuple[int, Move]]]


def longest_random_match() -> Log:
    longest: Log = (b"", None, [])
    for index in range(300):
        match_seed = seed("replay", index)
        bots = [get_bot("random"), get_bot("random")]
        _state, _plies, moves = play_match(GAME, match_seed, bots)
        if len(moves) > len(longest[2]):
            longest = (match_seed, None, moves)
    return longest


def long_deathless_log() -> Log:
    match_seed = seed("replay-long", 0)
    options = deathless_deal()
    bots = [get_bot("random"), get_bot("random")]
    state, plies, moves = play_match(GAME, match_seed, bots, options, max_plies=LONG_PLIES)
    if plies != LONG_PLIES:
        raise RuntimeError("the deathless deal ended before 300 plies")
    return match_seed, options, moves


def replay_times_ms(log: Log) -> dict[str, Any]:
    match_seed, options, moves = log
    times = []
    events: list[Any] = []
    for _ in range(REPLAY_REPETITIONS):
        started = time.perf_counter()
        state, events = replay(GAME, 2, match_seed, options, moves)
        times.append((time.perf_counter() - started) * 1000)
    assert state.ply == len(moves)
    median_ms = statistics.median(times)
    return {
        "plies": len(moves),
        "reshuffles": state.reshuffles,
        "flushes": sum(e.type == "hand_flushed" for batch in events for e in batch),
        "finished": GAME.outcome(state) is not None,
        "repetitions": REPLAY_REPETITIONS,
        "median_ms": round(median_ms, 3),
        "min_ms": round(min(times), 3),
        "max_ms": round(max(times), 3),
        "target_ms": REPLAY_TARGET_MS,
        "meets_target": median_ms < REPLAY_TARGET_MS,
    }


def main() -> dict[str, Any]:
    runs = [throughput_run(run) for run in range(RUNS)]
    best = max(run["moves_per_second"] for run in runs)
    result = {
        "benchmark": "engine_grimhand",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "random_play": {
            "runs": runs,
            "best_moves_per_second": best,
            "target_moves_per_second": THROUGHPUT_TARGET,
            "meets_target": best >= THROUGHPUT_TARGET,
        },
        "replay_longest_random_match": replay_times_ms(longest_random_match()),
        "replay_300_plies_deathless": replay_times_ms(long_deathless_log()),
    }
    results = ROOT / "benchmarks" / "results"
    results.mkdir(parents=True, exist_ok=True)
    (results / "engine_grimhand.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    return result


if __name__ == "__main__":
    outcome = main()
    ok = (
        outcome["random_play"]["meets_target"]
        and outcome["replay_longest_random_match"]["meets_target"]
        and outcome["replay_300_plies_deathless"]["meets_target"]
    )
    sys.exit(0 if ok else 1)
