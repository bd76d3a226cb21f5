"""Open streams against a live server (uvicorn, DEBUG=0): they hold neither a slot of the
per-process cap on concurrent requests (web.asgi, WEB_CONCURRENCY_LIMIT) nor a database
connection while idle, so more streams than either than the cap or the pool allows stay
open while pages and API calls still answer."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest
from django.urls import reverse

from tests.live import (
    REPO_ROOT,
    LiveServer,
    fresh_database,
    live_server,
    prepare_database,
    server_env,
)

CAP = 2  # concurrent requests per process, and database connections per process
STREAMS = 3 * CAP
KEEPALIVE = 0.3  # seconds: several pass while the streams idle

MAKE_PLAYERS = """
import json
from django.contrib.auth import get_user_model
from accounts.services import profile_ensure
from botapi import services
tokens = {}
for name in ("robo", "human"):
    user = get_user_model().objects.create_user(name, f"{name}@example.com", "pw-pw-pw-pw")
    profile_ensure(user=user)
    tokens[name] = services.token_create(user=user, name="live", scopes=["play", "read"])[1]
print(json.dumps(tokens))
"""


@pytest.fixture(autouse=True)
def _fast_and_clean():
    """Replaces the suite-wide fixture: clearing the cache would flush the Redis the live
    server's channel layer uses (as tests/e2e/conftest.py explains)."""
    yield


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[tuple[LiveServer, dict[str, str]]]:
    directory = tmp_path_factory.mktemp("streams-live")
    with fresh_database(directory) as database_url:
        env = server_env(
            database_url,
            WEB_CONCURRENCY_LIMIT=str(CAP),
            WEB_QUEUE_SECONDS="1",
            DB_POOL_MAX_SIZE=str(CAP),
            DB_POOL_TIMEOUT="2",
            BOTAPI_STREAM_KEEPALIVE=str(KEEPALIVE),
        )
        prepare_database(env)
        made = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", MAKE_PLAYERS],
            cwd=REPO_ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        tokens = json.loads(made.stdout.strip().splitlines()[-1])
        with live_server(env, directory / "server.log") as live:
            yield live, tokens


def test_the_cap_exempts_exactly_the_two_stream_paths():
    from web.asgi import BOT_STREAM_PATHS

    streams = [reverse("botapi_events_stream"), reverse("botapi_match_stream", args=[42])]
    assert all(BOT_STREAM_PATHS.fullmatch(path) for path in streams)
    others = ["/api/v1/matches/42", "/api/v1/matches/42/moves", "/api/v1/stream/events/x", "/"]
    assert not any(BOT_STREAM_PATHS.fullmatch(path) for path in others)


async def _open(
    client: httpx.AsyncClient, path: str, token: str, opened: list[httpx.Response]
) -> tuple[httpx.Response, dict]:
    """Open a stream, keep it in `opened` (to be closed), and answer it with its first line."""
    request = client.build_request("GET", path, headers={"Authorization": f"Bearer {token}"})
    response = await client.send(request, stream=True)
    opened.append(response)
    assert response.status_code == 200, await response.aread()
    return response, await _next_line(response)


_lines: dict[int, AsyncIterator[str]] = {}  # each open stream's lines, read on and on


async def _next_line(response: httpx.Response) -> dict:
    lines = _lines.setdefault(id(response), response.aiter_lines())
    async for line in lines:
        if line.strip():
            return json.loads(line)
    raise AssertionError("the stream ended")


def test_more_streams_than_the_cap_and_the_pool_and_pages_still_answer(server):
    live, tokens = server

    async def run() -> None:
        robo = {"Authorization": f"Bearer {tokens['robo']}"}
        async with httpx.AsyncClient(base_url=live.url, headers=robo, timeout=20) as client:
            made = await client.post(
                "/api/v1/matches", json={"game": "dogblade", "opponent": {"user": "human"}}
            )
            assert made.status_code == 201, made.text
            match_id = made.json()["id"]
            opened: list[httpx.Response] = []
            try:
                # The robot's seat, (STREAMS - 1) times; the invited human's events.
                paths = [(f"/api/v1/matches/{match_id}/stream", tokens["robo"])] * (STREAMS - 1)
                paths.append(("/api/v1/stream/events", tokens["human"]))
                streams = await asyncio.wait_for(
                    asyncio.gather(*(_open(client, *path, opened) for path in paths)), 30
                )
                assert {first["type"] for _stream, first in streams[:-1]} == {"match"}
                (robot_stream, _first), (events_stream, invited) = streams[0], streams[-1]
                assert invited["type"] == "invitation"
                # Idle across several keep-alives: each stream sends empty lines and stays
                # subscribed to its pushes.
                await asyncio.sleep(5 * KEEPALIVE)
                # Every stream is open and idle: a page (which reads the database through
                # its context processors) and an API call answer at once.
                async with httpx.AsyncClient(base_url=live.url, timeout=20) as anonymous:
                    page = await asyncio.wait_for(anonymous.get("/accounts/login/"), 30)
                assert page.status_code == 200, live.log_tail()
                games = await client.get("/api/v1/games")
                assert games.status_code == 200, games.text
                # A change still reaches the open match streams: the human joins.
                human = {"Authorization": f"Bearer {tokens['human']}"}
                joined = await client.post(f"/api/v1/matches/{match_id}/accept", headers=human)
                assert joined.status_code == 200, joined.text
                seen = await asyncio.wait_for(_next_status(robot_stream), 20)
                assert seen == "active"
                # The events stream, idle until now, still follows the account.
                started = await asyncio.wait_for(_next_line(events_stream), 20)
                assert started["type"] == "match_started", started
            finally:
                for response in opened:
                    await response.aclose()

    asyncio.run(run())
    log = live.log_tail(2000)
    assert "overloaded:" not in log and "Traceback" not in log, log


async def _next_status(response: httpx.Response) -> str:
    while True:
        status = (await _next_line(response))["match"]["status"]
        if status != "waiting":
            return status
