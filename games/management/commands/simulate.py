"""`manage.py simulate <game>`: AI levels play each other through the engine, no database.

A thin command over `games.ai.simulation` (read its modules for what is played and how
it is counted): it reads the arguments, has them checked, plays, and prints the report
as a table or as JSON.

- `--bots easy,hard`: one AI level per seat (one name fills every seat); the levels
  rotate through the seats and, with --paired (the default while seats rotate), each
  deal is played once per rotation. --fixed-seats and --no-paired turn those off.
- `--ladder [--levels easy,normal,hard,oracle]`: every level against every other; the
  benchmark-only "oracle" (Hard's search on the true state) only when named.
- `--options '{"hp": 20}'`: every deal is played with those match options.
- `--balance` (Grimhand Arcana: `--options '{"variant": "arcana"}'`): the balance report
  of games.ai.simulation.balance, random legal decks per deal, --bots levels (default
  normal), each card's play rate and win-rate delta, the seat advantage, match lengths
  and Death-card endings, with the issue's targets marked met or missed.
Each deal's seed is sha256(f"{seed}:{deal}"), so a run is reproducible from --seed.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.ai.simulation import checks, ladder, matches, tables
from games.engine import registry
from games.engine.core import Game


class Command(BaseCommand):
    help = "Play AI levels against each other through the engine (no database) and report."
    # Pure engine work: no models, URLs or templates, so the system checks have nothing to
    # say, and skipping them lets the simulator run while the web app is half built.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game", help=f"game slug: {', '.join(registry.slugs())}")
        parser.add_argument("--matches", type=int, default=100, help="matches to play")
        parser.add_argument(
            "--bots",
            help="comma-separated AI levels, one per seat "
            f"(known: {', '.join(checks.seat_level_ids())}); "
            "one name fills every seat (default: easy)",
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
            help="play each AI level against each other level, --matches per pair",
        )
        parser.add_argument(
            "--levels",
            help="with --ladder: comma-separated levels, Easy first "
            f"(default: {', '.join(checks.seat_level_ids())}; the benchmark-only "
            "'oracle', Hard's search on the true state, only when named)",
        )
        parser.add_argument(
            "--balance",
            action="store_true",
            help="Grimhand Arcana's balance report: card play rates and win-rate deltas, "
            "seat advantage, match lengths (random legal decks; --bots default normal)",
        )
        parser.add_argument(
            "--one-way",
            action="store_true",
            help="with --ladder above two seats: only one harder seat against easier ones",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            game = checks.game_get(options["game"])
            if options["balance"]:
                report, text = self._balance(game, options)
            else:
                report, text = (self._ladder if options["ladder"] else self._run)(game, options)
        except checks.SimulationError as error:
            raise CommandError(error.message) from None
        self.stdout.write(json.dumps(report, indent=2) if options["json"] else text)

    def _run(self, game: Game, options: dict[str, Any]) -> tuple[dict[str, Any], str]:
        if options["levels"] is not None:
            raise CommandError("--levels only goes with --ladder.")
        if options["one_way"]:
            raise CommandError("--one-way only goes with --ladder.")
        names = checks.seat_levels(game, options["bots"] or "easy", options["seats"])
        checks.counts_check(matches=options["matches"], max_plies=options["max_plies"])
        report = matches.simulate(
            game,
            names,
            matches=options["matches"],
            seed=options["seed"],
            max_plies=options["max_plies"],
            rotate=not options["fixed_seats"],
            paired=options["paired"],
            options=self._match_options(game, options, seats=len(names)),
        )
        return report, tables.format_table(report)

    def _ladder(self, game: Game, options: dict[str, Any]) -> tuple[dict[str, Any], str]:
        if options["bots"] is not None:
            raise CommandError("--ladder takes --levels, not --bots.")
        if options["fixed_seats"]:
            raise CommandError("--ladder always rotates the seats; drop --fixed-seats.")
        checks.counts_check(matches=options["matches"], max_plies=options["max_plies"])
        seats = game.min_seats if options["seats"] is None else options["seats"]
        checks.seats_check(game, seats)
        match_options = self._match_options(game, options, seats=seats)
        report = ladder.ladder(
            game,
            checks.ladder_levels(game, options["levels"], seats),
            seats=seats,
            matches=options["matches"],
            seed=options["seed"],
            max_plies=options["max_plies"],
            paired=options["paired"],
            one_way=options["one_way"],
            options=match_options,
        )
        return report, tables.format_ladder(report)

    def _balance(self, game: Game, options: dict[str, Any]) -> tuple[dict[str, Any], str]:
        if options["ladder"] or options["levels"] is not None or options["one_way"]:
            raise CommandError("--balance takes --bots, not --ladder, --levels or --one-way.")
        if options["fixed_seats"] or not options["paired"]:
            raise CommandError("--balance always plays paired deals with the seats swapped.")
        if game.slug != "grimhand":
            raise CommandError("--balance reports on Grimhand Arcana only.")
        known = checks.ladder_level_ids()
        names = checks.seat_levels(game, options["bots"] or "normal", 2, known)
        checks.counts_check(matches=options["matches"], max_plies=options["max_plies"])
        match_options = self._match_options(game, options, seats=2)
        if not match_options or match_options.get("variant") != "arcana":
            raise CommandError(
                '--balance reports on Grimhand Arcana: add --options \'{"variant": "arcana"}\'.'
            )
        from games.ai.simulation import balance  # needs the Arcana engine

        report = balance.balance(
            game,
            names,
            matches=options["matches"],
            seed=options["seed"],
            max_plies=options["max_plies"],
            options=match_options,
        )
        return report, tables.format_balance(report)

    def _match_options(
        self, game: Game, options: dict[str, Any], *, seats: int
    ) -> dict[str, Any] | None:
        return checks.match_options(game, options["options"], seats=seats, seed=options["seed"])
