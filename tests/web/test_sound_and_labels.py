"""Issue 18's small things on the pages: a spectator's board says "Spectating"; the boards
carry their last ply's events for the sounds (static/js/sound.js); the header's sound control
holds the player's settings; "1 player", not "1 players"; achievement icons are drawn."""

import re
from types import SimpleNamespace

import pytest
from django.urls import reverse

from accounts import services as accounts
from games import services
from progression.templatetags.progression import achievement_icon
from tests.conftest import EXAMPLE_DEAL


@pytest.fixture
def match(alice, bob, make_match):
    return make_match(alice, bob, options=EXAMPLE_DEAL)


def _banner(html):
    return re.search(r'data-testid="turn-banner">(.*?)</p>', html, re.S).group(1)


def test_a_spectator_sees_the_spectating_label(client, match, make_user):
    anonymous = client.get(match.get_absolute_url()).content.decode()
    assert 'data-testid="spectating">Spectating<' in _banner(anonymous)
    assert "Waiting for" in _banner(anonymous)
    client.force_login(make_user("carol"))
    board = client.get(reverse("games:board", args=[match.pk])).content.decode()
    assert 'data-testid="spectating"' in _banner(board)


def test_a_seated_player_sees_no_spectating_label(client, match, alice, bob):
    for user in (alice, bob):
        client.force_login(user)
        html = client.get(match.get_absolute_url()).content.decode()
        assert 'data-testid="spectating"' not in html


def test_the_board_carries_its_last_events_for_the_sounds(client, match, alice):
    html = client.get(match.get_absolute_url()).content.decode()
    assert 'data-game="dogblade"' in html and 'data-events=""' in html
    services.move_submit(match_id=match.pk, user=alice, ply=0, move={"type": "attack"})
    html = client.get(match.get_absolute_url()).content.decode()
    events = re.search(r'data-events="([^"]*)"', html).group(1).split()
    assert "attack" in events


def test_the_header_sound_control_holds_the_players_settings(client, alice):
    accounts.sound_update(user=alice, volume=25, muted=True)
    client.force_login(alice)
    html = client.get(reverse("home")).content.decode()
    control = re.search(r'<form class="sound-control"[^>]*>', html).group(0)
    assert f'action="{reverse("sound")}"' in control
    assert 'data-volume="25"' in control and 'data-muted="1"' in control


def test_a_visitors_sound_control_keeps_to_the_browser(client, db):
    html = client.get(reverse("home")).content.decode()
    control = re.search(r'<form class="sound-control"[^>]*>', html).group(0)
    assert 'data-local="1"' in control and "action=" not in control


def test_the_home_page_pluralizes_players(client, db):
    html = client.get(reverse("home")).content.decode()
    assert "1 players" not in html
    assert "1 player<" in html  # BaniraCards, a solo game
    assert "2 players<" in html


@pytest.mark.parametrize(
    ("glyph", "symbol"), [("⛨", "shield"), ("✿", "flower"), ("☠", "skull"), ("🦄", "star")]
)
def test_achievement_icons_are_drawn_not_glyphs(glyph, symbol):
    html = str(achievement_icon(SimpleNamespace(icon=glyph)))
    assert f"achievements.svg#{symbol}" in html or f'#{symbol}"' in html
    assert glyph not in html
