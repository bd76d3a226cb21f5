"""Limits per token and per account: rate, concurrent matches, open streams; each a 429
with Retry-After and a JSON problem, writing nothing."""

from __future__ import annotations

import pytest

from botapi import limits
from botapi.models import ApiToken
from games.models import Match

pytestmark = pytest.mark.django_db


def _too_many(answer):
    assert answer.status_code == 429, answer.content
    assert int(answer["Retry-After"]) >= 1
    body = answer.json()
    assert body["status"] == 429 and body["message"]


def test_the_rate_per_token(alice, api_for, settings, ratelimit_clock):
    settings.RATELIMIT_ENABLE = True
    settings.BOTAPI_RATE_TOKEN = "3/m"
    api = api_for(alice)
    for _ in range(3):
        assert api.get("/api/v1/games").status_code == 200
    _too_many(api.get("/api/v1/games"))
    assert api_for(alice).get("/api/v1/games").status_code == 200  # another token: its own


def test_the_rate_per_account_spans_its_tokens(alice, bob, api_for, settings, ratelimit_clock):
    settings.RATELIMIT_ENABLE = True
    settings.BOTAPI_RATE_ACCOUNT = "4/m"
    first, second = api_for(alice), api_for(alice)
    for api in (first, second, first, second):
        assert api.get("/api/v1/games").status_code == 200
    _too_many(second.get("/api/v1/games"))
    assert api_for(bob).get("/api/v1/games").status_code == 200


def test_concurrent_matches(alice, api_for, settings):
    settings.BOTAPI_MAX_MATCHES = 1
    api = api_for(alice)
    body = {"game": "dogblade", "opponent": "open"}
    assert api.post("/api/v1/matches", body).status_code == 201
    _too_many(api.post("/api/v1/matches", body))
    assert Match.objects.count() == 1


def test_open_streams(alice, api_for, settings):
    settings.BOTAPI_MAX_STREAMS = 1
    api = api_for(alice)
    token = ApiToken.objects.filter(user=alice).first()
    stream = limits.stream_open(token=token)
    _too_many(api.get("/api/v1/stream/events"))
    limits.stream_closed(stream=stream)
    limits.stream_open(token=token)  # room again once it closed


def test_a_stream_not_refreshed_stops_counting(alice, settings, monkeypatch):
    settings.BOTAPI_MAX_STREAMS = 1
    from botapi import services

    token, _text = services.token_create(user=alice, name="x", scopes=["read"])
    limits.stream_open(token=token)
    now = __import__("time").time()
    monkeypatch.setattr(limits.time, "time", lambda: now + limits.STREAM_TTL + 1)
    limits.stream_open(token=token)  # the first one's server died: it no longer counts


def test_open_streams_per_token(alice, settings):
    settings.BOTAPI_MAX_STREAMS, settings.BOTAPI_MAX_STREAMS_TOKEN = 3, 1
    from botapi import services

    first, _ = services.token_create(user=alice, name="one", scopes=["read"])
    second, _ = services.token_create(user=alice, name="two", scopes=["read"])
    stream = limits.stream_open(token=first)
    with pytest.raises(limits.TooMany, match="This token has 1 streams open"):
        limits.stream_open(token=first)
    limits.stream_open(token=second)  # another token of the account still has room
    limits.stream_closed(stream=stream)
    limits.stream_open(token=first)


def test_concurrent_matches_per_token(alice, api_for, settings):
    settings.BOTAPI_MAX_MATCHES, settings.BOTAPI_MAX_MATCHES_TOKEN = 5, 1
    first, second = api_for(alice), api_for(alice)
    body = {"game": "dogblade", "opponent": "open"}
    assert first.post("/api/v1/matches", body).status_code == 201
    answer = first.post("/api/v1/matches", body)
    _too_many(answer)
    assert "This token plays 1 matches already" in answer.json()["message"]
    assert Match.objects.count() == 1  # nothing written
    assert second.post("/api/v1/matches", body).status_code == 201  # another token: room
