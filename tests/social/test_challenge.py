"""The challenge button: the lobby's game, options and clock for a table whose other seat
is the challenged player (an invitation through games.services.match_create). Refused, with
a message and nothing written: yourself, an unknown player, across a block, bad options."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Match, Seat
from inbox.models import Notification
from social import services
from social.models import Block

pytestmark = pytest.mark.django_db


def _url(username):
    return reverse("social:challenge", args=[username])


def _counts():
    return Match.objects.count(), Seat.objects.count(), Notification.objects.count()


def test_the_form_offers_the_games_two_can_play_with_their_rule_options(client, alice, bob):
    client.force_login(alice)
    page = client.get(_url("bob"))
    assert page.status_code == 200
    form = page.context["form"]
    assert [game.slug for game in form.games] == ["dogblade", "grimhand", "haymaker", "shield"]
    assert {slug for slug, _field, _rule in form.rule_rows()} == {
        "grimhand",
        "haymaker",
        "shield",
    }
    for absent in ("opponent", "username", "ai_level", "players", "is_private", "seat_2"):
        assert absent not in form.fields
    assert b'data-testid="send-challenge"' in page.content


def test_a_challenge_invites_the_player_with_the_chosen_game_rules_and_clock(
    client, alice, bob, django_capture_on_commit_callbacks
):
    client.force_login(alice)
    chosen = {"game": "grimhand", "variant": "classic", "opt_grimhand_hp": "80"}
    with django_capture_on_commit_callbacks(execute=True):  # the invitation's notice
        response = client.post(
            _url("bob"),
            # opponent and username are not asked: a challenge's other seat is bob's
            {**chosen, "time_control": "3d", "rated": "casual", "opponent": "ai", "username": "x"},
        )
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == match.get_absolute_url()
    assert match.game == "grimhand" and match.options["hp"] == 80 and match.is_casual
    assert match.status == Match.Status.WAITING and match.move_seconds == 3 * 86400
    seats = {seat.index: seat for seat in match.seats.all()}
    assert seats[0].user == alice and seats[0].joined is not None
    assert seats[1].user == bob and seats[1].joined is None  # invited: bob accepts or not
    assert Notification.objects.filter(user=bob, kind=Notification.Kind.INVITE).count() == 1


def test_challenging_someone_who_blocked_you_is_refused_and_writes_nothing(client, alice, bob):
    Block.objects.create(blocker=bob, blocked=alice)
    client.force_login(alice)
    before = _counts()
    response = client.post(_url("bob"), {"game": "dogblade", "rated": "rated"})
    assert response.status_code == 400
    assert "bob is not taking matches from you." in response.text
    assert _counts() == before
    # and the other way round: the blocker cannot challenge either (no button, nor a post)
    client.force_login(bob)
    response = client.post(_url("alice"), {"game": "dogblade", "rated": "rated"})
    assert response.status_code == 400 and "You have blocked alice" in response.text
    assert b'data-testid="challenge"' not in client.get(reverse("player", args=["alice"])).content
    assert _counts() == before


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"game": "grimhand", "variant": "classic", "opt_grimhand_hp": "5000"}, "hp"),
        ({"game": "banira"}, "Select a valid choice"),
        ({"game": "chess"}, "Select a valid choice"),
        ({"game": "dogblade", "time_control": "forever"}, "Select a valid choice"),
    ],
)
def test_bad_choices_are_refused_with_a_message(client, alice, bob, data, message):
    client.force_login(alice)
    before = _counts()
    response = client.post(_url("bob"), {"rated": "rated", **data})
    assert response.status_code == 400 and message.lower() in response.text.lower()
    assert _counts() == before


def test_challenging_yourself_or_nobody_is_refused(client, alice):
    client.force_login(alice)
    response = client.post(_url("alice"), {"game": "dogblade", "rated": "rated"})
    assert response.status_code == 400 and "You cannot challenge yourself." in response.text
    assert client.post(_url("nobody"), {"game": "dogblade"}).status_code == 404
    assert Match.objects.count() == 0
    with pytest.raises(services.NotWithYourself):
        services.challenge_create(user=alice, username="alice", game_slug="dogblade")


def test_a_visitor_is_sent_to_log_in(client, bob):
    response = client.get(_url("bob"))
    assert response.status_code == 302 and "login" in response["Location"]
