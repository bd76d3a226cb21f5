"""Bot accounts: labelled where players are listed (boards, tables, leaderboards), and kept
out of rated quick pairing unless their owner lets them in."""

from __future__ import annotations

import pytest
from django.template import Context, Template

from botapi import services
from games import services as game_services
from games.errors import CannotCreate
from games.models import Seek

pytestmark = pytest.mark.django_db


def _badge(value) -> str:
    return Template("{% load bots %}{{ value|bot_badge }}").render(Context({"value": value}))


def test_the_badge_labels_bots_only(alice, bob, make_match):
    services.bot_set(user=alice, is_bot=True)
    assert 'data-testid="bot-badge"' in _badge(alice)
    assert _badge(bob) == ""
    match = make_match(alice, bob)
    seats = {seat.index: seat for seat in match.seats.all()}
    assert "bot" in _badge(seats[0]) and _badge(seats[1]) == ""


def test_an_ai_seat_is_no_bot_even_when_its_id_is_a_bots(alice, bob, make_user):
    match = game_services.match_create(creator=bob, game_slug="dogblade", opponent="ai")
    ai_seat = match.seats.get(index=1)
    services.bot_set(user=alice, is_bot=True)
    assert ai_seat.user_id is None
    ai_seat.pk = alice.pk  # a seat's own id never counts as a player's
    assert _badge(ai_seat) == ""


@pytest.mark.parametrize("game", ["dogblade", "grimhand", "haymaker", "shield"])
def test_boards_show_the_badge_beside_a_bots_name(client, alice, bob, game):
    services.bot_set(user=bob, is_bot=True)
    match = game_services.match_create(
        creator=alice, game_slug=game, opponent="player", invitee_username="bob"
    )
    game_services.match_join(match_id=match.pk, user=bob)
    client.force_login(alice)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert page.count('data-testid="bot-badge"') == 1


def test_the_open_tables_show_a_bot_host(client, alice):
    services.bot_set(user=alice, is_bot=True)
    game_services.match_create(creator=alice, game_slug="dogblade", opponent="open")
    assert 'data-testid="bot-badge"' in client.get("/tables/").content.decode()


def test_a_bot_stays_out_of_rated_pools_unless_let_in(alice):
    services.bot_set(user=alice, is_bot=True)
    pools = game_services.pairing.quick_time_controls()
    control = next(iter(pools))
    game = game_services.pairing.quick_games()[0].slug
    with pytest.raises(CannotCreate):
        game_services.pairing.seek_create(user=alice, game_slug=game, time_control=control)
    assert not Seek.objects.exists()
    casual = game_services.pairing.seek_create(
        user=alice, game_slug=game, time_control=control, is_rated=False
    )
    assert casual.pk
    services.bot_set(user=alice, is_bot=True, joins_rated_pools=True)
    assert game_services.pairing.seek_create(user=alice, game_slug=game, time_control=control)


def test_a_bot_cannot_accept_a_rated_seek(alice, bob):
    pools = game_services.pairing.quick_time_controls()
    control = next(iter(pools))
    game = game_services.pairing.quick_games()[0].slug
    seek = game_services.pairing.seek_create(user=bob, game_slug=game, time_control=control)
    services.bot_set(user=alice, is_bot=True)
    with pytest.raises(CannotCreate):
        game_services.pairing.seek_accept(user=alice, seek_id=seek.pk)


def test_the_leaderboard_labels_a_bot(client, alice, bob):
    from ratings import systems
    from ratings.models import Rating

    for user, rating in ((alice, 1600), (bob, 1700)):
        Rating.objects.create(
            user=user,
            game="dogblade",
            system=systems.system_for("dogblade"),
            rating=rating,
            deviation=80.0,
            volatility=0.06,
            games=10,
            wins=5,
        )
    services.bot_set(user=alice, is_bot=True)
    page = client.get("/leaderboards/dogblade/").content.decode()
    assert page.count('data-testid="bot-badge"') == 1
    row = page.split('data-testid="row-alice"', 1)[1].split("</tr>", 1)[0]
    assert 'data-testid="bot-badge"' in row
