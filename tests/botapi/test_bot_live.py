"""The example bot (examples/bot.py) against a live server (uvicorn, ASGI, the real channel
layer): it plays a whole match of each game against the site's AI from its match stream,
and accepts an invitation it hears of on its events stream."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Iterator

import httpx
import pytest

from examples.bot import Bot
from tests.live import (
    REPO_ROOT,
    LiveServer,
    fresh_database,
    live_server,
    prepare_database,
    server_env,
)

GAMES = ("dogblade", "grimhand", "haymaker", "shield", "banira")

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
services.bot_set(user=get_user_model().objects.get(username="robo"), is_bot=True)
print(json.dumps(tokens))
"""


@pytest.fixture(autouse=True)
def _fast_and_clean():
    """Replaces the suite-wide fixture: clearing the cache would flush the Redis the live
    server's channel layer uses (as tests/e2e/conftest.py explains)."""
    yield


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[tuple[LiveServer, dict[str, str]]]:
    directory = tmp_path_factory.mktemp("bot-live")
    with fresh_database(directory) as database_url:
        env = server_env(database_url)
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


@pytest.mark.parametrize("game", GAMES)
def test_the_example_bot_plays_a_whole_match_against_the_ai(server, game):
    live, tokens = server
    bot = Bot(live.url, tokens["robo"], seed=7)
    match_id = bot.challenge_ai(game, "easy")
    last = bot.play(match_id)
    assert last["match"]["status"] == "finished", live.log_tail()
    assert last["match"]["outcome"]
    exported = bot.http.get(f"/api/v1/matches/{match_id}/export").json()
    assert exported["seed"] and exported["moves"]  # revealed once over: replayable


def test_the_bot_hears_an_invitation_accepts_it_and_plays(server):
    live, tokens = server
    bot = Bot(live.url, tokens["robo"], seed=3)
    human = httpx.Client(base_url=live.url, headers={"Authorization": f"Bearer {tokens['human']}"})
    heard: list[dict] = []
    started = threading.Event()

    def listen() -> None:
        for event in bot.lines("/api/v1/stream/events"):
            heard.append(event)
            bot.handle(event)
            if event["type"] == "match_started":
                started.set()
                return

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    made = human.post("/api/v1/matches", json={"game": "dogblade", "opponent": {"user": "robo"}})
    assert made.status_code == 201, made.text
    match_id = made.json()["id"]
    assert made.json()["seats"][1]["is_bot"]
    assert started.wait(60), (heard, live.log_tail())
    assert [event["type"] for event in heard][:2] == ["invitation", "match_started"]
    # The human resigns: the bot's match stream ends with the result.
    assert human.post(f"/api/v1/matches/{match_id}/resign").status_code == 200
    bot.playing[match_id].join(60)
    assert not bot.playing[match_id].is_alive()
