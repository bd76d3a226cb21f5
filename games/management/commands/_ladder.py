"""The ladder mode of `manage.py simulate`: every bot level against every other.

(The leading underscore keeps Django from taking this module for a command.)

- Levels run Easy→Hard: by default every registered bot of `LADDER_ORDER`, so a level
  that is not registered yet is simply left out.
- Two-seat games: each unordered pair of levels plays `matches` matches, the harder level
  (later in the list) as "a". Seats alternate and, with pairing, each deal is played once
  with each seat order (the same deals as `simulate`, from `match_seed(seed, deal)`), so
  every pair meets on the same deals too.
- Bigger tables (`--seats` above 2): one seat of level "a" against the rest of level "b",
  the lone seat rotating round the table; both directions of each pair are played (a
  lone Hard among Normals is a different match from a lone Normal among Hards), so every
  cell of the table is measured. The lone seat's fair share is 1/seats. `one_way`
  (`--one-way`) plays only the lone harder level against the easier ones (one Hard and
  three Normals at Shield), a third of the cost.
- "oracle" (games.ai.oracle: Hard's search on the true state) is a benchmark level: it
  is never in the default levels nor in `games.ai.get_bot`, only named in `--levels`.
- One-seat games: each level plays the same `matches` deals alone; the report gives each
  level's score distribution and, for each pair, the mean score difference per deal with
  a 95% interval (paired on the deal, so the luck of the deal cancels out).
- Decision time is measured around each bot's `choose` call only (never the engine), per
  level over every move it made in the run: mean and p95 (nearest rank) in milliseconds.
  Everything but the timings and the wall time is reproducible from the seed.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Mapping, Sequence
from typing import Any

from games import ai
from games.ai.base import Bot
from games.ai.oracle import OracleBot
from games.ai.play import play_match
from games.engine.core import Chance, Game, Move
from games.management.commands.simulate import (
    deal_index,
    match_seed,
    options_note,
    percentile,
    score_distribution,
    seat_order,
    wilson_interval,
)

LADDER_ORDER = ("random", "greedy", "ismcts")  # Easy, Normal, Hard
BENCHMARK_LEVELS = {"oracle": OracleBot}  # never offered to players


def level_bot(name: str) -> Any:
    """A fresh bot of a ladder level: a registered bot or a benchmark-only one."""
    if name in BENCHMARK_LEVELS:
        return BENCHMARK_LEVELS[name]()
    return ai.get_bot(name)


def default_levels() -> list[str]:
    """Every level of `LADDER_ORDER` that is registered, Easy first."""
    registered = set(ai.bot_names())
    return [name for name in LADDER_ORDER if name in registered]


class TimedBot:
    """A bot that appends the seconds each of its inner bot's decisions took to `samples`.

    It passes through whatever `play_match` hands the bot (extra keyword arguments such as
    a determinization sampler) and forwards every other attribute, `wants_samples`
    included, so the wrapped bot plays exactly as it would unwrapped.
    """

    def __init__(self, bot: Bot, samples: list[float]) -> None:
        self.bot = bot
        self.name = bot.name
        self.samples = samples

    def __getattr__(self, attribute: str) -> Any:
        if attribute == "bot":  # not set yet (copying, unpickling): no recursion
            raise AttributeError(attribute)
        return getattr(self.bot, attribute)

    def choose(
        self,
        game: Game,
        view: dict[str, Any],
        legal_moves: list[Move],
        chance: Chance,
        **extra: Any,
    ) -> Move:
        started = time.perf_counter()
        move = self.bot.choose(game, view, legal_moves, chance, **extra)
        self.samples.append(time.perf_counter() - started)
        return move


def pairings(levels: Sequence[str], seats: int, one_way: bool = False) -> list[tuple[str, str]]:
    """(a, b) pairs to play: harder level first; both ways round above two seats."""
    pairs = []
    for high in range(len(levels)):
        for low in range(high):
            pairs.append((levels[high], levels[low]))
            if seats > 2 and not one_way:
                pairs.append((levels[low], levels[high]))
    return pairs


def timing(samples: Sequence[float]) -> dict[str, Any]:
    if not samples:
        return {"mean": None, "p95": None, "moves": 0}
    ordered = sorted(samples)
    return {
        "mean": round(1000 * statistics.fmean(ordered), 4),
        "p95": round(1000 * percentile(ordered, 0.95), 4),
        "moves": len(ordered),
    }


def ladder(
    game: Game,
    levels: Sequence[str],
    *,
    seats: int,
    matches: int,
    seed: int,
    max_plies: int,
    paired: bool = True,
    one_way: bool = False,
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Play the ladder and tally it (the JSON `simulate --ladder --json` prints).

    `options` are the match options every deal is played with (the game's defaults if None).
    """
    started = time.perf_counter()
    samples: dict[str, list[float]] = {level: [] for level in levels}
    report: dict[str, Any] = {
        "game": game.slug,
        "levels": list(levels),
        "seats": seats,
        "matches_per_pair": matches,
        "seed": seed,
        "paired": paired and seats > 1,
        "one_way": one_way and seats > 2,
        "options": dict(options or {}),
        "pairs": [],
    }
    if seats == 1:
        report.update(solo_runs(game, levels, matches, seed, max_plies, samples, options))
    else:
        report["pairs"] = [
            play_pair(game, a, b, seats, matches, seed, max_plies, paired, samples, options)
            for a, b in pairings(levels, seats, one_way)
        ]
    report["decision_ms"] = {level: timing(samples[level]) for level in levels}
    report["wall_seconds"] = round(time.perf_counter() - started, 3)
    return report


def play_pair(
    game: Game,
    a: str,
    b: str,
    seats: int,
    matches: int,
    seed: int,
    max_plies: int,
    paired: bool,
    samples: dict[str, list[float]],
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """One seat of level `a` against `seats - 1` of level `b`, the lone seat rotating."""
    names = [a] + [b] * (seats - 1)
    a_wins = b_wins = draws = unfinished = total_plies = 0
    for index in range(matches):
        order = seat_order(seats, index, rotate=True)
        bots = [TimedBot(level_bot(names[k]), samples[names[k]]) for k in order]
        deal = match_seed(seed, deal_index(seats, index, paired))
        state, plies, _moves = play_match(game, deal, bots, options, max_plies=max_plies)
        total_plies += plies
        outcome = game.outcome(state)
        a_seat = order.index(0)
        a_won = outcome is not None and a_seat in outcome.winners
        b_won = outcome is not None and any(seat != a_seat for seat in outcome.winners)
        if outcome is None:
            unfinished += 1
        elif a_won and not b_won:
            a_wins += 1
        elif b_won and not a_won:
            b_wins += 1
        else:  # nobody won, or a shared win across the two levels
            draws += 1
    return {
        "a": a,
        "b": b,
        "a_wins": a_wins,
        "b_wins": b_wins,
        "draws": draws,
        "unfinished": unfinished,
        "a_share": round(a_wins / matches, 4),
        "ci95": [round(bound, 4) for bound in wilson_interval(a_wins, matches)],
        "mean_plies": round(total_plies / matches, 2),
    }


def solo_runs(
    game: Game,
    levels: Sequence[str],
    matches: int,
    seed: int,
    max_plies: int,
    samples: dict[str, list[float]],
    options: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A one-seat game: each level plays the same deals; scores and paired differences."""
    runs: dict[str, Any] = {}
    scores_by_level: dict[str, list[int | None]] = {}
    for level in levels:
        scores: list[int | None] = []
        endings: dict[str, int] = {}
        completed = unfinished = total_plies = 0
        for index in range(matches):
            bot = TimedBot(level_bot(level), samples[level])
            state, plies, _moves = play_match(
                game, match_seed(seed, index), [bot], options, max_plies=max_plies
            )
            total_plies += plies
            outcome = game.outcome(state)
            if outcome is None:
                unfinished += 1
                scores.append(None)
                continue
            completed += bool(outcome.winners)
            endings[outcome.reason] = endings.get(outcome.reason, 0) + 1
            scores.append(outcome.scores[0] if outcome.scores is not None else None)
        scores_by_level[level] = scores
        runs[level] = {
            "scores": score_distribution([score for score in scores if score is not None]),
            "completed": completed,
            "completed_share": round(completed / matches, 4),
            "endings": dict(sorted(endings.items())),
            "unfinished": unfinished,
            "mean_plies": round(total_plies / matches, 2),
        }
    differences = []
    for a, b in pairings(levels, 1):
        deltas = [
            first - second
            for first, second in zip(scores_by_level[a], scores_by_level[b], strict=True)
            if first is not None and second is not None
        ]
        differences.append({"a": a, "b": b, "runs": len(deltas), **mean_interval(deltas)})
    return {"runs": runs, "score_differences": differences}


def mean_interval(values: Sequence[int], z: float = 1.96) -> dict[str, Any]:
    """The mean of `values` and its normal-approximation 95% interval (None if under 2)."""
    if len(values) < 2:
        mean = round(statistics.fmean(values), 2) if values else None
        return {"mean": mean, "ci95": None}
    mean = statistics.fmean(values)
    margin = z * statistics.stdev(values) / math.sqrt(len(values))
    return {"mean": round(mean, 2), "ci95": [round(mean - margin, 2), round(mean + margin, 2)]}


def format_ladder(report: dict[str, Any]) -> str:
    seats, matches = report["seats"], report["matches_per_pair"]
    if seats == 1:
        lines = [
            f"{report['game']} ladder: {matches} runs per level, seed {report['seed']}, one seat",
            "",
            *format_solo(report),
        ]
    else:
        lines = [
            f"{report['game']} ladder: {matches} matches per pair, seed {report['seed']}, "
            f"{seats} seats{', paired deals' if report['paired'] else ''}",
            "",
            *format_grid(report),
            "",
            *format_pairs(report),
        ]
    lines[0] += options_note(report)
    lines += ["", *format_timing(report), "", f"wall time: {report['wall_seconds']} s"]
    return "\n".join(lines)


def format_grid(report: dict[str, Any]) -> list[str]:
    """Row level's win share against the column level, with its 95% CI."""
    levels, seats, matches = report["levels"], report["seats"], report["matches_per_pair"]
    cells: dict[tuple[str, str], str] = {}

    def cell(wins: int) -> str:
        low, high = wilson_interval(wins, matches)
        return f"{100 * wins / matches:.1f}% ({100 * low:.1f}–{100 * high:.1f})"

    for pair in report["pairs"]:
        cells[pair["a"], pair["b"]] = cell(pair["a_wins"])
        if seats == 2:
            cells[pair["b"], pair["a"]] = cell(pair["b_wins"])
    width = max([len(text) for text in cells.values()] + [len(level) for level in levels]) + 2
    label = max(len(level) for level in levels) + 2
    if seats == 2:
        title = "win share of row vs column, 95% CI (draws and unfinished count as not won)"
    else:
        title = (
            f"win share of one row seat vs {seats - 1} column seats, 95% CI "
            f"(fair share {100 / seats:.1f}%)"
        )
    lines = [title, " " * label + "".join(f"{level:<{width}}" for level in levels).rstrip()]
    for row in levels:
        texts = (cells.get((row, column), "—") for column in levels)
        lines.append((f"{row:<{label}}" + "".join(f"{text:<{width}}" for text in texts)).rstrip())
    return lines


def format_pairs(report: dict[str, Any]) -> list[str]:
    versus = "v" if report["seats"] == 2 else f"v {report['seats'] - 1}x"
    names = [f"{pair['a']} {versus} {pair['b']}" for pair in report["pairs"]]
    width = max(len("pair"), *map(len, names)) + 2
    lines = [f"{'pair':<{width}}{'a wins':>8}{'b wins':>8}{'draws':>7}{'unfin.':>8}{'plies':>8}"]
    for name, pair in zip(names, report["pairs"], strict=True):
        lines.append(
            f"{name:<{width}}{pair['a_wins']:>8}{pair['b_wins']:>8}{pair['draws']:>7}"
            f"{pair['unfinished']:>8}{pair['mean_plies']:>8}"
        )
    return lines


def format_solo(report: dict[str, Any]) -> list[str]:
    width = max(len("level"), *map(len, report["levels"])) + 2
    lines = [
        f"{'level':<{width}}{'mean':>8}{'median':>8}{'p10':>6}{'p90':>6}{'min':>6}{'max':>6}"
        f"{'done':>8}{'plies':>8}"
    ]
    for level in report["levels"]:
        run = report["runs"][level]
        scores = run["scores"]
        row = [scores[key] for key in ("mean", "median", "p10", "p90", "min", "max")]
        texts = ["–" if value is None else str(value) for value in row]
        lines.append(
            f"{level:<{width}}{texts[0]:>8}{texts[1]:>8}"
            + "".join(f"{text:>6}" for text in texts[2:])
            + f"{100 * run['completed_share']:>7.1f}%{run['mean_plies']:>8}"
        )
    if report["score_differences"]:
        lines += ["", "mean score difference per deal (first level minus second), 95% CI"]
    for diff in report["score_differences"]:
        interval = "–" if diff["ci95"] is None else f"{diff['ci95'][0]} to {diff['ci95'][1]}"
        pair = f"{diff['a']} − {diff['b']}"
        lines.append(f"{pair}: {diff['mean']} ({interval}), {diff['runs']} deals")
    return lines


def format_timing(report: dict[str, Any]) -> list[str]:
    width = max(len("decision ms"), *map(len, report["levels"])) + 2
    lines = [f"{'decision ms':<{width}}{'mean':>10}{'p95':>10}{'moves':>10}"]
    for level, times in report["decision_ms"].items():
        if times["moves"]:
            mean, p95 = f"{times['mean']:.4f}", f"{times['p95']:.4f}"
        else:
            mean = p95 = "–"
        lines.append(f"{level:<{width}}{mean:>10}{p95:>10}{times['moves']:>10}")
    return lines
