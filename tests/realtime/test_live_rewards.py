"""A match that ends by a push (the other player's move, or the AI's) shows its rewards at
once: the pushed board carries the end panel (XP, coins, quest progress, a level-up) and
the header's level bar, swapped out of band. Real database, real channel layer (Redis when
REDIS_URL is set), the match socket as a page opens it.
"""

import re

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import AnonymousUser

from games import services
from games.models import Match
from progression.models import PlayerProgress
from tests.conftest import EXAMPLE_DEAL
from tests.progression.conftest import quest_templates  # noqa: F401 (a fixture)
from tests.realtime.test_match_socket import connected, socket_for

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

HEADER = re.compile(r'<a id="header-level"[^>]*hx-swap-oob="true"[^>]*>.*?</a>', re.S)


def _play_to_the_end(match_id, users):
    """Each human seat to act plays "attack" (Dog Blade's only move here) until the end;
    the AI answers by itself (eager Celery, after each commit)."""
    for _ in range(20):
        match = Match.objects.get(pk=match_id)
        if match.is_finished:
            return match
        seat = match.seats.get(index=match.seats_to_act[0])
        services.move_submit(
            match_id=match_id, user=users[seat.user_id], ply=match.ply, move={"type": "attack"}
        )
    raise AssertionError("the match did not end")


async def _pushes(socket):
    pushed = []
    while not await socket.receive_nothing(timeout=0.5):
        pushed.append(await socket.receive_from(timeout=5))
    return pushed


def _level_to(user, xp):
    PlayerProgress.objects.update_or_create(user=user, defaults={"xp": xp})


async def test_the_other_players_last_move_pushes_the_rewards_and_the_header(
    alice,
    bob,
    make_match,
    quest_templates,  # noqa: F811
):
    match = await database_sync_to_async(make_match)(alice, bob, EXAMPLE_DEAL)
    await database_sync_to_async(_level_to)(alice, 60)  # a finish (+50 XP) makes level 2
    alice_socket = await connected(socket_for(alice, match.pk))
    watcher = await connected(socket_for(AnonymousUser(), match.pk))

    finished = await database_sync_to_async(_play_to_the_end)(
        match.pk, {alice.pk: alice, bob.pk: bob}
    )
    last_mover = await database_sync_to_async(lambda: finished.moves.order_by("-ply")[0].user_id)()
    assert last_mover == bob.pk  # the end reached alice as a push

    last = (await _pushes(alice_socket))[-1]
    assert 'data-status="finished"' in last
    assert 'data-testid="match-xp"' in last and "is-level-up" in last
    assert "+50 XP" in last and "Level up!" in last
    assert re.search(r'class="coin-amount">\+\d+<', last)  # coins
    assert "Quest: Play 2 matches 1/2" in last  # quest progress
    header = HEADER.search(last)
    assert header, "the header's level bar is not in the push"
    assert 'data-testid="header-level-number">2<' in header.group(0)
    # The panel's numbers and the header's agree, and nobody else's bar rides along.
    summary = re.search(r"Level (\d+), (\d+)% to", last)
    assert summary and summary.group(1) == "2"
    assert f'data-percent="{summary.group(2)}"' in header.group(0)
    assert last.count('<a id="header-level"') == 1

    seen = (await _pushes(watcher))[-1]
    assert 'data-status="finished"' in seen
    assert '<a id="header-level"' not in seen and 'data-testid="match-xp"' not in seen
    for socket in (alice_socket, watcher):
        await socket.disconnect()


async def test_the_ais_last_move_pushes_the_rewards_and_the_header(alice):
    match = await database_sync_to_async(services.match_create)(
        creator=alice, game_slug="dogblade", opponent="ai", options=EXAMPLE_DEAL
    )
    socket = await connected(socket_for(alice, match.pk))

    finished = await database_sync_to_async(_play_to_the_end)(match.pk, {alice.pk: alice})
    last_mover = await database_sync_to_async(lambda: finished.moves.order_by("-ply")[0].seat)()
    assert last_mover == 1  # the AI's move ended it

    pushed = await _pushes(socket)
    last = pushed[-1]
    assert 'data-status="finished"' in last and 'data-testid="match-xp"' in last
    assert re.search(r'data-testid="match-xp-gain">\+\d+ XP<', last)
    header = HEADER.search(last)
    assert header and 'data-percent="0"' not in header.group(0)
    # Boards of a match in play carry no header: only the end moves the bar.
    assert all('<a id="header-level"' not in html for html in pushed[:-1])
    await socket.disconnect()
