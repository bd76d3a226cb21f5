"""The Celery broker down: moves still commit, and what was due is caught up once it is
back (docs/operations.md, "Outages").

The production shape (uvicorn, 2 workers, DEBUG=0) with a real Celery worker; the broker
is a throwaway redis-server of this test's own, killed and started again on its port (the
cache and the channel layer are on another). While it is down:
- a player's move against the AI answers at once and is committed; the AI's task, sent
  after the commit, is dropped (logged once per process), so the AI does not answer;
- a move against a person starts their turn; its "your turn" reminder is dropped too.
Once it is back, the beat's sweepers, sent to the broker as beat sends them, catch up:
the AI moves, exactly once, and the reminder is sent.
"""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.live import live_celery_worker, manage
from tests.realtime.live_redis import needs_redis, production_server, throwaway_redis

pytestmark = [needs_redis, pytest.mark.worker]

WORKERS = 2
QUICK = 3.0  # seconds: the bound on a move's answer with the broker down
WAIT = 60.0
CSRF = "c" * 32
SERVER_ERROR = re.compile(r'\\?" 5\d\d\b')
BROKER_DOWN = re.compile(r"Celery broker unreachable")
DECKS = [[[20, 150]] * 6, [[20, 150]] * 6]

SEED = f"""
import json
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from accounts.services import profile_ensure
from games import services

def session_for(user):
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session.session_key

users = {{}}
for name in ("ann", "ben"):
    users[name] = get_user_model().objects.create_user(username=name, password="x" * 12)
    profile_ensure(user=users[name])
deal = {{"deal": {{"decks": {json.dumps(DECKS)}, "first": 0}}}}
against_ai = services.match_create(creator=users["ann"], game_slug="dogblade", opponent="ai",
                                   options=deal)
against_ben = services.match_create(creator=users["ann"], game_slug="dogblade",
                                    opponent="player", invitee_username="ben", options=deal)
services.match_join(match_id=against_ben.pk, user=users["ben"])
with open(OUT, "w") as out:
    json.dump({{"ai": against_ai.pk, "ben": against_ben.pk, "ann": session_for(users["ann"]),
                "ben_session": session_for(users["ben"]), "ben_id": users["ben"].pk}}, out)
"""


SEND_AS_BEAT = """
from config.celery_app import app
app.send_task("games.tasks.sweep_automation")
app.send_task("inbox.tasks.send_due_reminders")
"""


@pytest.fixture(autouse=True)
def _fast_and_clean():
    """Replaces the suite-wide fixture: nothing here uses this process's cache."""
    yield


def move(server_url: str, session: str, match_id: int, ply: int) -> tuple[int, float]:
    body = json.dumps({"ply": ply, "move": {"type": "attack"}}).encode()
    headers = {
        "Cookie": f"csrftoken={CSRF}; sessionid={session}",
        "X-CSRFToken": CSRF,
        "HX-Request": "true",
        "Content-Type": "application/json",
    }
    request = urllib.request.Request(
        f"{server_url}/matches/{match_id}/move/", data=body, headers=headers
    )
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=WAIT) as response:
            status = response.status
    except urllib.error.HTTPError as error:
        status = error.code
    return status, time.monotonic() - started


def query(env: dict[str, str], sql: str, *args) -> list[tuple]:  # noqa: ANN002
    url = env["DATABASE_URL"]
    if url.startswith("postgres"):
        import psycopg

        dsn = urlunsplit(urlsplit(url)._replace(scheme="postgresql"))
        with psycopg.connect(dsn) as conn:
            return [tuple(row) for row in conn.execute(sql, list(args)).fetchall()]
    import sqlite3

    with sqlite3.connect(url.removeprefix("sqlite:///")) as conn:
        return [tuple(row) for row in conn.execute(sql.replace("%s", "?"), list(args))]


def moves(env: dict[str, str], match_id: int) -> list[tuple[int, int]]:
    return query(env, "SELECT ply, seat FROM games_move WHERE match_id = %s ORDER BY ply", match_id)


def turn_reminders(env: dict[str, str], user_id: int) -> int:
    sql = "SELECT count(*) FROM inbox_notification WHERE user_id = %s AND kind = 'turn'"
    return query(env, sql, user_id)[0][0]


def until(predicate, what: str) -> None:  # noqa: ANN001
    deadline = time.monotonic() + WAIT
    while not predicate():
        assert time.monotonic() < deadline, what
        time.sleep(0.2)


def test_with_the_broker_down_moves_commit_and_the_sweepers_catch_up(tmp_path: Path):
    with throwaway_redis() as redis, throwaway_redis() as broker:
        broker_url = f"redis://127.0.0.1:{broker.port}/0"
        with (
            production_server(
                tmp_path,
                redis_url=redis.url,
                workers=WORKERS,
                CELERY_BROKER_URL=broker_url,
                AUTOMATION_STALL_SECONDS="2",
            ) as server,
            live_celery_worker(server.env, tmp_path / "worker.log") as worker,
        ):
            env = server.env
            out = tmp_path / "seed.json"
            manage(env, "shell", "-c", SEED.replace("OUT", repr(str(out))))
            seed = json.loads(out.read_text())
            ai_match, ben_match, ann = seed["ai"], seed["ben"], seed["ann"]

            # The broker up: the worker answers ann's move.
            assert move(server.url, ann, ai_match, 0)[0] == 200
            until(lambda: len(moves(env, ai_match)) == 2, "the worker never answered")

            mark = len(server.log_path.read_text(errors="replace"))
            broker.kill()
            status, took = move(server.url, ann, ai_match, 2)
            assert (status, moves(env, ai_match)[-1]) == (200, (2, 0))  # committed
            assert took < QUICK, f"the move took {took:.1f} s with the broker down"
            print(f"a move with the broker down: {took * 1000:.0f} ms")
            status, took = move(server.url, ann, ben_match, 0)  # ben's turn starts
            assert (status, moves(env, ben_match)) == (200, [(0, 0)])
            assert took < QUICK, f"the move took {took:.1f} s with the broker down"
            time.sleep(3)
            assert len(moves(env, ai_match)) == 3  # the AI's task was not sent
            assert turn_reminders(env, seed["ben_id"]) == 0  # nor ben's reminder

            log = server.log_path.read_text(errors="replace")[mark:]
            assert 1 <= len(BROKER_DOWN.findall(log)) <= WORKERS, log[-5000:]
            assert "on_commit" not in log, log[-5000:]  # no error per dropped task
            assert not SERVER_ERROR.search(log), log[-5000:]

            broker.start()  # back, empty, on the same port; the worker reconnects
            sent_at = time.monotonic()
            manage(env, "shell", "-c", SEND_AS_BEAT)  # by name, to the broker, as beat does
            until(lambda: len(moves(env, ai_match)) == 4, "the AI's move was never caught up")
            until(lambda: turn_reminders(env, seed["ben_id"]) == 1, "no reminder for ben")
            caught_up = time.monotonic() - sent_at
            time.sleep(2)
            assert moves(env, ai_match) == [(0, 0), (1, 1), (2, 0), (3, 1)]  # each ply once
            assert turn_reminders(env, seed["ben_id"]) == 1
            assert worker.is_running()  # it waited for its broker, however long
            print(f"caught up {caught_up:.1f} s after the broker came back")
