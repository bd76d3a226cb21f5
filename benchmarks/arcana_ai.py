"""Grimhand Arcana's Hard level: how long a decision takes.

Run from the project root: `python benchmarks/arcana_ai.py`. Prints the result and writes
it to benchmarks/results/arcana_ai.json. Hard (the Arcana search of games.ai.levels, its
time guard off, so the whole iteration budget is timed) plays `MATCHES` Arcana matches
against Normal on fixed seeds, seats alternating; every `choose` call of Hard is timed,
single legal moves included (they return at once, as on the site).
Target (issue 17): decision p95 under 1 s on one core.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

import common  # first: it puts the project root on sys.path for `games`

from games.ai import levels
from games.ai.simulation.ladder import TimedBot
from games.ai.simulation.stats import percentile
from games.engine import registry

GAME = registry.get("grimhand")
OPTIONS = {"variant": "arcana"}
MATCHES = 20
TARGET_MS = 1000.0


def main() -> dict[str, Any]:
    samples: list[float] = []
    plies = 0
    started = time.perf_counter()
    for index in range(MATCHES):
        hard = TimedBot(levels.HARD.search("grimhand").build(seconds=None), samples)
        bots = [hard, levels.NORMAL.bot("grimhand")]
        if index % 2:
            bots.reverse()
        seed = common.bench_seed("arcana-ai", index // 2)
        _state, played, _moves = common.play_match(GAME, seed, bots, OPTIONS)
        plies += played
    ordered = sorted(1000 * sample for sample in samples)
    p95 = percentile(ordered, 0.95)
    return common.result(
        "arcana_ai",
        hard_decision={
            "search": levels.HARD.describe("grimhand", "arcana"),
            "matches": MATCHES,
            "plies": plies,
            "decisions": len(ordered),
            "mean_ms": round(statistics.fmean(ordered), 2),
            "median_ms": round(statistics.median(ordered), 2),
            "p95_ms": round(p95, 2),
            "max_ms": round(ordered[-1], 2),
            "wall_seconds": round(time.perf_counter() - started, 2),
            "target_p95_ms": TARGET_MS,
            "meets_target": p95 < TARGET_MS,
        },
    )


if __name__ == "__main__":
    common.finish(main())
