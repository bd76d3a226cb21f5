"""`manage.py simulate <game>`: AI-vs-AI matches through the engine, no database.

Each deal's seed is sha256(f"{seed}:{deal}"), so a run is reproducible from --seed.
The bots rotate through the seats (match i puts bot k in seat (k + i) mod seats), so a
bot's wins are not just its seat's advantage; --fixed-seats turns that off.
With --paired (the default while seats rotate) each deal is played once per rotation:
with two bots, matches 2k and 2k+1 share a deal with the seats swapped, so the luck of
the deal cancels out. --no-paired gives every match its own deal.
The JSON reports a 95% Wilson interval ("ci95") for the first bot's share of all matches
won (draws and unfinished matches count as not won).
A one-seat game (BaniraCards) is a scored run rather than a contest: its report adds
"runs", the distribution of the final scores of the finished runs (mean, median, p10,
p90, min, max; percentiles by nearest rank), the share of runs completed (won) and the
count of each ending; its table leads with that distribution. Use it to balance decks.
`--ladder` plays every bot level against every other instead (see `_ladder.py`): a
win-rate table with 95% intervals, mean plies per pair and decision time per level.
`--options '{"hp": 20}'` plays every deal with those match options (checked by the game).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import statistics
import time
from collections.abc import Mapping, Sequence
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import ai
from games.ai.play import EngineClock, play_match
from games.engine import registry
from games.engine.core import Game, InvalidOptions


def match_seed(seed: int, index: int) -> bytes:
    return hashlib.sha256(f"{seed}:{index}".encode()).digest()


def deal_index(seats: int, index: int, paired: bool) -> int:
    """Which deal match `index` plays: with pairing, `seats` matches in a row share one."""
    return index // seats if paired else index


def wilson_interval(wins: int, matches: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a win share of `wins` out of `matches` (95% for z=1.96)."""
    share = wins / matches
    spread = z * z / matches
    centre = (share + spread / 2) / (1 + spread)
    margin = z * math.sqrt(share * (1 - share) / matches + spread / (4 * matches)) / (1 + spread)
    return max(0.0, centre - margin), min(1.0, centre + margin)


def percentile(ordered: Sequence[int], share: float) -> int:
    """The nearest-rank percentile of sorted values (share 0.1 is p10, 0.9 is p90)."""
    rank = max(1, math.ceil(share * len(ordered)))
    return ordered[rank - 1]


def score_distribution(scores: Sequence[int]) -> dict[str, Any]:
    """Mean, median, p10, p90, min and max of some final scores (all None when there are none)."""
    if not scores:
        return dict.fromkeys(("mean", "median", "p10", "p90", "min", "max"))
    ordered = sorted(scores)
    return {
        "mean": round(statistics.fmean(ordered), 2),
        "median": statistics.median(ordered),
        "p10": percentile(ordered, 0.1),
        "p90": percentile(ordered, 0.9),
        "min": ordered[0],
        "max": ordered[-1],
    }


def options_note(report: dict[str, Any]) -> str:
    """ ", options {...}" for a report played with match options, else nothing."""
    options = report.get("options")
    return f", options {json.dumps(options, sort_keys=True)}" if options else ""


def seat_order(bot_count: int, index: int, rotate: bool) -> list[int]:
    """Which bot (by position in --bots) sits in each seat in match `index`."""
    if not rotate:
        return list(range(bot_count))
    return [(seat - index) % bot_count for seat in range(bot_count)]


class Command(BaseCommand):
    help = "Play AI-vs-AI matches of a game through the engine (no database) and report."
    # Pure engine work: no models, URLs or templates, so the system checks have nothing to
    # say, and skipping them lets the simulator run while the web app is half built.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game", help=f"game slug: {', '.join(registry.slugs())}")
        parser.add_argument("--matches", type=int, default=100, help="matches to play")
        parser.add_argument(
            "--bots",
            help=f"comma-separated bot names, one per seat (known: {', '.join(ai.bot_names())}); "
            "one name fills every seat (default: random)",
        )
        parser.add_argument("--seats", type=int, help="seats per match (default: the minimum)")
        parser.add_argument("--seed", type=int, default=1, help="run seed (default 1)")
        parser.add_argument("--max-plies", type=int, default=10_000, help="cut a match off here")
        parser.add_argument("--fixed-seats", action="store_true", help="do not rotate seats")
        parser.add_argument(
            "--paired",
            action=argparse.BooleanOptionalAction,
            default=True,
            help="play each deal once per seat rotation (default; needs rotating seats)",
        )
        parser.add_argument("--json", action="store_true", help="print JSON, not a table")
        parser.add_argument(
            "--options",
            help="match options as a JSON object, e.g. '{\"hp\": 20}' (default: the game's own)",
        )
        parser.add_argument(
            "--ladder",
            action="store_true",
            help="play each bot level against each other level, --matches per pair",
        )
        parser.add_argument(
            "--levels",
            help="with --ladder: comma-separated levels, Easy first "
            "(default: every registered one of random, greedy, ismcts; the benchmark-only "
            "'oracle', Hard's search on the true state, only when named)",
        )
        parser.add_argument(
            "--one-way",
            action="store_true",
            help="with --ladder above two seats: only one harder seat against easier ones",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        game = self._game(options["game"])
        if options["ladder"]:
            return self._ladder(game, options)
        if options["levels"] is not None:
            raise CommandError("--levels only goes with --ladder.")
        if options["one_way"]:
            raise CommandError("--one-way only goes with --ladder.")
        names = self._bot_names(game, options["bots"] or "random", options["seats"])
        if options["matches"] < 1:
            raise CommandError("--matches must be at least 1.")
        if options["max_plies"] < 1:
            raise CommandError("--max-plies must be at least 1.")
        match_options = self._match_options(game, options, seats=len(names))
        report = simulate(
            game,
            names,
            matches=options["matches"],
            seed=options["seed"],
            max_plies=options["max_plies"],
            rotate=not options["fixed_seats"],
            paired=options["paired"],
            options=match_options,
        )
        if options["json"]:
            self.stdout.write(json.dumps(report, indent=2))
        else:
            self.stdout.write(format_table(report))

    def _ladder(self, game: Game, options: dict[str, Any]) -> None:
        # Imported here: the ladder module builds on this one's helpers.
        from games.management.commands import _ladder

        if options["bots"] is not None:
            raise CommandError("--ladder takes --levels, not --bots.")
        if options["fixed_seats"]:
            raise CommandError("--ladder always rotates the seats; drop --fixed-seats.")
        if options["matches"] < 1:
            raise CommandError("--matches must be at least 1.")
        if options["max_plies"] < 1:
            raise CommandError("--max-plies must be at least 1.")
        seats = game.min_seats if options["seats"] is None else options["seats"]
        self._check_seats(game, seats)
        match_options = self._match_options(game, options, seats=seats)
        if options["levels"] is None:
            levels = _ladder.default_levels()
        else:
            levels = [name.strip() for name in options["levels"].split(",")]
        for name in levels:
            try:
                _ladder.level_bot(name)
            except ai.UnknownBot as error:
                raise CommandError(error.message) from None
        if len(set(levels)) != len(levels):
            raise CommandError(f"--levels names a level twice: {', '.join(levels)}.")
        if seats > 1 and len(levels) < 2:
            raise CommandError(
                f"A ladder of {game.name} needs at least 2 levels, got {len(levels)}."
            )
        report = _ladder.ladder(
            game,
            levels,
            seats=seats,
            matches=options["matches"],
            seed=options["seed"],
            max_plies=options["max_plies"],
            paired=options["paired"],
            one_way=options["one_way"],
            options=match_options,
        )
        if options["json"]:
            self.stdout.write(json.dumps(report, indent=2))
        else:
            self.stdout.write(_ladder.format_ladder(report))

    def _match_options(
        self, game: Game, options: dict[str, Any], *, seats: int
    ) -> dict[str, Any] | None:
        """--options, parsed and checked by the game itself at the run's table size (None:
        the game's defaults)."""
        if options["options"] is None:
            return None
        try:
            parsed = json.loads(options["options"])
        except json.JSONDecodeError as error:
            raise CommandError(f"--options is not JSON: {error.msg}.") from None
        if not isinstance(parsed, dict):
            raise CommandError("--options must be a JSON object, e.g. '{\"hp\": 20}'.")
        try:
            game.new(seats, match_seed(options["seed"], 0), parsed)
        except InvalidOptions as error:
            raise CommandError(f"--options: {error.message}") from None
        return parsed

    def _game(self, slug: str) -> Game:
        try:
            return registry.get(slug)
        except registry.UnknownGame as error:
            known = ", ".join(registry.slugs())
            raise CommandError(f"{error.message} Known games: {known}.") from None

    def _bot_names(self, game: Game, bots: str, seats: int | None) -> list[str]:
        names = [name.strip() for name in bots.split(",")]
        for name in names:
            try:
                ai.get_bot(name)
            except ai.UnknownBot as error:
                raise CommandError(error.message) from None
        if len(names) == 1:
            names *= game.min_seats if seats is None else seats
        elif seats is not None and seats != len(names):
            raise CommandError(f"--seats {seats} does not match the {len(names)} bots given.")
        self._check_seats(game, len(names))
        return names

    def _check_seats(self, game: Game, seats: int) -> None:
        if not game.min_seats <= seats <= game.max_seats:
            allowed = (
                f"exactly {game.min_seats}"
                if game.min_seats == game.max_seats
                else f"{game.min_seats} to {game.max_seats}"
            )
            players = "player" if game.max_seats == 1 else "players"
            raise CommandError(f"{game.name} is played by {allowed} {players}, not {seats}.")


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
    """Play `matches` matches and tally them (the JSON the command prints)."""
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
        bots = [ai.get_bot(names[bot]) for bot in order]
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
    report = {
        "game": game.slug,
        "matches": matches,
        "seed": seed,
        "seats": seats,
        "rotate_seats": rotate,
        "paired": paired,
        "options": dict(options or {}),
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


def format_table(report: dict[str, Any]) -> str:
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
    lines += [
        "",
        f"plies: mean {report['plies']['mean']}, max {report['plies']['max']}",
        f"engine: {report['engine_moves']} moves in {report['engine_seconds']} s "
        f"= {report['engine_moves_per_second']:,} moves/s (apply + legal_moves only)",
        f"wall time: {report['wall_seconds']} s",
    ]
    return "\n".join(lines)


def format_runs_table(report: dict[str, Any]) -> str:
    """The table of a one-seat game: the score distribution first."""
    runs, matches = report["runs"], report["matches"]
    scores = runs["scores"]
    endings = ", ".join(f"{reason} {count}" for reason, count in runs["endings"].items())
    lines = [
        f"{report['game']}: {matches} runs by {report['bots'][0]['bot']}, seed {report['seed']}"
        f"{options_note(report)}",
        "",
        f"final score: mean {scores['mean']}, median {scores['median']}, "
        f"p10 {scores['p10']}, p90 {scores['p90']}, min {scores['min']}, max {scores['max']}",
        f"completed: {runs['completed']} of {matches} ({100 * runs['completed_share']:.1f}%)",
        f"endings: {endings or 'none'}",
    ]
    if report["unfinished"]:
        lines.append(f"unfinished (cut off at --max-plies): {report['unfinished']}")
    lines += [
        "",
        f"plies: mean {report['plies']['mean']}, max {report['plies']['max']}",
        f"engine: {report['engine_moves']} moves in {report['engine_seconds']} s "
        f"= {report['engine_moves_per_second']:,} moves/s (apply + legal_moves only)",
        f"wall time: {report['wall_seconds']} s",
    ]
    return "\n".join(lines)
