"""Fixtures of the Bot API tests: a token for a player, and a client that sends it."""

from __future__ import annotations

import pytest
from django.test import Client

from botapi import services


class ApiClient:
    """A test client that sends `Authorization: Bearer <token>` and JSON bodies."""

    def __init__(self, token: str) -> None:
        self.client = Client()
        self.headers = {"Authorization": f"Bearer {token}"}

    def get(self, path: str, **kwargs):
        return self.client.get(path, headers=self.headers, **kwargs)

    def post(self, path: str, body=None, **kwargs):
        import json

        return self.client.post(
            path,
            data=json.dumps(body if body is not None else {}),
            content_type="application/json",
            headers=self.headers,
            **kwargs,
        )


@pytest.fixture
def api_for(db):
    def make(user, scopes=("play", "read")):
        _token, text = services.token_create(user=user, name="test bot", scopes=scopes)
        return ApiClient(text)

    return make
