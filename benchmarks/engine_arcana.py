"""Grimhand Arcana engine speed: random-play throughput, with Classic measured in the same
run as the reference (issue 17: at least 50,000 Arcana moves per second on one core).

Run from the project root: `python benchmarks/engine_arcana.py`. Prints the result and
writes it to benchmarks/results/engine_arcana.json. Engine time only (`legal_moves` +
`apply`, summed by `EngineClock`; the bots' choices are not timed), best of 3 runs of 300
random matches each with the default Arcana options (archetype decks drawn from the seed,
a random match event).
"""

from __future__ import annotations

import time
from typing import Any

import common  # first: it puts the project root on sys.path for `games`

from games.ai.play import EngineClock, play_match
from games.engine import registry

GAME = registry.get("grimhand")
TARGET = 50_000  # applied Arcana moves per second
MATCHES_PER_RUN = 300
RUNS = 3
seed = common.bench_seed


def run(label: str, options: dict[str, Any] | None) -> dict[str, Any]:
    clock = EngineClock()
    started = time.perf_counter()
    plies = []
    for index in range(MATCHES_PER_RUN):
        _state, count, _moves = play_match(
            GAME, seed(label, index), common.random_bots(2), options, clock=clock
        )
        plies.append(count)
    wall = time.perf_counter() - started
    return {
        "matches": MATCHES_PER_RUN,
        "moves": clock.moves,
        "mean_plies": round(sum(plies) / len(plies), 1),
        "engine_seconds": round(clock.seconds, 4),
        "moves_per_second": round(clock.moves_per_second),
        "moves_per_second_whole_loop": round(clock.moves / wall),
    }


def best(label: str, options: dict[str, Any] | None, target: int | None) -> dict[str, Any]:
    runs = [run(f"{label}{n}", options) for n in range(RUNS)]
    top = max(r["moves_per_second"] for r in runs)
    section: dict[str, Any] = {"runs": runs, "best_moves_per_second": top}
    if target is not None:
        section.update(target_moves_per_second=target, meets_target=top >= target)
    return section


def main() -> dict[str, Any]:
    return common.result(
        "engine_arcana",
        arcana_random_play=best("arcana", {"variant": "arcana"}, TARGET),
        classic_random_play_reference=best("classic", None, None),
    )


if __name__ == "__main__":
    common.finish(main())
