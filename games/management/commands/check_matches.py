"""`manage.py check_matches`: replay every match in the database; verify the finished ones.

What to run after restoring a backup (docs/operations.md, "Backup and restore"), and
whenever the move logs need vouching for. For every match:

- its seed is the one committed to: sha256(seed) is the stored commitment;
- its log is numbered 0, 1, 2… up to the match's ply, and every move is legal when the
  log is replayed through the engine from the seed;
- a running match waits for the seats the replay says are to act;
- a finished match's export verifies against its commitment, as `/verify/` and
  `verify_match` check it (games.fairness): the replay reaches the recorded outcome. A
  weekly run still private is checked with its seed too (an operator's check: nothing is
  shown to anyone).

Exit status 0 when every match checks out, 1 with each problem on standard error.
`--json` prints the findings as JSON.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import fairness
from games.engine import registry
from games.engine.core import IllegalMove, InvalidOptions
from games.models import Match


@dataclass
class Findings:
    matches: int = 0
    moves: int = 0
    running: int = 0
    verified: int = 0  # finished matches whose export verifies
    problems: list[dict[str, Any]] = field(default_factory=list)


class Command(BaseCommand):
    help = "Replay every match's move log; verify every finished match against its commitment."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--json", action="store_true", help="print the findings as JSON")

    def handle(self, *args: object, **options: object) -> None:
        findings = Findings()
        matches = Match.objects.exclude(status=Match.Status.WAITING).prefetch_related("seats")
        for match in matches.order_by("pk").iterator(chunk_size=200):
            findings.matches += 1
            for found in match_problems(match, findings):
                findings.problems.append({"match": match.pk, "game": match.game, "problem": found})
        if options["json"]:
            self.stdout.write(json.dumps(findings.__dict__, indent=1))
        else:
            self.stdout.write(
                f"{findings.matches} matches, {findings.moves} moves replayed: "
                f"{findings.verified} finished and verified, {findings.running} running."
            )
        for problem in findings.problems:
            self.stderr.write(f"match {problem['match']} ({problem['game']}): {problem['problem']}")
        if findings.problems:
            raise CommandError(f"{len(findings.problems)} problem(s) found.")


def match_problems(match: Match, findings: Findings) -> list[str]:
    """What is wrong with one match's log, replayed from its seed (empty: nothing)."""
    game = registry.get(match.game)
    seed = bytes(match.seed)
    if Match.commitment_for(seed) != match.seed_commitment:
        return ["its seed is not the one committed to (sha256 differs)"]
    moves = list(match.moves.order_by("ply").values_list("ply", "seat", "payload"))
    findings.moves += len(moves)
    if [ply for ply, _, _ in moves] != list(range(match.ply)):
        return [f"its log is not the plies 0 to {match.ply - 1} the match counts"]
    try:
        state = game.new(match.size, seed, match.options)
    except InvalidOptions as error:
        return [f"it cannot start from its options: {error.message}"]
    for ply, seat, payload in moves:
        try:
            state, _ = game.apply(state, seat, payload)
        except IllegalMove as error:
            return [f"move {ply} (seat {seat}) is not legal on replay: {error.message}"]
        except Exception:  # a payload the engine chokes on is not a legal move either
            return [f"move {ply} (seat {seat}) is not a legal move on replay"]
    if match.status == Match.Status.ACTIVE:
        findings.running += 1
        expected = tuple(game.to_act(state))
        if match.seats_to_act != expected:
            return [f"it waits for seats {match.seats_to_act}, the replay for {expected}"]
        return []
    if match.status != Match.Status.FINISHED:
        return []  # called off: the log replays, there is no result to check
    result = fairness.export_verify(fairness.export_parse(fairness.export_json(_export(match))))
    if not result.is_verified:
        return [f"its export does not verify: {result.summary}"]
    findings.verified += 1
    return []


def _export(match: Match) -> dict[str, Any]:
    """The match's export with its seed, even while a weekly run keeps it hidden."""
    document = fairness.export_build(match=match, viewer_seat=None)
    if document["seed"] is None:
        moves = match.moves.order_by("ply").values_list("ply", "seat", "payload")
        document["seed"] = bytes(match.seed).hex()
        document["moves"] = [{"ply": p, "seat": s, "payload": m} for p, s, m in moves]
    return document
