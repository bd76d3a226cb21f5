"""Sockets compress each message on its own (config.websocket), so an idle one holds no zlib.

The negotiation is checked as websockets runs it, with the offer Chromium sends, and then in
the production shape: a socket that offers what a browser offers is answered with no
context takeover either way, and a board pushed to it arrives whole.
"""

from __future__ import annotations

import asyncio

import aiohttp
import pytest
from websockets.frames import Frame, Opcode

from config.websocket import deflate
from tests.live import manage
from tests.realtime.live_redis import (
    needs_redis,
    production_server,
    seed_match_sockets,
    throwaway_redis,
)

CHROMIUM_OFFER = [("client_max_window_bits", None)]  # "permessage-deflate; client_max_window_bits"
BOARD = ('<section id="board" class="board">' + '<div class="db-side">x</div>' * 600).encode()


@pytest.fixture(autouse=True)
def _fast_and_clean():
    """Replaces the suite-wide fixture (tests/conftest.py): nothing here uses this
    process's cache, and the live test's Redis is its own."""
    yield


def test_a_browsers_offer_is_answered_without_context_takeover():
    answer, extension = deflate().process_request_params(CHROMIUM_OFFER, [])
    assert ("server_no_context_takeover", None) in answer
    assert ("client_no_context_takeover", None) in answer
    assert ("server_max_window_bits", "12") in answer
    assert not hasattr(extension, "encoder") and not hasattr(extension, "decoder")

    sent = extension.encode(Frame(Opcode.TEXT, BOARD))
    assert sent.rsv1 and len(sent.data) < len(BOARD) / 5  # compressed, on its own
    assert not hasattr(extension, "encoder")  # and nothing kept once it has gone
    received = extension.decode(Frame(Opcode.TEXT, sent.data, rsv1=True))
    assert received.data == BOARD and not hasattr(extension, "decoder")


@needs_redis
def test_a_browser_like_socket_gets_its_pushes_compressed_message_by_message(tmp_path):
    with (
        throwaway_redis() as redis,
        production_server(tmp_path, redis_url=redis.url, workers=1) as server,
    ):
        (match_id, session), *_ = seed_match_sockets(server, tmp_path, matches=1)
        asyncio.run(_play_one_move(server, match_id, session))


async def _play_one_move(server, match_id: int, session: str) -> None:
    cookies = {"sessionid": session}
    async with aiohttp.ClientSession(server.url, cookies=cookies) as client:
        socket = await client.ws_connect(f"/ws/matches/{match_id}/", origin=server.url, compress=15)
        assert socket.compress == 12 and socket.client_notakeover  # what the server answered
        hello = await socket.receive_str(timeout=30)
        assert 'id="board-sync"' in hello
        await asyncio.to_thread(_first_seat_attacks, server, match_id)
        pushed = await socket.receive_str(timeout=30)
        assert pushed.lstrip().startswith('<section id="board"') and 'data-ply="1"' in pushed
        assert pushed.rstrip().endswith("</section>")
        await socket.close()


def _first_seat_attacks(server, match_id: int) -> None:
    code = (
        "from games import services; from games.models import Match; "
        f"match = Match.objects.get(pk={match_id}); "
        "seat = match.seats.get(index=match.seats_to_act[0]); "
        f"services.move_submit(match_id={match_id}, user=seat.user, ply=0, "
        "move={'type': 'attack'})"
    )
    manage(server.env, "shell", "-c", code)
