"""CPU of the UPDATEs a move makes: `Model.save(update_fields=...)` against
`config.compiled.save_fields`, in one quiet process.

`python -m benchmarks.load.savecost` (PostgreSQL and Redis answering as for `make
loadtest`): in the load run's environment (a fresh database, the production settings, no
server), saves one seat's clock fields and the match's ply, as `games.services.clock` and
`games.services.moves` do on every move, each way in turn, inside one transaction, and
prints CPU milliseconds per save (`time.process_time`), with a SELECT 1 as the reference
measured in the same run.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.load.stack import DEFAULT_PG_URL, DEFAULT_REDIS_URL, Stack

ROOT = Path(__file__).resolve().parents[2]
SAVES = 2000


def measure() -> dict[str, float]:
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction
    from django.utils import timezone

    from config.compiled import save_fields
    from games import services
    from games.models import Match, Seat

    users = [get_user_model().objects.create_user(username=f"save{n}") for n in (0, 1)]
    created = services.match_create(
        creator=users[0], game_slug="dogblade", opponent="player", invitee_username="save1"
    )
    match = Match.objects.get(pk=created.pk)
    seat = Seat.objects.filter(match=match).order_by("index").first()
    assert seat is not None
    clock = ("turn_started", "deadline", "paused_seconds_left")
    ply = ("ply", "to_act", "updated")

    def select_one() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")

    ways: dict[str, Callable[[], None]] = {
        "reference_select_1": select_one,
        "seat_save": lambda: seat.save(update_fields=list(clock)),
        "seat_save_fields": lambda: save_fields(seat, clock),
        "match_save": lambda: match.save(update_fields=list(ply)),
        "match_save_fields": lambda: save_fields(match, ply),
    }
    result: dict[str, list[float]] = {name: [] for name in ways}
    for _round in range(3):  # interleaved, so a slower moment touches every way
        for name, way in ways.items():
            with transaction.atomic():
                for _ in range(100):  # warm: prepared statements, caches
                    way()
                started = time.process_time()
                for _ in range(SAVES):
                    seat.turn_started = timezone.now()
                    way()
                result[name].append((time.process_time() - started) * 1000 / SAVES)
    return {f"{name}_cpu_ms": round(min(runs), 4) for name, runs in result.items()}


def main() -> int:
    if "--child" in sys.argv:
        print(json.dumps({"benchmark": "savecost", **measure()}))
        return 0
    with Stack(DEFAULT_PG_URL, DEFAULT_REDIS_URL, log_dir=Path(tempfile.mkdtemp())) as stack:
        stack.create_database()
        child = ["-m", "benchmarks.load.savecost", "--child"]
        print(stack.run_python(child, env={"CELERY_BROKER_URL": ""}).strip().splitlines()[-1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
