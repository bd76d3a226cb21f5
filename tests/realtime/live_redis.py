"""A throwaway redis-server and the production shape (uvicorn, 2 workers, DEBUG=0) on it.

For the tests that count Redis connections and ask /healthz about a Redis that goes away.
They never touch the shared Redis of REDIS_URL: each run starts its own redis-server on a
spare port, with no persistence, and stops it afterwards. The live server reuses the
live-process helpers of tests/live.py: a fresh database, the server environment,
migrations, collectstatic and the wait for /healthz.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from config.websocket import UVICORN_WS
from tests.live import (
    LiveServer,
    _running,
    _spawn,
    _wait_until_healthy,
    free_port,
    fresh_database,
    manage,
    prepare_database,
    server_env,
)

REDIS_SERVER = shutil.which("redis-server")

# Skipped without REDIS_URL; in CI (CI_STRICT), a missing redis-server is a failure.
needs_redis = pytest.mark.skipif(
    not os.environ.get("REDIS_URL") or (REDIS_SERVER is None and not os.environ.get("CI_STRICT")),
    reason="needs Redis (set REDIS_URL, and redis-server installed for a throwaway server)",
)

CHANNEL_DB, CACHE_DB = 0, 1  # the server's REDIS_URL is /0; settings put the cache on /1


@dataclass
class ThrowawayRedis:
    port: int
    process: subprocess.Popen

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/{CHANNEL_DB}"

    def clients_by_db(self) -> dict[int, int]:
        """Connected clients per selected database, not counting the one asking."""
        import redis

        with redis.Redis(port=self.port, socket_timeout=5) as client:
            own = client.client_id()
            counts: dict[int, int] = {}
            for entry in client.client_list():
                if int(entry["id"]) != own:
                    counts[int(entry["db"])] = counts.get(int(entry["db"]), 0) + 1
            return counts

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)

    def kill(self) -> None:
        """Gone at once, as a crash: kill -9 (its data is not kept: no persistence)."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

    def start(self) -> None:
        """Start it again on the same port (empty, as a restarted server without data)."""
        self.stop()
        self.process = _start_redis_server(self.port)

    def pause(self) -> None:
        """Hung: it keeps its connections and accepts new ones, and answers nothing."""
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        self.process.send_signal(signal.SIGCONT)


def _start_redis_server(port: int) -> subprocess.Popen:
    """redis-server on `port`, no persistence, answering PING; fails the test otherwise."""
    import redis

    if REDIS_SERVER is None:
        pytest.fail("redis-server is not installed: the throwaway Redis needs it", pytrace=False)
    process = subprocess.Popen(
        [REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
         "--appendonly", "no", "--protected-mode", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 10
    while True:
        try:
            with redis.Redis(port=port, socket_timeout=1) as client:
                client.ping()
            return process
        except redis.ConnectionError:
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                pytest.fail("the throwaway redis-server did not start", pytrace=False)
            time.sleep(0.05)


@contextmanager
def throwaway_redis() -> Iterator[ThrowawayRedis]:
    """A redis-server of our own on a spare port: no persistence, stopped afterwards."""
    port = free_port()
    server = ThrowawayRedis(port, _start_redis_server(port))
    try:
        yield server
    finally:
        server.resume()  # a paused server cannot be stopped
        server.kill()


@contextmanager
def production_server(
    directory: Path, *, redis_url: str, workers: int = 2, **settings_env: str
) -> Iterator[LiveServer]:
    """uvicorn with `workers` processes, DEBUG=0, eager Celery, a fresh database, on the
    Redis at `redis_url`; `settings_env` are more environment variables for its settings."""
    with fresh_database(directory) as database_url:
        env = server_env(database_url, REDIS_URL=redis_url, **settings_env)
        env.pop("REDIS_CACHE_URL", None)  # the cache follows REDIS_URL (the next database)
        prepare_database(env)
        port = free_port()
        command = [sys.executable, "-m", "uvicorn", "web.asgi:application", *UVICORN_WS, "--host",
                   "127.0.0.1", "--port", str(port), "--workers", str(workers)]  # fmt: skip
        log_path = directory / "server.log"
        process = _spawn(command, env, log_path)
        server = LiveServer(process, log_path, env, url=f"http://127.0.0.1:{port}")
        with _running(server, f"server on port {port}"):
            _wait_until_healthy(server)
            yield server


SEED = """
import json, sys
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

def player(name):
    user = get_user_model().objects.create_user(username=name, password="correct horse battery")
    profile_ensure(user=user)
    return user

sockets = []
for number in range(MATCHES):
    first, second = player(f"first{number}"), player(f"second{number}")
    match = services.match_create(
        creator=first, game_slug="dogblade", opponent="player", invitee_username=second.username
    )
    services.match_join(match_id=match.pk, user=second)
    sockets += [[match.pk, session_for(first)], [match.pk, session_for(second)], [match.pk, None]]
with open(OUT, "w") as out:
    json.dump(sockets, out)
"""


def seed_match_sockets(server: LiveServer, directory: Path, *, matches: int) -> list:
    """`matches` started two-player matches; per match its two seats (a session each) and
    one anonymous spectator: [match id, session key or None] per socket to open."""
    out = directory / "sockets.json"
    code = SEED.replace("MATCHES", str(matches)).replace("OUT", repr(str(out)))
    manage(server.env, "shell", "-c", code)
    return json.loads(out.read_text())


async def _open(server_url: str, match_id: int, session: str | None):
    import websockets

    ws_url = server_url.replace("http://", "ws://") + f"/ws/matches/{match_id}/"
    headers = {"Cookie": f"sessionid={session}"} if session else {}
    socket = await websockets.connect(ws_url, origin=server_url, additional_headers=headers)
    hello = await asyncio.wait_for(socket.recv(), timeout=30)
    assert 'id="board-sync"' in hello  # connected, grouped, presence recorded
    return socket


async def open_and_close(server_url: str, sockets: list) -> None:
    """Open every socket at once, wait until each is greeted, then close them all."""
    opened = await asyncio.gather(*(_open(server_url, m, s) for m, s in sockets))
    await asyncio.gather(*(socket.close() for socket in opened))


@contextmanager
def open_sockets(server_url: str, sockets: list) -> Iterator[None]:
    """Hold the sockets open (on a loop in a thread) while the block runs."""
    import threading

    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    run = lambda coroutine: asyncio.run_coroutine_threadsafe(coroutine, loop).result(60)  # noqa: E731

    async def open_all():
        return await asyncio.gather(*(_open(server_url, m, s) for m, s in sockets))

    async def close_all(opened):
        await asyncio.gather(*(socket.close() for socket in opened))

    opened = run(open_all())
    try:
        yield
    finally:
        run(close_all(opened))
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()
