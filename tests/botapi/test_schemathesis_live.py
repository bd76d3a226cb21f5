"""schemathesis against a live server (uvicorn, DEBUG=0) with a real token: inputs made
from the published schema (/api/v1/schema) for every endpoint but the two streams (an
endless NDJSON answer is not a document a schema check can read: tests/botapi/
test_streams_live.py and test_bot_live.py read them), and every answer checked: no 5xx,
a content type and a body that the schema declares for that status."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
)

from tests.live import (
    REPO_ROOT,
    LiveServer,
    fresh_database,
    live_server,
    prepare_database,
    server_env,
)

EXAMPLES = 12  # per endpoint: the whole run stays well under a minute
CHECKS = [not_a_server_error, content_type_conformance, response_schema_conformance]

MAKE_PLAYER = """
import json
from django.contrib.auth import get_user_model
from accounts.services import profile_ensure
from botapi import services
from games import services as game_services
user = get_user_model().objects.create_user("fuzz", "fuzz@example.com", "pw-pw-pw-pw")
profile_ensure(user=user)
token = services.token_create(user=user, name="fuzz", scopes=["play", "read"])[1]
match = game_services.match_create(
    creator=user, game_slug="dogblade", others=[game_services.SeatSpec(kind="ai", ai_level="easy")]
)
print(json.dumps({"token": token, "match": match.pk}))
"""


@pytest.fixture(autouse=True)
def _fast_and_clean():
    """Replaces the suite-wide fixture: clearing the cache would flush the Redis the live
    server's channel layer uses (as tests/e2e/conftest.py explains)."""
    yield


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[tuple[LiveServer, dict]]:
    directory = tmp_path_factory.mktemp("schemathesis-live")
    with fresh_database(directory) as database_url:
        env = server_env(database_url)
        prepare_database(env)
        made = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", MAKE_PLAYER],
            cwd=REPO_ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        player = json.loads(made.stdout.strip().splitlines()[-1])
        with live_server(env, directory / "server.log") as live:
            yield live, player


def test_no_5xx_and_no_answer_that_breaks_the_schema(server):
    live, player = server
    headers = {"Authorization": f"Bearer {player['token']}"}
    schema = schemathesis.openapi.from_url(f"{live.url}/api/v1/schema", headers=headers)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert {operation.path for operation in operations} >= {
        "/api/v1/games",
        "/api/v1/matches",
        "/api/v1/matches/{match_id}/moves",
    }
    assert not any(operation.path.endswith("stream") for operation in operations)
    tried: list[str] = []
    statuses: list[int] = []
    for operation in operations:
        # A match's endpoints twice: on the player's own match, then on any id (mostly 404).
        pinned = [{"match_id": player["match"]}, None] if "{match_id}" in operation.path else [None]
        for path_parameters in pinned:

            @given(case=operation.as_strategy(headers=headers, path_parameters=path_parameters))
            @settings(
                max_examples=EXAMPLES,
                deadline=None,
                database=None,
                derandomize=True,
                suppress_health_check=list(HealthCheck),
            )
            def check(case) -> None:
                answer = case.call_and_validate(base_url=live.url, headers=headers, checks=CHECKS)
                statuses.append(answer.status_code)

            check()
        tried.append(operation.label)
    assert len(tried) == len(operations), live.log_tail()
    # Answers were checked, not only sent: refusals and successes both.
    assert len(statuses) >= 2 * len(operations), statuses
    assert 200 in statuses and 404 in statuses, statuses
    games = schema.raw_schema["paths"]["/api/v1/games"]["get"]["responses"]
    assert "items" in games["200"]["content"]["application/json"]["schema"]
    assert "Traceback" not in live.log_tail(4000), live.log_tail()
