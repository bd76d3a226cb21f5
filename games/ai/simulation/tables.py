"""Reports as text tables: a run (`matches.simulate`) and a ladder (`ladder.ladder`).

Invariants (the standard library only): each function reads a report and returns text; it
never plays or computes anything a report does not already hold, except the 95% interval
of a ladder cell, recomputed from its counts.
"""

from __future__ import annotations

import json
from typing import Any

from games.ai.simulation.stats import wilson_interval


def options_note(report: dict[str, Any]) -> str:
    """ ", options {...}" for a report played with match options, else nothing."""
    options = report.get("options")
    return f", options {json.dumps(options, sort_keys=True)}" if options else ""


def searches_line(report: dict[str, Any]) -> str:
    """ "levels: easy = random legal moves; hard = flat Monte Carlo, 30 samples"."""
    searches = report["searches"].items()
    return "levels: " + "; ".join(f"{name} = {search}" for name, search in searches)


def _engine_lines(report: dict[str, Any]) -> list[str]:
    return [
        "",
        f"plies: mean {report['plies']['mean']}, max {report['plies']['max']}",
        f"engine: {report['engine_moves']} moves in {report['engine_seconds']} s "
        f"= {report['engine_moves_per_second']:,} moves/s (apply + legal_moves only)",
        f"wall time: {report['wall_seconds']} s",
    ]


def format_table(report: dict[str, Any]) -> str:
    """A run's table: wins per level and per seat, or a one-seat game's scores."""
    if "runs" in report:
        return format_runs_table(report)
    matches = report["matches"]

    def share(count: int) -> str:
        return f"{count:>8}  {100 * count / matches:5.1f}%"

    lines = [
        f"{report['game']}: {matches} matches, seed {report['seed']}, "
        f"{'rotating' if report['rotate_seats'] else 'fixed'} seats"
        f"{', paired deals' if report['paired'] else ''}"
        f"{options_note(report)}",
        searches_line(report),
        "",
        f"{'':<16}{'wins':>8}  {'share':>6}",
    ]
    for position, bot in enumerate(report["bots"]):
        label = f"bot {position} {bot['bot']}"
        lines.append(f"{label:<16}{share(bot['wins'])}")
    low, high = report["ci95"]
    lines.append(f"{'':<16}bot 0 share, 95% CI: {100 * low:.1f}%–{100 * high:.1f}%")
    for seat, wins in enumerate(report["wins_by_seat"]):
        label = f"seat {seat}"
        lines.append(f"{label:<16}{share(wins)}")
    lines.append(f"{'draws':<16}{share(report['draws'])}")
    if report["unfinished"]:
        lines.append(f"{'unfinished':<16}{share(report['unfinished'])}")
    return "\n".join(lines + _engine_lines(report))


def format_runs_table(report: dict[str, Any]) -> str:
    """The table of a one-seat game: the score distribution first."""
    runs, matches = report["runs"], report["matches"]
    scores = runs["scores"]
    endings = ", ".join(f"{reason} {count}" for reason, count in runs["endings"].items())
    lines = [
        f"{report['game']}: {matches} runs by {report['bots'][0]['bot']}, seed {report['seed']}"
        f"{options_note(report)}",
        searches_line(report),
        "",
        f"final score: mean {scores['mean']}, median {scores['median']}, "
        f"p10 {scores['p10']}, p90 {scores['p90']}, min {scores['min']}, max {scores['max']}",
        f"completed: {runs['completed']} of {matches} ({100 * runs['completed_share']:.1f}%)",
        f"endings: {endings or 'none'}",
    ]
    if report["unfinished"]:
        lines.append(f"unfinished (cut off at --max-plies): {report['unfinished']}")
    return "\n".join(lines + _engine_lines(report))


def format_ladder(report: dict[str, Any]) -> str:
    """A ladder's table: the win-share grid and the pairs, or one-seat scores; timings."""
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
    lines.insert(1, searches_line(report))
    lines += ["", *format_timing(report), "", f"wall time: {report['wall_seconds']} s"]
    return "\n".join(lines)


def format_grid(report: dict[str, Any]) -> list[str]:
    """Row level's win share against the column level, with its 95% CI."""
    names, seats, matches = report["levels"], report["seats"], report["matches_per_pair"]
    cells: dict[tuple[str, str], str] = {}

    def cell(wins: int) -> str:
        low, high = wilson_interval(wins, matches)
        return f"{100 * wins / matches:.1f}% ({100 * low:.1f}–{100 * high:.1f})"

    for pair in report["pairs"]:
        cells[pair["a"], pair["b"]] = cell(pair["a_wins"])
        if seats == 2:
            cells[pair["b"], pair["a"]] = cell(pair["b_wins"])
    width = max([len(text) for text in cells.values()] + [len(name) for name in names]) + 2
    label = max(len(name) for name in names) + 2
    if seats == 2:
        title = "win share of row vs column, 95% CI (draws and unfinished count as not won)"
    else:
        title = (
            f"win share of one row seat vs {seats - 1} column seats, 95% CI "
            f"(fair share {100 / seats:.1f}%)"
        )
    lines = [title, " " * label + "".join(f"{name:<{width}}" for name in names).rstrip()]
    for row in names:
        texts = (cells.get((row, column), "—") for column in names)
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
    for name in report["levels"]:
        run = report["runs"][name]
        scores = run["scores"]
        row = [scores[key] for key in ("mean", "median", "p10", "p90", "min", "max")]
        texts = ["–" if value is None else str(value) for value in row]
        lines.append(
            f"{name:<{width}}{texts[0]:>8}{texts[1]:>8}"
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
    for name, times in report["decision_ms"].items():
        if times["moves"]:
            mean, p95 = f"{times['mean']:.4f}", f"{times['p95']:.4f}"
        else:
            mean = p95 = "–"
        lines.append(f"{name:<{width}}{mean:>10}{p95:>10}{times['moves']:>10}")
    return lines


def format_balance(report: dict[str, Any]) -> str:
    """The Arcana balance report: targets, seat advantage, match lengths, endings, cards."""
    seat = report["seat_advantage"]
    plies = report["plies"]
    low, high = seat["ci95"]
    lines = [
        f"{report['game']} arcana balance: {report['matches']} matches, seed {report['seed']}, "
        f"paired deals, {report['decks']} (pool: {report['pool']}; "
        f"{report['deck_fallbacks']} archetype fallbacks){options_note(report)}",
        searches_line(report),
        "",
        "targets",
    ]
    for target in report["targets"]:
        mark = "met   " if target["met"] else "MISSED"
        lines.append(f"  {mark}  {target['target']}: {target['measured']}")
    lines += [
        "",
        f"seat advantage: seat 0 won {seat['seat0_wins']} of {report['matches']} "
        f"({100 * seat['share']:.1f}%, 95% CI {100 * low:.1f}–{100 * high:.1f}%); "
        f"draws {report['draws']}, unfinished {report['unfinished']}",
        f"match length in plies: median {plies['median']}, quartiles {plies['q1']}–"
        f"{plies['q3']}, mean {plies['mean']}, min {plies['min']}, max {plies['max']}",
    ]
    largest = max((row["count"] for row in plies["histogram"]), default=0) or 1
    for row in plies["histogram"]:
        span = f"{row['low']}+" if row["high"] is None else f"{row['low']}–{row['high']}"
        bar = "#" * round(40 * row["count"] / largest)
        lines.append(f"  {span:>8} {row['count']:>6}  {bar}")
    endings = ", ".join(f"{reason} {count}" for reason, count in report["endings"].items())
    lines += [
        f"endings: {endings or 'none'}; on a Death card: {100 * report['death_share']:.1f}%",
        "",
        "cards (play rate: share of the seats holding it that played it; delta: win share "
        "with it minus without, 95% CI)",
        f"{'card':<20}{'decks':>7}{'played':>8}{'plays':>7}{'with':>8}{'without':>9}"
        f"{'delta':>8}  95% CI",
    ]

    def percent(value: float | None) -> str:
        return "–" if value is None else f"{100 * value:.1f}%"

    for row in report["cards"]:
        interval = (
            "–"
            if row["ci95"] is None
            else f"{100 * row['ci95'][0]:+.1f} to {100 * row['ci95'][1]:+.1f}"
        )
        delta = "–" if row["delta"] is None else f"{100 * row['delta']:+.1f}"
        lines.append(
            f"{row['card']:<20}{row['in_decks']:>7}{percent(row['play_rate']):>8}"
            f"{row['plays']:>7}{percent(row['win_with']):>8}{percent(row['win_without']):>9}"
            f"{delta:>8}  {interval}"
        )
    lines += ["", f"wall time: {report['wall_seconds']} s"]
    return "\n".join(lines)
