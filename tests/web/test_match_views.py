"""The match pages: boards, moves over plain forms, HTMX and JSON, and every bad input."""

import json
import re

import pytest
from django.urls import reverse

from games import services
from games.models import Match, Move
from tests.conftest import EXAMPLE_DEAL

ATTACK = json.dumps({"type": "attack"})


@pytest.fixture
def match(alice, bob, make_match):
    return make_match(alice, bob, options=EXAMPLE_DEAL)


def _login(client, user):
    client.force_login(user)
    return client


def move_url(match):
    return reverse("games:move", args=[match.pk])


def test_the_match_page_shows_the_board_and_the_commitment_not_the_seed(client, match, alice):
    response = _login(client, alice).get(match.get_absolute_url())
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="board"' in html and "Your turn!" in html
    assert match.seed_commitment in html
    assert bytes(match.seed).hex() not in html
    assert 'data-testid="move-attack"' in html


def test_the_waiting_seat_sees_no_move_button(client, match, bob):
    html = _login(client, bob).get(match.get_absolute_url()).content.decode()
    assert "Waiting for alice" in html
    assert 'data-testid="move-attack"' not in html


def test_spectators_see_the_board_without_controls(client, match):
    html = client.get(match.get_absolute_url()).content.decode()
    assert 'id="board"' in html
    assert 'data-testid="move-attack"' not in html and 'data-testid="resign"' not in html


def test_a_plain_form_move_redirects_back_to_the_match(client, match, alice):
    response = _login(client, alice).post(
        move_url(match), {"ply": 0, "move": ATTACK, "move_id": "m1"}
    )
    assert response.status_code == 302
    assert response["Location"] == match.get_absolute_url()
    assert Move.objects.filter(match=match).count() == 1


def test_an_htmx_move_returns_the_fresh_board(client, match, alice):
    response = _login(client, alice).post(
        move_url(match), {"ply": 0, "move": ATTACK}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith("<section") and 'data-ply="1"' in html
    assert "hits for 50" in html


def test_a_json_move(client, match, alice):
    response = _login(client, alice).post(
        move_url(match),
        json.dumps({"ply": 0, "move": {"type": "attack"}, "move_id": "j1"}),
        content_type="application/json",
    )
    assert response.status_code == 302
    assert Move.objects.filter(match=match).count() == 1


def test_the_same_click_twice_makes_one_move(client, match, alice):
    _login(client, alice)
    first = client.post(
        move_url(match), {"ply": 0, "move": ATTACK, "move_id": "dbl"}, HTTP_HX_REQUEST="true"
    )
    again = client.post(
        move_url(match), {"ply": 0, "move": ATTACK, "move_id": "dbl"}, HTTP_HX_REQUEST="true"
    )
    assert first.status_code == again.status_code == 200
    assert Move.objects.filter(match=match).count() == 1


@pytest.mark.parametrize(
    ("post", "status", "message"),
    [
        ({"ply": 0, "move": "{not json"}, 400, "could not be read"),
        ({"ply": 0, "move": "[1, 2]"}, 400, "JSON object"),
        ({"ply": 0}, 400, "could not be read"),
        ({"ply": "x", "move": ATTACK}, 400, "turn number"),
        ({"ply": 3, "move": ATTACK}, 409, "board changed"),
        ({"ply": 0, "move": '{"type": "dance"}'}, 422, "only move is to attack"),
        ({"ply": 0, "move": ATTACK, "move_id": "x" * 65}, 400, "move id"),
    ],
)
@pytest.mark.parametrize("is_htmx", [True, False])
def test_bad_moves_get_a_clear_message_and_write_nothing(
    client, match, alice, post, status, message, is_htmx
):
    headers = {"HTTP_HX_REQUEST": "true"} if is_htmx else {}
    response = _login(client, alice).post(move_url(match), post, **headers)
    assert response.status_code == status
    assert message in response.content.decode()
    assert not Move.objects.exists()
    match.refresh_from_db()
    assert match.ply == 0


def test_malformed_json_body(client, match, alice):
    response = _login(client, alice).post(
        move_url(match), b"{oops", content_type="application/json"
    )
    assert response.status_code == 400
    assert "not valid JSON" in response.content.decode()
    assert not Move.objects.exists()


def test_not_your_turn_over_http(client, match, bob):
    response = _login(client, bob).post(move_url(match), {"ply": 0, "move": ATTACK})
    assert response.status_code == 409
    assert "not your turn" in response.content.decode()


def test_a_stranger_cannot_move(client, match, make_user):
    response = _login(client, make_user()).post(move_url(match), {"ply": 0, "move": ATTACK})
    assert response.status_code == 403
    assert not Move.objects.exists()


def test_logged_out_users_cannot_move(client, match):
    response = client.post(move_url(match), {"ply": 0, "move": ATTACK})
    assert response.status_code == 403
    assert "Log in" in response.content.decode()


@pytest.mark.parametrize("name", ["match", "board", "move", "resign", "join", "cancel", "autoplay"])
def test_an_unknown_match_is_a_404_page(client, alice, name):
    url = reverse(f"games:{name}", args=[987654])
    _login(client, alice)
    response = client.get(url) if name in ("match", "board") else client.post(url)
    assert response.status_code == 404
    assert (
        "no such match" in response.content.decode() or "nothing here" in response.content.decode()
    )


def test_get_on_a_post_only_url_is_405_not_500(client, match, alice):
    assert _login(client, alice).get(move_url(match)).status_code == 405


def test_the_board_endpoint_answers_204_when_nothing_changed(client, match, alice):
    _login(client, alice)
    first = client.get(reverse("games:board", args=[match.pk]))
    version = first.content.decode().split('data-version="')[1].split('"')[0]
    same = client.get(reverse("games:board", args=[match.pk]), {"have": version})
    assert same.status_code == 204
    services.move_submit(match_id=match.pk, user=alice, ply=0, move={"type": "attack"})
    changed = client.get(reverse("games:board", args=[match.pk]), {"have": version})
    assert changed.status_code == 200 and 'data-ply="1"' in changed.content.decode()


def test_the_seed_is_revealed_when_the_match_ends(client, match, alice):
    services.match_resign(match_id=match.pk, user=alice)
    html = _login(client, alice).get(match.get_absolute_url()).content.decode()
    assert bytes(Match.objects.get(pk=match.pk).seed).hex() in html
    assert "You lost: you resigned." in html


def test_resign_and_autoplay_over_http(client, match, alice):
    _login(client, alice)
    response = client.post(
        reverse("games:autoplay", args=[match.pk]), {"enabled": "on"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert match.seats.get(index=0).autoplay
    response = client.post(reverse("games:resign", args=[match.pk]))
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED


def test_joining_a_full_match_is_refused_clearly(client, match, make_user):
    response = _login(client, make_user()).post(reverse("games:join", args=[match.pk]))
    assert response.status_code == 409
    assert "already started" in response.content.decode()


def test_lobby_creates_an_ai_match_that_the_ai_answers(client, alice):
    _login(client, alice)
    response = client.post(
        reverse("games:lobby"), {"game": "dogblade", "opponent": "ai", "ai_level": "easy"}
    )
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == match.get_absolute_url()
    assert match.status == Match.Status.ACTIVE


def test_the_lobby_explains_the_ai_levels(client, alice):
    page = _login(client, alice).get(reverse("games:lobby")).content.decode()
    for level, label in (("easy", "Easy"), ("normal", "Normal"), ("hard", "Hard")):
        assert f'value="{level}"' in page and f">{label}</option>" in page
    assert 'aria-describedby="ai-level-help"' in page
    assert "Hard plays about as well as Normal" in page  # Grimhand: see docs/benchmarks.md


@pytest.mark.parametrize(
    ("post", "message"),
    [
        ({"game": "chess", "opponent": "ai", "ai_level": "easy"}, "Select a valid choice"),
        (
            {"game": "dogblade", "opponent": "player", "username": "", "ai_level": "easy"},
            "Type the username",
        ),
        (
            {"game": "dogblade", "opponent": "player", "username": "ghost", "ai_level": "easy"},
            "no player called",
        ),
        (
            {"game": "dogblade", "opponent": "player", "username": "alice", "ai_level": "easy"},
            "invite yourself",
        ),
    ],
)
def test_lobby_form_errors(client, alice, post, message):
    response = _login(client, alice).post(reverse("games:lobby"), post)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Match.objects.exists()


def test_lists(client, match, alice, bob, make_user):
    carol = make_user("carol")
    open_match = services.match_create(creator=carol, game_slug="dogblade", opponent="open")
    _login(client, alice)
    mine = client.get(reverse("games:my_matches")).content.decode()
    assert f"#{match.pk}" in mine
    tables = client.get(reverse("games:open_matches")).content.decode()
    assert reverse("games:join", args=[open_match.pk]) in tables
    assert client.get(reverse("home")).status_code == 200


def test_pages_need_login_where_they_should(client, db):
    assert client.get(reverse("games:lobby")).status_code == 302
    assert client.get(reverse("games:my_matches")).status_code == 302
    assert client.get(reverse("games:open_matches")).status_code == 200


def test_unknown_url_is_a_friendly_404(client, db):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    assert "Back to the hall" in response.content.decode()


SENTINEL_DEAL = {
    "deal": {
        "decks": [[[50, 60], [9990, 9980], [9970, 9960]], [[30, 120], [9950, 9940], [9930, 9920]]],
        "first": 0,
    }
}


@pytest.mark.parametrize("viewer", ["alice", "bob", "spectator"])
def test_no_page_reveals_an_undrawn_card(client, alice, bob, make_match, viewer):
    """Undrawn monsters are hidden from everyone: not in the page, the fragment or the log."""
    match = make_match(alice, bob, options=SENTINEL_DEAL)
    services.move_submit(match_id=match.pk, user=alice, ply=0, move={"type": "attack"})
    if viewer != "spectator":
        client.force_login({"alice": alice, "bob": bob}[viewer])
    pages = [
        client.get(match.get_absolute_url()).content.decode(),
        client.get(reverse("games:board", args=[match.pk])).content.decode(),
    ]
    for html in pages:
        for secret in ("9990", "9980", "9970", "9960", "9950", "9940", "9930", "9920"):
            # whole numbers only: the page's random move id may hold these digits by chance
            assert not re.search(rf"\b{secret}\b", html)
        assert bytes(match.seed).hex() not in html


def test_the_header_counts_matches_waiting_for_me(client, match, alice, bob):
    html = _login(client, alice).get(reverse("home")).content.decode()
    assert 'data-testid="turns-waiting">1<' in html
    client.force_login(bob)
    assert 'data-testid="turns-waiting"' not in client.get(reverse("home")).content.decode()


def test_the_lobby_keeps_a_two_player_game_at_two_seats(client, alice, bob):
    post = {
        "game": "dogblade",
        "players": "5",
        "opponent": "player",
        "username": "bob",
        "ai_level": "easy",
    }
    post.update({"seat_2": "ai", "seat_3": "open", "seat_4": "player", "seat_4_username": ""})
    response = _login(client, alice).post(reverse("games:lobby"), post)
    match = Match.objects.get()
    assert response.status_code == 302
    assert match.size == 2 and [seat.user for seat in match.seats.all()] == [alice, bob]


def test_the_host_fills_an_open_table_with_ai(client, alice, bob):
    match = services.match_create(creator=alice, game_slug="dogblade", opponent="open")
    page = _login(client, alice).get(match.get_absolute_url()).content.decode()
    assert 'data-testid="fill-with-ai"' in page
    for level, label in (("easy", "Easy"), ("normal", "Normal"), ("hard", "Hard")):
        assert f'<option value="{level}">AI · {label}</option>' in page
    assert 'value="oracle"' not in page and 'value="tutorial"' not in page
    response = client.post(reverse("games:fill", args=[match.pk]), {"ai_level": "normal"})
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE and match.seats.get(index=1).ai_level == "normal"


def test_only_the_host_may_fill_the_table(client, alice, bob):
    match = services.match_create(creator=alice, game_slug="dogblade", opponent="open")
    response = _login(client, bob).post(reverse("games:fill", args=[match.pk]))
    assert response.status_code == 403
    assert "Only the host" in response.content.decode()
    assert Match.objects.get(pk=match.pk).status == Match.Status.WAITING
