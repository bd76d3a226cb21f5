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

from typing import Any

import common  # first: it puts the project root on sys.path for `games`

from games.ai.play import play_match
from games.engine import registry
from games.engine.core import Chance

GAME = registry.get("grimhand")
THROUGHPUT_TARGET = 100_000  # applied moves per second
REPLAY_TARGET_MS = 5.0
MATCHES_PER_RUN = 1_000
RUNS = 3
RANDOM_LOG_CANDIDATES = 300
LONG_PLIES = 300
REPLAY_REPETITIONS = 200
seed = common.bench_seed  # "bench:<label>:<index>"

Log = tuple[bytes, dict[str, Any] | None, common.Moves]  # seed, options, moves


def deathless_deal() -> dict[str, Any]:
    """Both decks 4 x 1..12 (no 13, so no sudden death), shuffled; 200 HP each."""
    chance = Chance(seed("deal", 0), "bench/deal")
    cards = list(range(1, 13)) * 4
    deal = {"attack": chance.shuffle(cards), "defense": chance.shuffle(cards), "first": 0}
    return {"hp": 200, "deal": deal}


def longest_random_match() -> Log:
    match_seed, moves = common.longest_random_match(GAME, 2, RANDOM_LOG_CANDIDATES, seed)
    return match_seed, None, moves


def long_deathless_log() -> Log:
    match_seed = seed("replay-long", 0)
    options = deathless_deal()
    bots = common.random_bots(2)
    state, plies, moves = play_match(GAME, match_seed, bots, options, max_plies=LONG_PLIES)
    if plies != LONG_PLIES:
        raise RuntimeError("the deathless deal ended before 300 plies")
    return match_seed, options, moves


def replay_times(log: Log) -> dict[str, Any]:
    match_seed, options, moves = log
    times, state, events = common.time_replays(
        GAME, 2, match_seed, options, moves, REPLAY_REPETITIONS
    )
    assert state.ply == len(moves)
    return common.replay_summary(
        len(moves),
        times,
        REPLAY_TARGET_MS,
        reshuffles=state.reshuffles,
        flushes=sum(e.type == "hand_flushed" for batch in events for e in batch),
        finished=GAME.outcome(state) is not None,
    )


def main() -> dict[str, Any]:
    return common.result(
        "engine_grimhand",
        random_play=common.random_play(
            GAME, 2, runs=RUNS, matches=MATCHES_PER_RUN, target=THROUGHPUT_TARGET, seed=seed
        ),
        replay_longest_random_match=replay_times(longest_random_match()),
        replay_300_plies_deathless=replay_times(long_deathless_log()),
    )


if __name__ == "__main__":
    common.finish(main())
