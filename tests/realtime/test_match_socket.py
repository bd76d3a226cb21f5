"""The match socket: each seat gets its own board pushed after a move; reconnects catch up.

Runs on the in-memory channel layer by default and on channels-redis when REDIS_URL is set.
"""

import re

import channels.consumer
import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from games import services
from games.routing import websocket_urlpatterns
from web.asgi import application

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

THREE_EACH = {"deal": {"decks": [[[50, 60], [9990, 9980]], [[30, 120], [9970, 9960]]], "first": 0}}
SECRETS = ("9990", "9980", "9970", "9960")  # the undrawn cards: no socket may carry them


def socket_for(user, match_id):
    communicator = WebsocketCommunicator(
        URLRouter(websocket_urlpatterns), f"/ws/matches/{match_id}/"
    )
    communicator.scope["user"] = user
    return communicator


async def connected(communicator):
    is_connected, _ = await communicator.connect(timeout=5)
    assert is_connected
    hello = await communicator.receive_from(timeout=5)
    assert 'id="board-sync"' in hello and 'hx-trigger="load"' in hello  # catch up over HTTP
    return communicator


async def test_a_move_reaches_the_other_seat_with_its_own_view(alice, bob, make_match):
    match = await database_sync_to_async(make_match)(alice, bob, THREE_EACH)
    alice_socket = await connected(socket_for(alice, match.pk))
    bob_socket = await connected(socket_for(bob, match.pk))
    watcher = await connected(socket_for(AnonymousUser(), match.pk))

    await database_sync_to_async(services.move_submit)(
        match_id=match.pk, user=alice, ply=0, move={"type": "attack"}
    )

    for_bob = await bob_socket.receive_from(timeout=5)
    assert 'id="board"' in for_bob and 'data-ply="1"' in for_bob
    assert "Your turn!" in for_bob and 'data-testid="move-attack"' in for_bob
    assert 'data-testid="side-1"' in for_bob and for_bob.count("you-tag") == 1
    for_alice = await alice_socket.receive_from(timeout=5)
    assert 'data-ply="1"' in for_alice and "Waiting for bob" in for_alice
    assert 'data-testid="move-attack"' not in for_alice
    for_watcher = await watcher.receive_from(timeout=5)
    assert 'data-ply="1"' in for_watcher and "you-tag" not in for_watcher
    assert 'data-testid="move-attack"' not in for_watcher
    for pushed in (for_bob, for_alice, for_watcher):
        assert not any(re.search(rf"\b{secret}\b", pushed) for secret in SECRETS)
        assert match.seed_commitment in pushed and bytes(match.seed).hex() not in pushed
    for socket in (alice_socket, bob_socket, watcher):
        assert await socket.receive_nothing(timeout=0.2)
        await socket.disconnect()


async def test_the_page_that_moved_has_its_board_as_the_answer_and_no_push(alice, bob, make_match):
    match = await database_sync_to_async(make_match)(alice, bob, THREE_EACH)
    alice_page = socket_for(alice, match.pk)
    assert (await alice_page.connect(timeout=5))[0]
    hello = await alice_page.receive_from(timeout=5)
    socket = re.search(r'data-socket="([^"]+)"', hello).group(1)  # as cardhall.js reads it
    bob_page = await connected(socket_for(bob, match.pk))
    client = Client()
    await database_sync_to_async(client.force_login)(alice)

    def move(ply: int, *, socket: str = "", htmx: bool = True):
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        return client.post(
            f"/matches/{match.pk}/move/",
            {"ply": ply, "move": '{"type": "attack"}'},
            HTTP_X_BOARD_SOCKET=socket,
            **headers,
        )

    answer = await database_sync_to_async(move)(0, socket=socket)
    assert answer.status_code == 200 and 'data-ply="1"' in answer.content.decode()
    assert 'data-ply="1"' in await bob_page.receive_from(timeout=5)
    assert await alice_page.receive_nothing(timeout=0.3)  # the answer was its board

    # Another page of the same player (a second tab, a phone) is pushed to, and so are all
    # of that player's pages then (one group per seat).
    second_page = await connected(socket_for(alice, match.pk))
    await database_sync_to_async(services.move_submit)(
        match_id=match.pk, user=bob, ply=1, move={"type": "attack"}
    )
    for page in (alice_page, second_page):
        assert 'data-ply="2"' in await page.receive_from(timeout=5)
    answer = await database_sync_to_async(move)(2, socket=socket)
    assert answer.status_code == 200
    for page in (alice_page, second_page):
        assert 'data-ply="3"' in await page.receive_from(timeout=5)
    await second_page.disconnect()

    # A plain form post (no HTMX: answered with a redirect) is no answer with the board,
    # and a header that names no channel is no hint: both are pushed to as before.
    await database_sync_to_async(services.move_submit)(
        match_id=match.pk, user=bob, ply=3, move={"type": "attack"}
    )
    assert 'data-ply="4"' in await alice_page.receive_from(timeout=5)
    assert (await database_sync_to_async(move)(4, socket=socket, htmx=False)).status_code == 302
    assert 'data-ply="5"' in await alice_page.receive_from(timeout=5)
    for page in (alice_page, bob_page):
        await page.disconnect()


async def test_a_dropped_socket_catches_up_on_reconnect(alice, bob, make_match):
    match = await database_sync_to_async(make_match)(alice, bob, THREE_EACH)
    bob_socket = await connected(socket_for(bob, match.pk))
    await bob_socket.disconnect()
    await database_sync_to_async(services.move_submit)(
        match_id=match.pk, user=alice, ply=0, move={"type": "attack"}
    )
    again = await connected(socket_for(bob, match.pk))  # the hello makes the page re-fetch
    assert await again.receive_nothing(timeout=0.2)
    await again.disconnect()


async def test_an_unknown_match_is_refused(alice):
    communicator = socket_for(alice, 987654)
    is_connected, code = await communicator.connect(timeout=5)
    assert not is_connected and code == 4404


async def test_the_full_asgi_stack_authenticates_from_the_session(alice, bob, make_match):
    match = await database_sync_to_async(make_match)(alice, bob, THREE_EACH)
    client = Client()
    await database_sync_to_async(client.force_login)(bob)
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    communicator = WebsocketCommunicator(
        application,
        f"/ws/matches/{match.pk}/",
        headers=[(b"origin", b"http://testserver"), (b"host", b"testserver"), (b"cookie", cookie)],
    )
    await connected(communicator)
    await database_sync_to_async(services.move_submit)(
        match_id=match.pk, user=alice, ply=0, move={"type": "attack"}
    )
    pushed = await communicator.receive_from(timeout=5)
    assert "Your turn!" in pushed  # bob's own view: it is his turn now
    await communicator.disconnect()


async def test_a_foreign_origin_is_refused(alice, bob, make_match):
    match = await database_sync_to_async(make_match)(alice, bob, THREE_EACH)
    communicator = WebsocketCommunicator(
        application, f"/ws/matches/{match.pk}/", headers=[(b"origin", b"http://evil.example")]
    )
    is_connected, _ = await communicator.connect(timeout=5)
    assert not is_connected


async def test_a_push_reaches_the_socket_without_a_connection_sweep(
    alice, bob, make_match, monkeypatch
):
    """Channels' dispatch would run close_old_connections on the process's one
    thread-sensitive thread before every message; the match socket's database reads close
    their own connections (config/consumers.py), so its pushes skip that hand-over."""
    sweeps: list[str] = []

    async def sweep() -> None:
        sweeps.append("sweep")

    monkeypatch.setattr(channels.consumer, "aclose_old_connections", sweep)
    match = await database_sync_to_async(make_match)(alice, bob, THREE_EACH)
    bob_socket = await connected(socket_for(bob, match.pk))

    await database_sync_to_async(services.move_submit)(
        match_id=match.pk, user=alice, ply=0, move={"type": "attack"}
    )

    assert 'data-ply="1"' in await bob_socket.receive_from(timeout=5)
    await bob_socket.disconnect()
    assert sweeps == []  # not on connect, the push, nor the disconnect
