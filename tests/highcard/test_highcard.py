"""A sixth game from one folder, played through the real pages and a real socket.

High Card lives only in `tests/highcard/`; the `highcard` fixture registers its engine and
its board (docs/architecture.md, "How to add a game"). The match is opened through the
lobby's form, joined through the join button, and every draw is posted through the
board's own form; a socket on the real ASGI application receives the pushed board.
"""

import re

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

from games import boards
from games.engine import registry
from games.models import Match
from web.asgi import application

PLY = re.compile(r'name="ply" value="(\d+)"')
MOVE_ID = re.compile(r'name="move_id" value="([0-9a-f]+)"')


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def open_table(client: Client) -> Match:
    """alice opens a High Card table with an open seat, through the lobby's form."""
    lobby = client.get(reverse("games:lobby") + "?game=highcard")
    assert lobby.status_code == 200 and 'value="highcard"' in lobby.content.decode()
    answer = client.post(
        reverse("games:lobby"),
        {"game": "highcard", "players": "2", "opponent": "open", "ai_level": "easy"},
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    return Match.objects.get(game="highcard")


def draw(client: Client, match_id: int) -> str:
    """Press the board's Draw button: read the form from the page, post it as a browser would."""
    page = client.get(reverse("games:match", args=[match_id])).content.decode()
    assert 'data-testid="draw"' in page, "not this player's turn"
    fields = {"ply": PLY.search(page)[1], "move_id": MOVE_ID.search(page)[1], "draw": "1"}
    answer = client.post(reverse("games:move", args=[match_id]), fields, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200, answer.content.decode()[:2000]
    return answer.content.decode()


async def socket_for(client: Client, match_id: int) -> WebsocketCommunicator:
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    communicator = WebsocketCommunicator(
        application,
        f"/ws/matches/{match_id}/",
        headers=[(b"origin", b"http://testserver"), (b"host", b"testserver"), (b"cookie", cookie)],
    )
    is_connected, _ = await communicator.connect(timeout=5)
    assert is_connected
    hello = await communicator.receive_from(timeout=5)
    assert 'id="board-sync"' in hello
    return communicator


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_high_card_is_played_through_the_pages_and_a_socket(highcard, alice, bob):
    as_alice = await database_sync_to_async(logged_in)(alice)
    as_bob = await database_sync_to_async(logged_in)(bob)
    home = await database_sync_to_async(as_alice.get)("/")
    assert "High Card" in home.content.decode()
    match = await database_sync_to_async(open_table)(as_alice)
    joined = await database_sync_to_async(as_bob.post)(reverse("games:join", args=[match.pk]))
    assert joined.status_code == 302

    page = (await database_sync_to_async(as_alice.get)(match.get_absolute_url())).content
    page = page.decode()
    assert 'data-testid="highcard"' in page and "img/highcard/card.svg" in page
    bob_socket = await socket_for(as_bob, match.pk)

    # alice draws first (round 1): bob's socket gets his own board, with alice's card on it.
    board = await database_sync_to_async(draw)(as_alice, match.pk)
    card = re.search(r'data-testid="table-card-0">(\w+)<', board)[1]
    pushed = await bob_socket.receive_from(timeout=5)
    assert 'id="board"' in pushed and f">{card}<" in pushed and 'data-testid="draw"' in pushed
    assert f"alice draws {card}." in pushed  # the board's own log line
    await bob_socket.disconnect()

    players = {0: as_alice, 1: as_bob}
    for _ in range(60):
        await database_sync_to_async(match.refresh_from_db)()
        if match.is_finished:
            break
        (seat,) = match.seats_to_act
        await database_sync_to_async(draw)(players[seat], match.pk)
    assert match.is_finished and match.status == Match.Status.FINISHED
    wins = match.outcome["scores"]
    final = (await database_sync_to_async(as_alice.get)(match.get_absolute_url())).content
    final = final.decode()
    if wins[0] > wins[1]:
        assert "You won: three rounds first!" in final
    elif wins[1] > wins[0]:
        assert "You lost: they took three rounds first." in final
    else:
        assert "A draw." in final
    assert bytes(match.seed).hex() in final  # revealed once over, from revealed_seed


def test_the_folder_is_all_the_site_needs(highcard):
    board = boards.presenter_for("highcard")
    assert registry.get("highcard").name == "High Card" and boards.has_board("highcard")
    assert finders.find("img/highcard/card.svg") == str(
        board.folder / "static" / "img" / "highcard" / "card.svg"
    )
    assert finders.find("img/games/highcard.svg")


def test_unregistered_the_game_is_gone():
    assert not boards.has_board("highcard") and "highcard" not in registry.slugs()
    assert finders.find("img/highcard/card.svg") is None
