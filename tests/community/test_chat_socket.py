"""A chat line goes out over the match socket after its commit: to the other seats (not
back to its sender), never to a player with chat off or across a block; the spectators'
room to the spectators only. Real channel layer (channels-redis when REDIS_URL is set)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from community import services
from games.routing import websocket_urlpatterns
from social.models import Block

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def socket_for(user, match_id):
    communicator = WebsocketCommunicator(
        URLRouter(websocket_urlpatterns), f"/ws/matches/{match_id}/"
    )
    communicator.scope["user"] = user
    return communicator


async def connected(user, match_id):
    communicator = socket_for(user, match_id)
    is_connected, _ = await communicator.connect(timeout=5)
    assert is_connected
    hello = await communicator.receive_from(timeout=5)
    assert 'id="board-sync"' in hello
    return communicator


post = database_sync_to_async(services.chat_post)


@pytest.fixture
def carol(make_user):
    return make_user("carol")


async def test_a_line_is_pushed_to_the_other_seat_with_sender_and_time(alice, bob, make_match):
    match = await database_sync_to_async(make_match)(alice, bob)
    alice_socket = await connected(alice, match.pk)
    bob_socket = await connected(bob, match.pk)

    line = await post(match_id=match.pk, user=alice, text="good <b>luck</b>")

    pushed = await bob_socket.receive_from(timeout=5)
    assert 'hx-swap-oob="beforeend:#chat-lines-seats"' in pushed
    assert f'id="chat-line-{line.pk}"' in pushed
    assert ">alice<" in pushed and "good &lt;b&gt;luck&lt;/b&gt;" in pushed  # escaped
    assert 'class="chat-time muted" datetime="' in pushed
    assert 'id="board"' not in pushed  # a chat line carries no board
    assert await alice_socket.receive_nothing(timeout=0.3)  # her page shows it already
    for socket in (alice_socket, bob_socket):
        await socket.disconnect()


async def test_chat_off_and_blocks_keep_lines_off_the_socket(alice, bob, carol, make_match):
    match = await database_sync_to_async(make_match)(alice, bob)
    bob_socket = await connected(bob, match.pk)
    await database_sync_to_async(services.chat_switch)(user=bob, is_on=False)
    await post(match_id=match.pk, user=alice, text="are you there?")
    assert await bob_socket.receive_nothing(timeout=0.5)

    await database_sync_to_async(services.chat_switch)(user=bob, is_on=True)
    await database_sync_to_async(Block.objects.create)(blocker=bob, blocked=alice)
    await post(match_id=match.pk, user=alice, text="hello?")
    assert await bob_socket.receive_nothing(timeout=0.5)

    await database_sync_to_async(Block.objects.all().delete)()
    await post(match_id=match.pk, user=alice, text="now?")
    assert "now?" in await bob_socket.receive_from(timeout=5)
    await bob_socket.disconnect()


async def test_spectators_room_reaches_spectators_only(alice, bob, carol, make_user, make_match):
    dave = await database_sync_to_async(make_user)("dave")
    match = await database_sync_to_async(make_match)(alice, bob)
    bob_socket = await connected(bob, match.pk)
    dave_socket = await connected(dave, match.pk)
    carol_socket = await connected(carol, match.pk)

    await post(match_id=match.pk, user=carol, text="go alice")
    pushed = await dave_socket.receive_from(timeout=5)
    assert "beforeend:#chat-lines-watch" in pushed and "go alice" in pushed
    assert await bob_socket.receive_nothing(timeout=0.3)  # players never read the spectators
    assert await carol_socket.receive_nothing(timeout=0.1)

    await post(match_id=match.pk, user=alice, text="thanks")  # the seats' room
    assert "thanks" in await bob_socket.receive_from(timeout=5)
    assert await dave_socket.receive_nothing(timeout=0.3)
    for socket in (bob_socket, dave_socket, carol_socket):
        await socket.disconnect()


remove = database_sync_to_async(services.message_remove)


async def test_a_removed_line_leaves_every_page_of_its_room_at_once(
    alice, bob, carol, make_user, make_match
):
    """The sender's page too; a spectator never hears of a line of the seats' room."""
    mod = await database_sync_to_async(make_user)("mod")
    match = await database_sync_to_async(make_match)(alice, bob)
    alice_socket = await connected(alice, match.pk)
    bob_socket = await connected(bob, match.pk)
    carol_socket = await connected(carol, match.pk)
    line = await post(match_id=match.pk, user=alice, text="rude")
    assert "rude" in await bob_socket.receive_from(timeout=5)

    await remove(message=line, by=mod)

    for socket in (alice_socket, bob_socket):
        pushed = await socket.receive_from(timeout=5)
        assert pushed == f'<li id="chat-line-{line.pk}" hx-swap-oob="delete"></li>'
    assert await carol_socket.receive_nothing(timeout=0.3)
    await remove(message=line, by=mod)  # removed already: nothing more is sent
    assert await bob_socket.receive_nothing(timeout=0.3)
    for socket in (alice_socket, bob_socket, carol_socket):
        await socket.disconnect()
