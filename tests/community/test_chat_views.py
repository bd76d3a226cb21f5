"""The chat's pages: the panel on the match page, posting (htmx and plain), the switch, and
the report form. Every refusal answers a sentence and writes nothing; none answers 500."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from community import services
from community.models import ChatMessage, ChatSetting, Report, Sanction
from games.models import Match

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def carol(make_user):
    return make_user("carol")


def test_the_match_page_shows_the_players_chat_with_its_lines(alice, bob, make_match):
    match = make_match(alice, bob)
    services.chat_post(match_id=match.pk, user=bob, text="hello alice")
    page = client_for(alice).get(f"/matches/{match.pk}/").content.decode()
    assert 'data-testid="chat"' in page and 'data-room="seats"' in page
    assert "hello alice" in page and "Players&#x27; chat" in page
    assert 'data-testid="emote-gg"' in page
    visitor = Client().get(f"/matches/{match.pk}/").content.decode()
    assert 'data-testid="chat"' not in visitor and "hello alice" not in visitor


def test_a_post_by_htmx_answers_the_emptied_form_and_the_line(alice, bob, make_match):
    match = make_match(alice, bob)
    response = client_for(alice).post(
        f"/community/matches/{match.pk}/chat/", {"text": "gl hf"}, **HTMX
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert 'id="chat-form"' in body and 'value=""' in body
    assert 'hx-swap-oob="beforeend:#chat-lines-seats"' in body and "gl hf" in body
    assert ChatMessage.objects.get().text == "gl hf"


@pytest.mark.parametrize(
    ("data", "status", "words"),
    [
        ({"text": ""}, 400, "it is empty"),
        ({"text": "z" * 301}, 400, "at most 300 characters"),
        ({"text": "bad\x00byte"}, 400, "control character"),
        ({"text": "z" * 3000}, 400, "too long"),
        ({"emote": "nope"}, 400, "emote does not exist"),
    ],
)
def test_bad_input_answers_a_message_in_the_form_and_writes_nothing(
    alice, bob, make_match, data, status, words
):
    match = make_match(alice, bob)
    response = client_for(alice).post(f"/community/matches/{match.pk}/chat/", data, **HTMX)
    assert response.status_code == status
    body = response.content.decode()
    assert 'data-testid="chat-error"' in body and words in body
    assert "chat-lines" not in body
    assert not ChatMessage.objects.exists()


def test_a_match_one_may_not_see_answers_404_with_a_sentence(alice, bob, carol, make_match):
    match = make_match(alice, bob)
    Match.objects.filter(pk=match.pk).update(private_until=timezone.now() + timedelta(days=1))
    response = client_for(carol).post(f"/community/matches/{match.pk}/chat/", {"text": "hi"})
    assert response.status_code == 404
    assert "no chat you can write in" in response.content.decode()
    huge = client_for(carol).post("/community/matches/99999999999999999999/chat/", {"text": "x"})
    assert huge.status_code == 404
    assert not ChatMessage.objects.exists()


def test_a_muted_player_is_told_why_and_sees_no_form(alice, bob, make_match):
    match = make_match(alice, bob)
    Sanction.objects.create(
        user=alice, kind="mute", reason="spam", expires=timezone.now() + timedelta(hours=2)
    )
    client = client_for(alice)
    response = client.post(f"/community/matches/{match.pk}/chat/", {"text": "hi"}, **HTMX)
    assert response.status_code == 403 and "You are muted until" in response.content.decode()
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'data-testid="chat-muted"' in page and 'id="chat-form"' not in page
    assert not ChatMessage.objects.exists()


def test_a_plain_post_goes_back_to_the_match(alice, bob, make_match):
    match = make_match(alice, bob)
    response = client_for(bob).post(f"/community/matches/{match.pk}/chat/", {"emote": "hello"})
    assert response.status_code == 302 and response["Location"] == f"/matches/{match.pk}/"
    assert ChatMessage.objects.get().emote == "hello"


def test_the_switch_turns_chat_off_and_on(alice, bob, make_match):
    match = make_match(alice, bob)
    services.chat_post(match_id=match.pk, user=bob, text="psst")
    client = client_for(alice)
    off = client.post(f"/community/matches/{match.pk}/chat/switch/", {"is_on": "off"}, **HTMX)
    assert 'data-testid="chat-off"' in off.content.decode() and "psst" not in off.content.decode()
    assert ChatSetting.objects.get(user=alice).is_chat_on is False
    bad = client.post(f"/community/matches/{match.pk}/chat/switch/", {"is_on": "maybe"})
    assert bad.status_code == 400
    on = client.post(f"/community/matches/{match.pk}/chat/switch/", {"is_on": "on"}, **HTMX)
    assert "psst" in on.content.decode()


def test_a_message_is_reported_with_a_reason(alice, bob, make_match):
    match = make_match(alice, bob)
    line = services.chat_post(match_id=match.pk, user=bob, text="you are bad")
    client = client_for(alice)
    form = client.get(f"/community/report/?message={line.pk}").content.decode()
    assert 'data-testid="reported-line"' in form and "you are bad" in form
    missing = client.post("/community/report/", {"message": line.pk})
    assert missing.status_code == 400 and "Choose a reason" in missing.content.decode()
    assert not Report.objects.exists()
    done = client.post(
        "/community/report/", {"message": line.pk, "reason": "abuse", "details": "rude"}
    )
    assert done.status_code == 200 and 'data-testid="report-filed"' in done.content.decode()
    again = client.post("/community/report/", {"message": line.pk, "reason": "abuse"})
    assert again.status_code == 200
    report = Report.objects.get()  # filed once
    assert (report.reporter, report.reported, report.message, report.match_id) == (
        alice,
        bob,
        line,
        match.pk,
    )


def test_a_message_one_cannot_read_cannot_be_reported(alice, bob, carol, make_match):
    match = make_match(alice, bob)
    line = services.chat_post(match_id=match.pk, user=bob, text="players only")
    response = client_for(carol).post("/community/report/", {"message": line.pk, "reason": "abuse"})
    assert response.status_code == 404 and "not one you can see" in response.content.decode()
    assert client_for(carol).get("/community/report/?message=abc").status_code == 400
    assert not Report.objects.exists()


def test_a_player_is_reported_by_name(alice, bob):
    client = client_for(alice)
    assert "Report bob" in client.get("/community/report/?player=bob").content.decode()
    client.post("/community/report/", {"player": "bob", "reason": "name"})
    assert Report.objects.get().reported == bob
    nobody = client.post("/community/report/", {"player": "nobody", "reason": "name"})
    assert nobody.status_code == 404 and "no player of that name" in nobody.content.decode()
    me = client.post("/community/report/", {"player": "alice", "reason": "name"})
    assert me.status_code == 400 and "cannot report yourself" in me.content.decode()
    assert Report.objects.count() == 1


def test_the_lines_are_read_again_when_the_socket_reconnects(alice, bob, make_match):
    match = make_match(alice, bob)
    client = client_for(alice)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'hx-trigger="htmx:wsOpen from:closest .match-page"' in page
    services.chat_post(match_id=match.pk, user=bob, text="missed while away")
    lines = client.get(f"/community/matches/{match.pk}/chat/panel/?part=lines").content.decode()
    assert lines.lstrip().startswith('<ol id="chat-lines-seats"') and "missed while away" in lines
    assert 'id="chat-form"' not in lines
