"""Haymaker engine speed: random-play throughput and the replay time of a long log.

Run from the project root: `python benchmarks/engine_haymaker.py`. Prints the result and
writes it to benchmarks/results/engine_haymaker.json. Targets (one core):
- random play: at least 20,000 applied moves per second, counting engine work only
  (`legal_moves` + `apply`, which includes the bounded subset-sum search for blocks; the
  bots' choices are not timed), best of 3 runs;
- replay: `core.replay()` of the longest of 1,000 random matches in under 5 ms (median of
  200 repetitions). A Haymaker match cannot pass 108 plies.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import common  # first: it puts the project root on sys.path for `games`

from games.engine import registry

GAME = registry.get("haymaker")
THROUGHPUT_TARGET = 20_000  # applied moves per second
REPLAY_TARGET_MS = 5.0
MATCHES_PER_RUN = 1_000
RUNS = 3
LONG_LOG_CANDIDATES = 1_000
REPLAY_REPETITIONS = 200
seed = partial(common.bench_seed, "haymaker")  # "bench:haymaker:<label>:<index>"


def main() -> dict[str, Any]:
    random_play = common.random_play(
        GAME, 2, runs=RUNS, matches=MATCHES_PER_RUN, target=THROUGHPUT_TARGET, seed=seed
    )
    match_seed, moves = common.longest_random_match(GAME, 2, LONG_LOG_CANDIDATES, seed)
    times, state, _events = common.time_replays(
        GAME, 2, match_seed, None, moves, REPLAY_REPETITIONS
    )
    assert GAME.outcome(state) is not None
    return common.result(
        "engine_haymaker",
        random_play=random_play,
        replay=common.replay_summary(len(moves), times, REPLAY_TARGET_MS),
    )


if __name__ == "__main__":
    common.finish(main())
