"""A run of bot matches between AI levels, tallied: what `manage.py simulate` reports.

The levels rotate through the seats (`deals.seat_order`), so a level's wins are not just
its seat's advantage; with pairing (the default while seats rotate) each deal is played
once per rotation: with two levels, matches 2k and 2k+1 share a deal with the seats
swapped. The report gives a 95% Wilson interval ("ci95") for the first level's share of
all matches won (draws and unfinished matches count as not won).

A one-seat game (BaniraCards) is a scored run rather than a contest: the report adds
"runs", the distribution of the final scores of the finished runs (mean, median, p10,
p90, min, max), the share of runs completed (won) and the count of each ending.

Invariants (the standard library, `games.engine` and `games.ai` only):
- Everything but the timings ("engine_seconds", "engine_moves_per_second",
  "wall_seconds") is reproducible from the seed.
- Engine time is measured around `legal_moves` and `apply` only (`play.EngineClock`).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from games.ai import levels
from games.ai.play import EngineClock, play_match
from games.ai.simulation.deals import deal_index, match_seed, seat_order
from games.ai.simulation.stats import score_distribution, wilson_interval
from games.engine.core import Game


def simulate(
    game: Game,
    names: Sequence[str],
    *,
    matches: int,
    seed: int,
    max_plies: int,
    rotate: bool,
    paired: bool = True,
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Play `matches` matches, one level of `names` per seat, and tally them."""
    seats = len(names)
    paired = paired and rotate  # without rotation a paired deal would replay the same match
    clock = EngineClock()
    wins_by_seat = [0] * seats
    wins_by_bot = [0] * seats
    draws = unfinished = failed_runs = total_plies = max_plies_seen = 0
    run_scores: list[int] = []  # one-seat games: the final score of each finished run
    endings: dict[str, int] = {}
    started = time.perf_counter()
    for index in range(matches):
        order = seat_order(seats, index, rotate)
        bots = [levels.get(names[bot]).bot(game.slug) for bot in order]
        state, plies, _moves = play_match(
            game,
            match_seed(seed, deal_index(seats, index, paired)),
            bots,
            options,
            max_plies=max_plies,
            clock=clock,
        )
        total_plies += plies
        max_plies_seen = max(max_plies_seen, plies)
        outcome = game.outcome(state)
        if outcome is None:
            unfinished += 1
        elif outcome.is_draw and seats == 1:
            failed_runs += 1  # a run that did not complete: no winner, but no draw either
        elif outcome.is_draw:
            draws += 1
        for seat in outcome.winners if outcome else ():
            wins_by_seat[seat] += 1
            wins_by_bot[order[seat]] += 1
        if outcome is not None:
            endings[outcome.reason] = endings.get(outcome.reason, 0) + 1
            if outcome.scores is not None:
                run_scores.append(outcome.scores[0])
    variant = (options or {}).get("variant")  # a game variant's own search (Arcana)
    report: dict[str, Any] = {
        "game": game.slug,
        "matches": matches,
        "seed": seed,
        "seats": seats,
        "rotate_seats": rotate,
        "paired": paired,
        "options": dict(options or {}),
        "searches": {
            name: levels.get(name).describe(game.slug, variant) for name in dict.fromkeys(names)
        },
        "bots": [
            {"bot": name, "wins": wins} for name, wins in zip(names, wins_by_bot, strict=True)
        ],
        "ci95": [round(bound, 4) for bound in wilson_interval(wins_by_bot[0], matches)],
        "wins_by_seat": wins_by_seat,
        "wins": matches - draws - unfinished - failed_runs,  # matches someone won
        "draws": draws,
        "unfinished": unfinished,
        "plies": {"mean": round(total_plies / matches, 2), "max": max_plies_seen},
        "engine_moves": clock.moves,
        "engine_seconds": round(clock.seconds, 4),
        "engine_moves_per_second": round(clock.moves_per_second),
        "wall_seconds": round(time.perf_counter() - started, 3),
    }
    if seats == 1:
        report["runs"] = {
            "scores": score_distribution(run_scores),
            "completed": wins_by_seat[0],
            "completed_share": round(wins_by_seat[0] / matches, 4),
            "endings": dict(sorted(endings.items())),
        }
    return report
