"""The notification socket: a connected page hears about a new notification at once.

Runs on the in-memory channel layer by default and on channels-redis when REDIS_URL is set.
"""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.core import mail
from django.test import Client

from games import services as games
from inbox.models import Notification
from tests.inbox.conftest import LONG_DEAL
from web.asgi import application

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def fresh_match(make_match, alice, bob):
    """A running match whose invitation notification was already read."""
    match = make_match(alice, bob, LONG_DEAL)
    Notification.objects.update(read_at=match.started)
    mail.outbox.clear()
    return match


async def socket_as(user, path="/ws/notifications/"):
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if user is not None:
        client = Client()
        await database_sync_to_async(client.force_login)(user)
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    return WebsocketCommunicator(application, path, headers=headers)


async def connected(user, path="/ws/notifications/"):
    communicator = await socket_as(user, path)
    is_connected, _ = await communicator.connect(timeout=5)
    assert is_connected
    return communicator


async def test_a_new_notification_reaches_the_connected_socket_and_the_outbox(
    alice, bob, make_match
):
    match = await database_sync_to_async(fresh_match)(make_match, alice, bob)
    bob_socket = await connected(bob)
    hello = await bob_socket.receive_from(timeout=5)  # the current count, to catch up
    assert 'id="inbox-count"' in hello and 'hx-swap-oob="true"' in hello
    assert 'data-count="0"' in hello and "hidden" in hello

    await database_sync_to_async(games.move_submit)(
        match_id=match.pk, user=alice, ply=0, move={"type": "attack"}
    )

    pushed = await bob_socket.receive_from(timeout=5)
    assert 'id="inbox-count"' in pushed and 'data-count="1"' in pushed
    assert 'id="inbox-toasts" hx-swap-oob="beforeend"' in pushed
    assert "Your turn in Dog Blade against alice" in pushed
    notification = await database_sync_to_async(Notification.objects.get)(user=bob, kind="turn")
    assert f'href="/notifications/{notification.pk}/"' in pushed
    assert [email.to for email in mail.outbox] == [["bob@example.com"]]
    assert await bob_socket.receive_nothing(timeout=0.2)
    await bob_socket.disconnect()


async def test_nothing_is_pushed_while_the_player_looks_at_the_match(alice, bob, make_match):
    match = await database_sync_to_async(fresh_match)(make_match, alice, bob)
    bob_inbox = await connected(bob)
    await bob_inbox.receive_from(timeout=5)
    bob_page = await connected(bob, f"/ws/matches/{match.pk}/")  # the match page is open
    await bob_page.receive_from(timeout=5)

    await database_sync_to_async(games.move_submit)(
        match_id=match.pk, user=alice, ply=0, move={"type": "attack"}
    )
    board = await bob_page.receive_from(timeout=5)
    assert "Your turn!" in board  # he sees it on the board...
    assert await bob_inbox.receive_nothing(timeout=0.3)  # ...so no reminder
    assert mail.outbox == []

    await bob_page.disconnect()  # he leaves: the next turn reminds him
    await database_sync_to_async(games.move_submit)(
        match_id=match.pk, user=bob, ply=1, move={"type": "attack"}
    )
    await database_sync_to_async(games.move_submit)(
        match_id=match.pk, user=alice, ply=2, move={"type": "attack"}
    )
    pushed = await bob_inbox.receive_from(timeout=5)
    assert "Your turn in Dog Blade" in pushed and 'data-count="1"' in pushed
    await bob_inbox.disconnect()


async def test_each_user_hears_only_their_own(alice, bob, make_match):
    match = await database_sync_to_async(fresh_match)(make_match, alice, bob)
    alice_socket = await connected(alice)
    await alice_socket.receive_from(timeout=5)
    await database_sync_to_async(games.move_submit)(
        match_id=match.pk, user=alice, ply=0, move={"type": "attack"}
    )
    assert await alice_socket.receive_nothing(timeout=0.3)  # bob's turn: nothing for alice
    await alice_socket.disconnect()


async def test_an_anonymous_socket_is_refused():
    communicator = await socket_as(None)
    is_connected, code = await communicator.connect(timeout=5)
    assert not is_connected and code == 4401
