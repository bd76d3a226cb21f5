"""The clock, pause, rematch, vacation and open-table pages, as a player uses them."""

import datetime as dt

import pytest
from django.utils import timezone

from games import services
from games.models import Match, Seat
from games.services import timeouts
from tests.conftest import EXAMPLE_DEAL


def test_the_lobby_offers_time_controls_and_refuses_none_with_a_player(client, alice, bob):
    client.force_login(alice)
    page = client.get("/play/")
    assert "1 day per move" in page.content.decode()
    refused = client.post(
        "/play/",
        {
            "game": "dogblade",
            "opponent": "player",
            "username": "bob",
            "ai_level": "easy",
            "time_control": "none",
        },
    )
    assert refused.status_code == 400 and "needs a clock" in refused.content.decode()
    assert not Match.objects.exists()
    made = client.post(
        "/play/",
        {
            "game": "dogblade",
            "opponent": "player",
            "username": "bob",
            "ai_level": "easy",
            "time_control": "12h",
        },
    )
    assert made.status_code == 302
    assert Match.objects.get().move_seconds == 12 * 3600


def test_the_board_shows_every_clock_and_my_matches_my_time_left(client, alice, bob, make_match):
    match = make_match(alice, bob, options=EXAMPLE_DEAL)
    client.force_login(alice)
    html = client.get(match.get_absolute_url()).content.decode()
    assert 'data-testid="clocks"' in html and "1 d 11 h left" in html
    assert "1 d per move" in html
    mine = client.get("/matches/").content.decode()
    assert 'class="time-left"' in mine and "left" in mine


def test_pause_and_resume_through_the_board(client, alice, bob, make_match):
    match = make_match(alice, bob, options=EXAMPLE_DEAL)
    client.force_login(alice)
    page = client.post(f"/matches/{match.pk}/pause/", follow=True).content.decode()
    assert "You asked to pause" in page
    client.force_login(bob)
    assert "Agree to pause" in client.get(match.get_absolute_url()).content.decode()
    page = client.post(f"/matches/{match.pk}/pause/", follow=True).content.decode()
    assert 'data-testid="paused"' in page
    match.refresh_from_db()
    assert match.is_paused
    client.post(f"/matches/{match.pk}/resume/")
    match.refresh_from_db()
    assert not match.is_paused


def test_pausing_someone_elses_match_is_a_clear_403(client, alice, bob, make_match, make_user):
    match = make_match(alice, bob, options=EXAMPLE_DEAL)
    client.force_login(make_user("mallory"))
    page = client.post(f"/matches/{match.pk}/pause/")
    assert page.status_code == 403 and "Only the players" in page.content.decode()
    match.refresh_from_db()
    assert not match.pause_votes


def test_rematch_button_opens_the_new_table(client, alice, bob, make_match):
    match = make_match(alice, bob, options=EXAMPLE_DEAL)
    services.match_resign(match_id=match.pk, user=bob)
    client.force_login(alice)
    assert 'data-testid="rematch"' in client.get(match.get_absolute_url()).content.decode()
    answer = client.post(f"/matches/{match.pk}/rematch/")
    rematch = Match.objects.get(rematch_of=match)
    assert answer.status_code == 302 and answer["Location"] == rematch.get_absolute_url()
    client.force_login(bob)
    assert "Accept the rematch" in client.get(match.get_absolute_url()).content.decode()
    client.post(f"/matches/{match.pk}/rematch/", HTTP_HX_REQUEST="true")
    rematch.refresh_from_db()
    assert rematch.status == Match.Status.ACTIVE


def test_vacation_from_the_profile_page(client, alice, bob, make_match):
    match = make_match(alice, bob, options=EXAMPLE_DEAL)
    before = Seat.objects.get(match=match, index=0).deadline
    client.force_login(alice)
    page = client.post("/profile/vacation/", {"action": "start", "days": "abc"}, follow=True)
    assert "whole number" in page.content.decode()
    page = client.post("/profile/vacation/", {"action": "start", "days": "2"}, follow=True)
    assert "on vacation until" in page.content.decode()
    assert Seat.objects.get(match=match, index=0).deadline == before + dt.timedelta(days=2)
    page = client.post("/profile/vacation/", {"action": "end"}, follow=True)
    assert "Welcome back" in page.content.decode()
    assert client.get("/profile/vacation/").status_code == 405


def test_open_tables_show_reliability_and_filter_by_it(client, alice, bob, make_user):
    services.match_create(creator=alice, game_slug="dogblade", opponent="open")
    client.force_login(bob)
    page = client.get("/tables/").content.decode()
    assert "new player" in page and "1 d per move" in page
    filtered = client.get("/tables/?min_reliability=90").content.decode()
    assert "from hosts that reliable" in filtered
    assert client.get("/tables/?min_reliability=banana").status_code == 200


def test_live_public_matches_are_listed_to_watch(client, alice, bob, make_match, make_user):
    match = make_match(alice, bob, options=EXAMPLE_DEAL)
    client.force_login(make_user("carol"))
    page = client.get("/tables/").content.decode()
    assert f"#{match.pk}" in page and "Watch" in page


def test_an_expired_table_says_so(client, alice):
    match = services.match_create(creator=alice, game_slug="dogblade", opponent="open")
    Match.objects.filter(pk=match.pk).update(created=timezone.now() - dt.timedelta(days=4))
    timeouts.sweep()
    client.force_login(alice)
    assert "Nobody took the open seats" in client.get(match.get_absolute_url()).content.decode()


@pytest.mark.parametrize("game", ["dogblade", "grimhand", "haymaker"])
def test_a_resigned_match_shows_it_is_over_and_no_clock(client, alice, bob, game):
    match = services.match_create(
        creator=alice, game_slug=game, opponent="player", invitee_username="bob"
    )
    services.match_join(match_id=match.pk, user=bob)
    services.match_resign(match_id=match.pk, user=bob)
    client.force_login(alice)
    html = client.get(match.get_absolute_url()).content.decode()
    assert "You won: they resigned!" in html
    board = html.split('<section id="chat"', 1)[0]  # not the chat panel's emotes
    assert "is deciding" not in board and "Thinking…" not in board and "Your move" not in board
    assert 'data-testid="clocks"' not in html
    assert 'data-testid="outcome"' in html or game == "dogblade"
