"""No input gets a 500: whatever the body or path, the answer is a JSON problem (or a
404 for a path that is no endpoint)."""

from __future__ import annotations

import pytest

from botapi import services
from games.models import Match, Move

pytestmark = pytest.mark.django_db

BODIES = [
    "{",
    "[]",
    "null",
    '"x"',
    "\x00",
    '{"game": {"a": 1}}',
    '{"ply": 1e400, "move": {}}',
    '{"ply": 99999999999999999999, "move": {"type": "draw"}}',
    '{"opponent": [[]], "game": "dogblade"}',
    '{"game": "dogblade", "options": {"hp": [1]}}',
    '{"game": "dogblade", "opponent": {"user": ""}}',
    '{"game": "banira", "opponent": "open"}',
]


@pytest.mark.parametrize("path", ["/api/v1/matches", "/api/v1/matches/1/moves"])
@pytest.mark.parametrize("body", BODIES)
def test_bad_bodies_are_problems(client, alice, path, body):
    _token, text = services.token_create(user=alice, name="x", scopes=["play", "read"])
    headers = {"Authorization": f"Bearer {text}"}
    answer = client.post(path, data=body, content_type="application/json", headers=headers)
    assert 400 <= answer.status_code < 500, answer.content
    assert answer.json()["status"] == answer.status_code
    assert not Match.objects.exists() and not Move.objects.exists()


@pytest.mark.parametrize(
    "path", ["/api/v1/matches/0", "/api/v1/matches/-1/export", "/api/v1/matches/1/stream"]
)
def test_bad_paths_are_4xx(client, alice, path):
    _token, text = services.token_create(user=alice, name="x", scopes=["read"])
    answer = client.get(path, headers={"Authorization": f"Bearer {text}"})
    assert 400 <= answer.status_code < 500
