"""Personal API tokens: made (shown once, stored hashed), used, revoked; the page."""

from __future__ import annotations

import pytest

from botapi import selectors, services
from botapi.errors import ApiError
from botapi.models import ApiToken, BotAccount

pytestmark = pytest.mark.django_db


def test_a_token_is_stored_as_its_digest_only(alice):
    token, text = services.token_create(user=alice, name="my bot", scopes=["play", "read"])
    token.refresh_from_db()
    assert text.startswith("chb_") and len(text) > 40
    stored = [
        str(value) for value in ApiToken.objects.filter(pk=token.pk).values().first().values()
    ]
    assert not any(text in value for value in stored)
    assert token.digest == selectors.token_digest(text)
    assert selectors.token_find(text=text) == token


def test_revoked_tokens_and_unknown_text_find_nothing(alice):
    token, text = services.token_create(user=alice, name="my bot", scopes=["read"])
    assert selectors.token_find(text=text + "x") is None
    services.token_revoke(user=alice, token_id=token.pk)
    assert selectors.token_find(text=text) is None


@pytest.mark.parametrize(
    ("name", "scopes", "field"),
    [
        ("", ["play"], "name"),
        ("x" * 61, ["play"], "name"),
        ("ok", [], "scopes"),
        ("ok", ["admin"], "scopes"),
    ],
)
def test_bad_token_requests_write_nothing(alice, name, scopes, field):
    with pytest.raises(ApiError) as refused:
        services.token_create(user=alice, name=name, scopes=scopes)
    assert refused.value.field == field
    assert not ApiToken.objects.exists()


def test_nobody_revokes_another_players_token(alice, bob):
    token, _text = services.token_create(user=alice, name="mine", scopes=["play"])
    with pytest.raises(ApiError):
        services.token_revoke(user=bob, token_id=token.pk)
    token.refresh_from_db()
    assert token.revoked is None


def test_the_page_shows_a_new_token_once_and_revokes_it(client, alice):
    client.force_login(alice)
    assert client.get("/profile/").content.decode().count("/profile/tokens/") >= 1
    page = client.get("/profile/tokens/")
    assert page.status_code == 200 and b"No tokens yet" in page.content
    made = client.post("/profile/tokens/", {"name": "Robo", "scopes": ["play", "read"]})
    assert made.status_code == 200
    token = ApiToken.objects.get(user=alice)
    text = made.context["new_token"]
    assert selectors.token_find(text=text) == token
    assert text in made.content.decode()
    again = client.get("/profile/tokens/").content.decode()
    assert text not in again and token.prefix in again
    client.post(f"/profile/tokens/{token.pk}/revoke/")
    token.refresh_from_db()
    assert token.revoked is not None


def test_the_page_refuses_a_token_without_scopes(client, alice):
    client.force_login(alice)
    answer = client.post("/profile/tokens/", {"name": "Robo"})
    assert answer.status_code == 400
    assert not ApiToken.objects.exists()


def test_an_account_is_marked_a_bot_and_unmarked(client, alice):
    client.force_login(alice)
    client.post("/profile/bot/", {"is_bot": "on"})
    assert selectors.is_bot(user=alice)
    assert not BotAccount.objects.get(user=alice).joins_rated_pools
    client.post("/profile/bot/", {})
    assert not selectors.is_bot(user=alice)
