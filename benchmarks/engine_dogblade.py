"""Dog Blade engine speed: random-play throughput and the replay time of a long log.

Run from the project root: `python benchmarks/engine_dogblade.py`. Prints the result and
writes it to benchmarks/results/engine_dogblade.json. Targets (one core):
- random play: at least 100,000 applied moves per second, counting engine work only
  (`legal_moves` + `apply`; the bots' choices are not timed), best of 3 runs;
- replay: `core.replay()` of a 300-move log in under 5 ms (median of 200 repetitions).
"""

from __future__ import annotations

from typing import Any

import common  # first: it puts the project root on sys.path for `games`

from games.ai.play import play_match
from games.engine import registry

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
seed = common.bench_seed  # "bench:<label>:<index>"


def long_log() -> tuple[bytes, common.Moves]:
    match_seed = seed("replay", 0)
    bots = common.random_bots(2)
    state, plies, moves = play_match(GAME, match_seed, bots, LONG_DEAL, max_plies=REPLAY_PLIES)
    if plies != REPLAY_PLIES or GAME.outcome(state) is not None:
        raise RuntimeError("the long deal ended before 300 plies")
    return match_seed, moves


def main() -> dict[str, Any]:
    random_play = common.random_play(
        GAME, 2, runs=RUNS, matches=MATCHES_PER_RUN, target=THROUGHPUT_TARGET, seed=seed
    )
    match_seed, moves = long_log()
    times, state, _events = common.time_replays(
        GAME, 2, match_seed, LONG_DEAL, moves, REPLAY_REPETITIONS
    )
    assert state.ply == REPLAY_PLIES
    return common.result(
        "engine_dogblade",
        random_play=random_play,
        replay=common.replay_summary(REPLAY_PLIES, times, REPLAY_TARGET_MS),
    )


if __name__ == "__main__":
    common.finish(main())
