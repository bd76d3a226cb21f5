"""Nothing lost: a `pg_dump -Fc` of a live database restores into a fresh database, where
every match replays, every finished match verifies against its commitment, and play goes
on (docs/operations.md, "Backup and restore").

The procedure is the documented one, with the real binaries: `pg_dump` of this test's
database while it is in use, `pg_restore` into a new database of a name nobody else can
hold (this test database's name, this process, and random digits), then the site itself
(`manage.py` in a subprocess, pointed at the copy by DATABASE_URL, with no Redis at all:
nothing in Redis needs a backup) runs `migrate --check`, `check_matches`, and a move on a
running match plus a new match. The copy is dropped afterwards, whatever happens.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import pytest
from django.db import connection

from games.models import Match, Move
from tests.conftest import IS_POSTGRES
from tests.history import helpers

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(not IS_POSTGRES, reason="a PostgreSQL backup: set DATABASE_URL"),
    pytest.mark.skipif(not shutil.which("pg_dump"), reason="needs pg_dump and pg_restore"),
    pytest.mark.django_db(transaction=True),  # committed rows: pg_dump reads its own snapshot
]

ROOT = Path(__file__).resolve().parents[2]
PLAY_ON = """
import json
from games import selectors, services
from games.engine import registry
from games.models import Match
match = Match.objects.get(pk={pk})
seat = match.seats_to_act[0]
player = match.seats.get(index=seat).user
state = selectors.match_position(match=match).state
move = registry.get(match.game).legal_moves(state, seat)[0]
result = services.move_submit(match_id=match.pk, user=player, ply=match.ply, move=move)
other = match.seats.exclude(index=seat).first().user
new = services.match_create(creator=player, game_slug="dogblade", opponent="player",
                            invitee_username=other.username)
print(json.dumps({{"ply": result.match.ply, "new_match": new.pk}}))
"""


def _url(name: str) -> str:
    """A libpq URL of database `name` on this test's server, as this test connects."""
    db = connection.settings_dict
    user = quote(db["USER"] or "")
    password = f":{quote(db['PASSWORD'])}" if db.get("PASSWORD") else ""
    host = f"{db['HOST'] or 'localhost'}:{db['PORT'] or 5432}"
    return f"postgresql://{user}{password}@{host}/{name}"


def _admin(sql: str) -> list[tuple]:
    """Run `sql` on the server's maintenance database, outside any transaction."""
    import psycopg

    with psycopg.connect(_url("postgres"), autocommit=True) as admin:
        cursor = admin.execute(sql)
        return cursor.fetchall() if cursor.description else []


@contextmanager
def fresh_database() -> Iterator[str]:
    """A new, empty database, dropped on the way out (even if the test fails)."""
    name = f"{connection.settings_dict['NAME']}_restore_{os.getpid()}_{secrets.token_hex(4)}"
    _admin(f'CREATE DATABASE "{name}"')
    try:
        yield name
    finally:
        _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        assert not _admin(f"SELECT 1 FROM pg_database WHERE datname = '{name}'")


def _run(*command: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    assert done.returncode == 0, f"{command[:3]} failed: {done.stderr[-2000:]}"
    return done


def _site(database: str, *args: str) -> subprocess.CompletedProcess:
    """`manage.py <args>` on `database`, with no Redis: a restored site starts on an empty
    cache, channel layer and broker (eager tasks)."""
    env = {key: value for key, value in os.environ.items() if "REDIS" not in key}
    env.pop("CELERY_BROKER_URL", None)
    env["DATABASE_URL"] = _url(database)
    return _run(sys.executable, "manage.py", *args, env=env)


def _counts(database: str) -> dict[str, int]:
    """Rows per table of `database` (every table of the public schema)."""
    import psycopg

    with psycopg.connect(_url(database)) as db:
        tables = db.execute(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1"
        ).fetchall()
        return {t: db.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for (t,) in tables}


def _matches(make_user) -> dict[str, list[Match]]:
    """Finished and running matches of every game, played through the services."""
    made: dict[str, list[Match]] = {"finished": [], "running": []}
    for game in helpers.GAMES:
        users = [make_user() for _ in range(helpers.SEATS[game])]
        match = helpers.start(game, users)
        helpers.play(match, users, plies=30, finish=True)
        made["finished"].append(match)
        if game == "banira":
            continue  # a run plays to its end within a few moves
        users = [make_user() for _ in range(helpers.SEATS[game])]
        match = helpers.start(game, users, seed=hashlib.sha256(f"{game}/running".encode()).digest())
        helpers.play(match, users, plies=6, finish=False)
        made["running"].append(match)
    return made


def test_a_dump_restores_into_a_fresh_database_where_every_match_replays(make_user, tmp_path):
    made = _matches(make_user)
    assert all(m.status == Match.Status.FINISHED for m in made["finished"])
    assert all(m.status == Match.Status.ACTIVE for m in made["running"])
    source = connection.settings_dict["NAME"]
    dump = tmp_path / "cardhall.dump"

    started = time.monotonic()
    _run(
        "pg_dump",
        "--format=custom",
        "--no-owner",
        "--no-privileges",
        f"--file={dump}",
        _url(source),
    )
    dumped = time.monotonic() - started
    before = _counts(source)
    assert before["games_move"] == Move.objects.count() > 100

    with fresh_database() as copy:
        started = time.monotonic()
        _run(
            "pg_restore",
            "--no-owner",
            "--no-privileges",
            "--exit-on-error",
            f"--dbname={_url(copy)}",
            str(dump),
        )
        restored = time.monotonic() - started
        assert _counts(copy) == before  # every row of every table

        _site(copy, "migrate", "--check")  # the schema is the code's: nothing to migrate
        checked = json.loads(_site(copy, "check_matches", "--json").stdout)
        assert checked["problems"] == []
        assert checked["matches"] == Match.objects.exclude(status=Match.Status.WAITING).count()
        assert checked["verified"] == len(made["finished"])
        assert checked["running"] == len(made["running"])
        assert checked["moves"] == before["games_move"]

        running = made["running"][0]
        output = _site(copy, "shell", "-c", PLAY_ON.format(pk=running.pk)).stdout
        played = json.loads(output.strip().splitlines()[-1])
        assert played["ply"] == running.ply + 1  # the move went into the copy…
        assert played["new_match"] > max(Match.objects.values_list("pk", flat=True))
        running.refresh_from_db()
        assert running.moves.count() == running.ply  # …and not into the source
        assert json.loads(_site(copy, "check_matches", "--json").stdout)["problems"] == []

    print(
        f"\n{before['games_move']} moves in {Match.objects.count()} matches: dump "
        f"{dump.stat().st_size / 1024:.0f} KB in {dumped:.2f} s, restore in {restored:.2f} s"
    )
