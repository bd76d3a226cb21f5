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

from functools import partial
from typing import Any

import common  # first: it puts the project root on sys.path for `games`

from games.engine import registry

GAME = registry.get("shield")
SEATS = 4
THROUGHPUT_TARGET = 50_000  # applied moves per second
REPLAY_TARGET_MS = 5.0
MATCHES_PER_RUN = 1_000
RUNS = 3
LONG_LOG_CANDIDATES = 1_000
REPLAY_REPETITIONS = 200
seed = partial(common.bench_seed, "shield")  # "bench:shield:<label>:<index>"


def main() -> dict[str, Any]:
    random_play = common.random_play(
        GAME, SEATS, runs=RUNS, matches=MATCHES_PER_RUN, target=THROUGHPUT_TARGET, seed=seed
    )
    match_seed, moves = common.longest_random_match(GAME, SEATS, LONG_LOG_CANDIDATES, seed)
    times, state, _events = common.time_replays(
        GAME, SEATS, match_seed, None, moves, REPLAY_REPETITIONS
    )
    assert GAME.outcome(state) is not None
    return common.result(
        "engine_shield",
        seats=SEATS,
        random_play=random_play,
        replay=common.replay_summary(len(moves), times, REPLAY_TARGET_MS),
    )


if __name__ == "__main__":
    common.finish(main())
