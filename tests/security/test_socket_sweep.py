"""The leak sweep on real sockets: every viewer of a match holds its match socket (and, when
signed in, its notification socket) open through the whole ASGI stack (origin check,
session authentication, the real routing) while the match is played, and everything
each socket receives is checked against that viewer's own knowledge (tests/security/sweep.py).
A private run refuses the sockets of everyone but its player.
"""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from games import replay, services
from games.engine.core import Chance
from games.models import Match
from tests.security.sweep import BOARD_PLY, NOTHING, Body, Sweep, Viewer, random_move
from tests.security.test_leak_sweep import (
    ARCANA_OPTIONS,
    _arcana_seed,
    _lasting_seed,
)
from tests.security.test_leak_sweep import (
    PLIES as SWEEP_PLIES,
)
from web.asgi import application

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

PLIES = 10
# Each case: (game, options, the seed of its match, plies, the random moves' stream). The
# Arcana match is the leak sweep's: random play meets a Scrying Orb and a Swap Hands.
CASES = {
    "haymaker": ("haymaker", {}, lambda: _lasting_seed("haymaker", 2, PLIES), PLIES),
    "grimhand-arcana": (
        "grimhand",
        ARCANA_OPTIONS,
        lambda: _arcana_seed(SWEEP_PLIES["grimhand-arcana"]),
        SWEEP_PLIES["grimhand-arcana"],
    ),
}


def _socket(path: str, user) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://testserver"), (b"host", b"testserver")]
    if user is not None:
        client = Client()
        client.force_login(user)
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    return WebsocketCommunicator(application, path, headers=headers)


async def _drain(socket: WebsocketCommunicator) -> list[str]:
    received = []
    while not await socket.receive_nothing(timeout=0.3):
        received.append(await socket.receive_from(timeout=1))
    return received


def _setup(make_user, case: str = "haymaker"):
    game, options, seed, _ = CASES[case]
    users = [make_user(), make_user()]
    match = services.match_create(
        creator=users[0],
        game_slug=game,
        opponent="player",
        invitee_username=users[1].username,
        options=options,
        seed=seed(),
    )
    services.match_join(match_id=match.pk, user=users[1])
    match.refresh_from_db()
    viewers = [Viewer(f"seat{index}", user, index) for index, user in enumerate(users)]
    viewers += [Viewer("bystander", make_user(), None), Viewer("anonymous", None, None)]
    sweep = Sweep(match=match, viewers=viewers, commit_callbacks=None)
    sockets = {v.key: _socket(f"/ws/matches/{match.pk}/", v.user) for v in viewers}
    inboxes = {v.key: _socket("/ws/notifications/", v.user) for v in viewers if v.user}
    return sweep, sockets, inboxes


def _check(sweep: Sweep, viewer: Viewer, texts: list[str], *, is_inbox: bool) -> None:
    secrets = sweep.secrets()
    for text in texts:
        found = BOARD_PLY.search(text)
        if is_inbox or found is None:  # a toast, a count, or the "fetch your board" hint
            knowledge = NOTHING
        else:
            knowledge = sweep.knowledge(int(found.group(1)), viewer.seat)
        sweep.check(Body(f"{viewer.key} socket", text, knowledge), secrets)


@pytest.mark.parametrize("case", sorted(CASES))
async def test_every_socket_carries_only_its_viewers_own_view(make_user, case):
    sweep, sockets, inboxes = await database_sync_to_async(_setup)(make_user, case)
    plies = CASES[case][3]
    viewers = {viewer.key: viewer for viewer in sweep.viewers}
    for socket in (*sockets.values(), *inboxes.values()):
        is_connected, _ = await socket.connect(timeout=5)
        assert is_connected
    chance = Chance(bytes(32), f"sweep/{case}")
    received = {key: 0 for key in sockets}
    while sweep.match.status == Match.Status.ACTIVE and sweep.match.ply < plies:
        await database_sync_to_async(_move)(sweep, chance)
        for key, socket in sockets.items():
            texts = await _drain(socket)
            received[key] += sum(1 for text in texts if BOARD_PLY.search(text))
            await database_sync_to_async(_check)(sweep, viewers[key], texts, is_inbox=False)
        for key, socket in inboxes.items():
            texts = await _drain(socket)
            await database_sync_to_async(_check)(sweep, viewers[key], texts, is_inbox=True)
    assert all(count >= plies for count in received.values()), received  # a board per move
    for socket in (*sockets.values(), *inboxes.values()):
        await socket.disconnect()


def _move(sweep: Sweep, chance: Chance) -> None:
    match = sweep.match
    seat = chance.choice(list(match.seats_to_act))
    state = replay.match_position(match=match).state
    move = random_move(chance, sweep.game.legal_moves(state, seat))
    services.move_submit(match_id=match.pk, user=sweep.user_of(seat), ply=match.ply, move=move)
    match.refresh_from_db()


async def test_a_private_run_refuses_every_socket_but_its_players(make_user):
    from banira import services as banira_services
    from banira.models import DeckList

    def start():
        banira_services.deck_list_load_default()
        DeckList.objects.update(is_active=True)
        player = make_user()
        match = banira_services.weekly_run_start(user=player)
        path = f"/ws/matches/{match.pk}/"
        return _socket(path, player), [_socket(path, make_user()), _socket(path, None)]

    mine, outsiders = await database_sync_to_async(start)()
    for outsider in outsiders:
        is_connected, code = await outsider.connect(timeout=5)
        assert not is_connected and code == 4404
    is_connected, _ = await mine.connect(timeout=5)
    assert is_connected
    await mine.disconnect()
