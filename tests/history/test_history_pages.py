"""The replay page: every ply of a finished match for everyone, and what a running match or a
private run refuses (another seat's view, everything revealed, strangers), with a message."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from games import selectors, services
from tests.history.helpers import SEATS, play, start

CARD = re.compile(r'data-card="([a-z-]+\d+)"')
# Grimhand, from tests/web/test_grimhand_board.py: Bob (seat 1) alone holds the defense 9
# and 11, the attack deck is 5 then 6, the defense deck 1 then 13.
DEAL = {
    "attack": [5, 6],
    "defense": [1, 13],
    "hands": [{"attack": [3, 10], "defense": [2]}, {"attack": [4], "defense": [9, 11]}],
    "lucky": [True, False],
    "hp": [40, 30],
    "first": 0,
}
BOBS_SECRETS = ("defense-9", "defense-11", "attack-4")


def history(client, match, user=None, **query):
    if user is None:
        client.logout()
    else:
        client.force_login(user)
    return client.get(reverse("games:history", args=[match.pk]), query)


def grimhand(alice, bob):
    match = services.match_create(
        creator=alice,
        game_slug="grimhand",
        opponent="player",
        invitee_username=bob.username,
        options={"deal": DEAL},
    )
    services.match_join(match_id=match.pk, user=bob)
    match.refresh_from_db()
    return match


def move(match, user, payload):
    match.refresh_from_db()
    services.move_submit(match_id=match.pk, user=user, ply=match.ply, move=payload)
    match.refresh_from_db()


@pytest.fixture
def carol(make_user):
    return make_user("carol")


@pytest.mark.parametrize("game", ["grimhand", "shield", "haymaker", "dogblade", "banira"])
def test_every_ply_of_a_finished_match_renders_for_every_viewer(client, make_user, game):
    users = [make_user() for _ in range(SEATS[game])]
    match = play(start(game, users), users).match
    stranger = make_user()
    keys = [str(seat) for seat in range(match.size)] + ["spectator", "revealed"]
    lookers = (users[0], stranger, None)
    # Every ply, through each viewer in turn; every viewer at the deal and at the end.
    asked = [(ply, keys[ply % len(keys)]) for ply in range(match.ply + 1)]
    asked += [(ply, key) for ply in (0, match.ply) for key in keys]
    for turn, (ply, key) in enumerate(asked):
        user = lookers[turn % len(lookers)]  # the player, a stranger, anonymous
        response = history(client, match, user, ply=ply, **{"as": key})
        assert response.status_code == 200, (ply, key, response.content[:300])
        body = response.content.decode()
        assert 'data-testid="replay-board"' in body
        assert f'data-ply="{ply}"' in body
    last = history(client, match, None).content.decode()
    assert 'data-testid="seed"' in last and 'data-testid="viewer-revealed"' in last


def test_the_bar_steps_with_links_that_work_without_javascript(client, alice, bob):
    match = grimhand(alice, bob)
    move(match, alice, {"type": "draw", "deck": "attack"})
    move(match, bob, {"type": "draw", "deck": "defense"})
    services.match_resign(match_id=match.pk, user=bob)
    body = history(client, match, None, ply=1, **{"as": "revealed"}).content.decode()
    for step, ply in (("first", 0), ("back", 0), ("forward", 2), ("last", 2)):
        link = re.search(rf'href="([^"]+)"[^>]*data-step="{step}"', body)
        assert link, step
        assert f"ply={ply}" in link.group(1) and "as=revealed" in link.group(1)
        assert client.get(link.group(1).replace("&amp;", "&")).status_code == 200
    first = history(client, match, None, ply=0).content.decode()
    assert 'data-step="back"' not in first and 'data-step="forward"' in first


def test_htmx_gets_only_the_stage(client, alice, bob):
    match = grimhand(alice, bob)
    move(match, alice, {"type": "draw", "deck": "attack"})
    client.force_login(alice)
    response = client.get(
        reverse("games:history", args=[match.pk]), {"ply": 1}, HTTP_HX_REQUEST="true"
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<div id="replay"') and "<html" not in body


def test_revealed_shows_both_hands_and_the_deck_order(client, alice, bob):
    match = grimhand(alice, bob)
    services.match_resign(match_id=match.pk, user=bob)
    body = history(client, match, None, ply=0, **{"as": "revealed"}).content.decode()
    shown = set(CARD.findall(body))
    assert {"attack-3", "attack-10", "defense-2", *BOBS_SECRETS} <= shown
    assert 'data-testid="hidden-piles"' in body and "Attack deck" in body


def test_a_running_match_shows_its_player_only_their_own_view(client, alice, bob, carol):
    match = grimhand(alice, bob)
    move(match, alice, {"type": "draw", "deck": "attack"})  # Alice takes the 5
    move(match, bob, {"type": "draw", "deck": "defense"})  # Bob takes the 1
    for ply in range(match.ply + 1):
        response = history(client, match, alice, ply=ply)
        assert response.status_code == 200
        body = response.content.decode()
        assert 'data-testid="running-note"' in body
        shown = set(CARD.findall(body))
        for secret in (*BOBS_SECRETS, "defense-1", "attack-6", "defense-13"):
            assert secret not in shown, (ply, secret)
        assert "defense 1" not in body.lower() and 'data-testid="seed"' not in body
        assert 'data-testid="viewer-1"' not in body and 'data-testid="viewer-revealed"' not in body
        assert 'data-testid="hidden-piles"' not in body

    for key, who in (("1", alice), ("revealed", alice), ("spectator", alice), ("0", carol)):
        refused = history(client, match, who, **{"as": key})
        assert refused.status_code == 403, key
        assert 'data-testid="error-message"' in refused.content.decode()
    assert "own view" in history(client, match, alice, **{"as": "1"}).content.decode()
    assert (
        "once the match is over"
        in history(client, match, None, **{"as": "revealed"}).content.decode()
    )

    watched = history(client, match, carol)
    assert watched.status_code == 200
    body = watched.content.decode()
    assert "As spectators saw it" in body
    assert not {c for c in CARD.findall(body) if c.startswith(("attack-", "defense-"))}


def test_a_running_shield_setup_never_shows_another_seats_hand(client, alice, bob, carol):
    users = [alice, bob, carol]
    match = start("shield", users)
    played = play(match, users, plies=2, finish=False)  # two setup moves
    game = selectors.match_game(match=match)
    hands = [game.view(played.states[0], seat)["hand"] for seat in range(3)]
    for ply in range(played.match.ply + 1):
        body = history(client, played.match, alice, ply=ply).content.decode()
        shown = set(re.findall(r'data-card="([0-9AJQKCDHS]+)"', body))
        assert not shown & (set(hands[1]) | set(hands[2])), ply


def test_a_private_weekly_run_is_its_players_only(client, alice, bob):
    week_end = timezone.now() + datetime.timedelta(days=3)
    match = start("banira", [alice], private_until=week_end)
    played = play(match, [alice], plies=4, finish=False)
    assert history(client, played.match, alice).status_code == 200
    for user in (bob, None):
        refused = history(client, played.match, user)
        assert refused.status_code == 404
        assert "private" in refused.content.decode()
    services.match_resign(match_id=match.pk, user=alice)
    match.refresh_from_db()
    assert match.is_finished and match.is_private_now
    mine = history(client, match, alice)
    assert mine.status_code == 200 and 'data-testid="seed"' not in mine.content.decode()
    refused = history(client, match, alice, **{"as": "revealed"})
    assert refused.status_code == 403 and "week ends" in refused.content.decode()
    assert history(client, match, bob).status_code == 404


@pytest.mark.parametrize(
    ("ply", "status", "words"),
    [
        ("abc", 400, "whole number"),
        ("-1", 400, "whole number"),
        ("1.5", 400, "whole number"),
        ("99", 404, "no move 99"),
        ("9" * 30, 400, "whole number"),
    ],
)
def test_a_ply_out_of_range_or_not_a_number_is_a_clear_message(
    client, alice, bob, ply, status, words
):
    match = grimhand(alice, bob)
    move(match, alice, {"type": "draw", "deck": "attack"})
    response = history(client, match, alice, ply=ply)
    assert response.status_code == status
    assert words in response.content.decode()


def test_an_unknown_viewer_or_match_is_a_clear_message(client, alice, bob):
    match = grimhand(alice, bob)
    assert "not a view" in history(client, match, alice, **{"as": "7"}).content.decode()
    client.force_login(alice)
    missing = client.get(reverse("games:history", args=[match.pk + 999]))
    assert missing.status_code == 404 and "no such match" in missing.content.decode()


def test_the_match_page_links_history_export_and_verify(client, alice, bob):
    match = grimhand(alice, bob)
    client.force_login(alice)
    body = client.get(match.get_absolute_url()).content.decode()
    assert reverse("games:history", args=[match.pk]) in body
    assert reverse("games:export", args=[match.pk]) in body
    assert reverse("games:verify") in body
