"""The Grimhand tutorial walks a new player through draw, attack, the Lucky slot and Death."""

import pytest
from django.urls import reverse

from games import selectors, services
from games.engine import registry
from games.models import Match, Seat

pytestmark = [
    pytest.mark.django_db(transaction=True),  # on-commit hooks run: the tutor really moves
    pytest.mark.skipif("grimhand" not in registry.slugs(), reason="needs the Grimhand engine"),
]


def _coach(match, user):
    seat = match.seats.get(user=user)
    return selectors.match_board(match=selectors.match_get(match_id=match.pk), seat=seat)


def _play(match, user, move):
    match.refresh_from_db()
    services.move_submit(match_id=match.pk, user=user, ply=match.ply, move=move)
    match.refresh_from_db()


def test_the_tutorial_meets_every_rule_in_order(alice):
    match = services.tutorial_start(user=alice, game_slug="grimhand")
    assert match.tutorial == "grimhand"
    assert match.seats.get(index=1).ai_level == services.TUTOR
    board = _coach(match, alice)
    assert "draw a card or attack" in board["coach"].text
    assert board["coached_move"] == '{"deck":"attack","type":"draw"}'

    _play(match, alice, {"type": "draw", "deck": "attack"})  # ply 0: a 5; the tutor draws
    assert match.ply == 2
    _play(match, alice, {"type": "draw", "deck": "defense"})  # ply 2: a 4; the tutor draws
    _play(match, alice, {"type": "draw", "deck": "attack"})  # ply 4: the Lucky 7; tutor attacks
    board = _coach(match, alice)
    me, tutor = board["view"]["players"][0], board["view"]["players"][1]
    if me["seat"] != 0:
        me, tutor = tutor, me
    assert me["lucky"] is True
    assert me["hp"] == 46  # the tutor's 8 against my 4
    assert "Lucky 7" in board["coach"].text

    _play(match, alice, {"type": "attack"})  # ply 6: my 5 against their 2
    _play(match, alice, {"type": "draw", "deck": "attack"})  # ply 8: the Death card, saved
    position = selectors.match_position(match=match)
    saved = [event.type for entry in position.tail for event in entry.events]
    assert "lucky_saved" in saved and "death" not in saved
    assert match.status == Match.Status.ACTIVE
    board = _coach(match, alice)
    assert board["view"]["players"][0]["hp"] == 46 or board["view"]["players"][1]["hp"] == 46


def test_the_tutorial_page_and_view(client, alice):
    client.force_login(alice)
    response = client.post(reverse("games:tutorial", args=["grimhand"]))
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == match.get_absolute_url()
    html = client.get(match.get_absolute_url()).content.decode()
    assert 'data-testid="coach"' in html
    assert html.count("is-coached") == 1 and 'data-testid="draw-attack"' in html
    assert Seat.objects.get(match=match, index=1).label == "Tutor"


def test_no_tutorial_for_an_unknown_game(client, alice):
    client.force_login(alice)
    assert client.post(reverse("games:tutorial", args=["chess"])).status_code == 404
    assert not Match.objects.exists()
