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

import statistics
import time
from functools import partial
from typing import Any

import common  # first: it puts the project root on sys.path for `games`

from games.engine import registry

GAME = registry.get("banira")
THROUGHPUT_TARGET = 30_000  # applied moves per second
REPLAY_TARGET_MS = 5.0
RUNS_PER_BATCH = 1_000
BATCHES = 3
LONG_LOG_CANDIDATES = 1_000
REPLAY_REPETITIONS = 200
seed = partial(common.bench_seed, "banira")  # "bench:banira:<label>:<index>"


def view_time_us(run_seed: bytes, moves: common.Moves) -> float:
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
    # A solo game: a "run" is one match, and the best-of-3 units are called batches.
    random_play = common.random_play(
        GAME,
        1,
        runs=BATCHES,
        matches=RUNS_PER_BATCH,
        target=THROUGHPUT_TARGET,
        seed=seed,
        label="batch",
        runs_key="batches",
        count_key="runs",
    )
    run_seed, moves = common.longest_random_match(GAME, 1, LONG_LOG_CANDIDATES, seed)
    times, state, _events = common.time_replays(GAME, 1, run_seed, None, moves, REPLAY_REPETITIONS)
    assert GAME.outcome(state) is not None
    return common.result(
        "engine_banira",
        random_play=random_play,
        replay=common.replay_summary(len(moves), times, REPLAY_TARGET_MS),
        view_median_us=round(view_time_us(run_seed, moves), 1),
    )


if __name__ == "__main__":
    common.finish(main())
