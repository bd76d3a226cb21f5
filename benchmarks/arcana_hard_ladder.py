"""Grimhand Arcana: Hard against Normal over a range of a ladder run's matches.

Run from the project root: `python benchmarks/arcana_hard_ladder.py --seed 1 --start 0
--stop 1000`. Match i plays exactly what match i of `manage.py simulate grimhand --options
'{"variant": "arcana"}' --ladder --levels normal,hard --matches N --seed S --max-plies
3000` plays (the same deal, seat order and bots, guard on), so a run split into ranges
(two processes, say) adds up to that run. Prints a tally line every `--every` matches and
a JSON summary at the end (Hard's wins, Wilson interval, decision times).
`--hard '{"samples": 24, ...}'` screens other settings for Hard's Arcana search.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

import common  # noqa: F401  (first: it puts the project root on sys.path for `games`)

from games.ai import levels
from games.ai.base import Bot
from games.ai.flat_mc import FlatMonteCarloBot
from games.ai.levels import ARCANA_HARD, GUARD_SECONDS, Search
from games.ai.play import play_match
from games.ai.simulation.deals import deal_index, match_seed, seat_order
from games.ai.simulation.ladder import TimedBot
from games.ai.simulation.stats import percentile, wilson_interval
from games.engine import registry

GAME = registry.get("grimhand")
OPTIONS = {"variant": "arcana"}


def hard_bot(settings: dict[str, Any] | None) -> Bot:
    if not settings:
        return levels.get("hard").bot(GAME.slug)
    search = Search("arcana_flat", {**ARCANA_HARD.settings, **settings})
    return FlatMonteCarloBot(1, variants={"arcana": search.build(GUARD_SECONDS)})  # type: ignore[return-value]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--stop", type=int, default=1000)
    parser.add_argument("--max-plies", type=int, default=3000)
    parser.add_argument("--every", type=int, default=20)
    parser.add_argument("--hard", default="")
    args = parser.parse_args()
    settings = json.loads(args.hard) if args.hard else None
    times: list[float] = []
    wins = losses = other = 0
    started = time.perf_counter()
    for index in range(args.start, args.stop):
        order = seat_order(2, index, rotate=True)  # bot k of ["hard", "normal"] sits in order[k]
        names = ["hard", "normal"]
        bots: list[Bot] = []
        for k in order:
            bot = hard_bot(settings) if names[k] == "hard" else levels.get("normal").bot(GAME.slug)
            bots.append(TimedBot(bot, times) if names[k] == "hard" else bot)
        deal = match_seed(args.seed, deal_index(2, index, True))
        state, _plies, _moves = play_match(GAME, deal, bots, OPTIONS, max_plies=args.max_plies)
        outcome = GAME.outcome(state)
        hard_seat = order.index(0)
        if outcome is None or len(outcome.winners) != 1:
            other += 1
        elif hard_seat in outcome.winners:
            wins += 1
        else:
            losses += 1
        done = index - args.start + 1
        if done % args.every == 0 or index + 1 == args.stop:
            print(
                f"{done} matches: hard {wins}, normal {losses}, other {other}, "
                f"{wins / done:.3f}, {time.perf_counter() - started:.0f} s",
                flush=True,
            )
    ordered = sorted(1000 * t for t in times)
    matches = args.stop - args.start
    low, high = wilson_interval(wins, matches)
    summary = {
        "seed": args.seed,
        "start": args.start,
        "stop": args.stop,
        "hard": settings or dict(ARCANA_HARD.settings),
        "hard_wins": wins,
        "normal_wins": losses,
        "other": other,
        "share": round(wins / matches, 4),
        "ci95": [round(low, 4), round(high, 4)],
        "decisions": len(ordered),
        "p95_ms": round(percentile(ordered, 0.95), 1),
        "mean_ms": round(statistics.fmean(ordered), 1),
        "wall_seconds": round(time.perf_counter() - started, 1),
    }
    json.dump(summary, sys.stdout)
    print()


if __name__ == "__main__":
    main()
