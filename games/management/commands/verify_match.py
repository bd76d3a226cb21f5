"""`manage.py verify_match FILE`: replay a match's export and check it (no database).

FILE is an export of `GET /matches/<id>/export` (docs/move-log.md), or `-` for standard
input. The checks are those of the /verify/ page: the format, sha256(seed) equals the
commitment, every move legal when replayed, and the recorded outcome is the replayed one.
Exit status 0 when verified, 1 when the export is rejected or cannot be checked yet (no
seed), with the reason on standard error. `--json` prints the findings as JSON.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import fairness


class Command(BaseCommand):
    help = "Replay a match export (JSON) from its seed and check it against its commitment."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the export from /matches/<id>/export (- for stdin)")
        parser.add_argument("--json", action="store_true", help="print the findings as JSON")

    def handle(self, *args: object, **options: object) -> None:
        text = _read(str(options["file"]))
        try:
            log = fairness.export_parse(text)
        except fairness.ExportRejected as error:
            raise CommandError(f"Rejected: {error.message}") from None
        result = fairness.export_verify(log)
        if options["json"]:
            self.stdout.write(json.dumps(_findings(result), indent=1))
        else:
            self._report(result)
        if not result.is_verified:
            raise CommandError(result.summary)

    def _report(self, result: fairness.Verification) -> None:
        log = result.log
        moves = len(log.moves)
        self.stdout.write(f"{log.game.name}, {log.seats} seats, {moves} moves (log version 1)")
        self.stdout.write(f"commitment  {log.commitment}")
        if not result.is_replayable:
            return
        mark = "ok" if result.is_commitment_ok else "MISMATCH"
        self.stdout.write(f"seed        {log.seed.hex() if log.seed else ''}  sha256: {mark}")
        if result.is_commitment_ok:
            self.stdout.write(f"moves       {result.plies_checked} of {moves} legal")
        if result.plies_checked == moves and result.is_commitment_ok:
            outcome = json.dumps(result.replayed_outcome)
            mark = "ok" if result.is_outcome_ok else "MISMATCH"
            self.stdout.write(f"outcome     {outcome}: {mark}")
        if result.is_verified:
            self.stdout.write(self.style.SUCCESS(result.summary))


def _read(path: str) -> str:
    limit = fairness.MAX_EXPORT_CHARS + 1
    if path == "-":
        return sys.stdin.read(limit)
    try:
        with Path(path).open(encoding="utf-8", errors="replace") as handle:
            return handle.read(limit)
    except OSError as error:
        raise CommandError(f"Cannot read {path}: {error.strerror}.") from None


def _findings(result: fairness.Verification) -> dict[str, object]:
    return {
        "verified": result.is_verified,
        "summary": result.summary,
        "game": result.log.game.slug,
        "moves": len(result.log.moves),
        "commitment_ok": result.is_commitment_ok,
        "plies_checked": result.plies_checked,
        "outcome": result.replayed_outcome,
        "outcome_ok": result.is_outcome_ok,
        "problems": result.problems,
    }
