"""The streams' refusals (before any line is sent): a JSON problem, never a stream."""

from __future__ import annotations

import pytest
from django.test import Client

from botapi import services

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/api/v1/stream/events", "/api/v1/matches/1/stream"])
def test_no_token_or_a_bad_one_is_401(client, path):
    for headers in ({}, {"Authorization": "Bearer nope"}, {"Authorization": "Basic abc"}):
        answer = client.get(path, headers=headers)
        assert answer.status_code == 401
        assert answer.json()["status"] == 401
        assert answer["WWW-Authenticate"] == "Bearer"


def test_a_token_without_read_is_403(alice):
    _token, text = services.token_create(user=alice, name="x", scopes=["play"])
    answer = Client().get("/api/v1/stream/events", headers={"Authorization": f"Bearer {text}"})
    assert answer.status_code == 403


def test_a_match_that_does_not_exist_is_404(alice, api_for):
    answer = api_for(alice).get("/api/v1/matches/987654/stream")
    assert answer.status_code == 404 and answer.json()["message"]


def test_only_get(alice, api_for):
    assert api_for(alice).post("/api/v1/stream/events").status_code == 405
