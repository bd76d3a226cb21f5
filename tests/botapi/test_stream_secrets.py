"""A match stream carries exactly the seat's own view: no other seat's hand, no deck order,
no seed, in any of the five games.

Each game is played through the services with random legal moves; at every ply, the line
each seat's stream would send (and a spectator's) is checked as the page sweep checks a
board (tests/security/sweep.py):
- its `view` is the engine's own `view` for that seat, nothing added;
- the seed appears in no spelling while it is secret;
- non-interference: the line is the same when drawn from a position the engine redealt in
  everything that seat cannot see (`sample_hidden`: other hands, the draw order, the seed).
A planted leak (the line built from the other seat's view) must be caught.
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import replace
from unittest import mock

import pytest
from django.utils import timezone

from botapi import selectors as bot_selectors
from botapi import streams
from games import replay, services
from games.engine import registry
from games.engine.core import Chance
from games.models import Match
from games.services import tables
from tests.security.sweep import secret_spellings

pytestmark = pytest.mark.django_db

PLIES = {"dogblade": 12, "grimhand": 16, "haymaker": 16, "shield": 20, "banira": 16}


class StreamLeak(AssertionError):
    pass


def _chooser(game: str) -> random.Random:
    return random.Random(f"stream-secrets/{game}")


def _lasting_seed(game: str, seats: int) -> bytes:
    """The first test seed whose match lasts PLIES[game] moves under `_play`'s choices (a
    Grimhand match can meet the Death card on the first draw): the test is the same every
    run, and never too short to show anything."""
    engine = registry.get(game)
    for attempt in range(200):
        seed = hashlib.sha256(f"tests/botapi/stream-secrets/{game}/{attempt}".encode()).digest()
        state, chooser = engine.new(seats, seed, {}), _chooser(game)
        for _ in range(PLIES[game]):
            if engine.outcome(state) is not None:
                break
            seat = engine.to_act(state)[0]
            state, _ = engine.apply(state, seat, chooser.choice(engine.legal_moves(state, seat)))
        else:
            return seed
    raise AssertionError(f"no test seed gives a {game} match of {PLIES[game]} moves")


def _table(game: str, users: list) -> Match:
    creator, *others = users
    match = services.match_create(
        creator=creator,
        seed=_lasting_seed(game, len(users)),
        game_slug=game,
        others=[tables.SeatSpec(kind="player", username=user.username) for user in others],
        all_seated=True,
        time_control="none" if not others else "",
    )
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    return match


def _line(match: Match, user) -> str:
    return streams._line(bot_selectors.seat_snapshot(match=match, user=user)).decode()


def _check(match: Match, seats: dict, spectator) -> None:
    """Every seat's line and the spectator's, at this ply."""
    game = registry.get(match.game)
    position = replay.match_position(match=match)
    now = timezone.now()
    viewers = [(index, user) for index, user in seats.items()] + [(None, spectator)]
    for index, user in viewers:
        line = _line(match, user)
        for spelling in secret_spellings(bytes(match.seed)):
            if spelling in line:
                raise StreamLeak(f"the seed reached seat {index} at ply {match.ply}")
        sent = json.loads(line)["view"]
        # The class's own view: a monkeypatched instance cannot fool the oracle.
        own = json.loads(json.dumps(type(game).view(game, position.state, index), default=str))
        if sent != own:
            raise StreamLeak(f"seat {index}'s line is not its own view at ply {match.ply}")
        chance = Chance(bytes(32), f"stream/sample/{match.ply}/{index}")
        state = position.state
        for unseen_by in [index] if index is not None else range(match.size):
            state = game.sample_hidden(state, unseen_by, chance)
        lines = []
        for drawn in (position, replace(position, state=state)):
            with (
                mock.patch.object(bot_selectors, "match_position", lambda _p=drawn, **_: _p),
                mock.patch.object(timezone, "now", lambda: now),
            ):
                lines.append(_line(match, user))
        if lines[0] != lines[1]:
            raise StreamLeak(
                f"seat {index}'s line at ply {match.ply} changes with cards it cannot see"
            )


def _play(match: Match, users: list, spectator, plies: int) -> int:
    game = registry.get(match.game)
    chooser = _chooser(match.game)
    seats = {seat.index: seat.user for seat in match.seats.all()}
    checked = 0
    for _ in range(plies):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            break
        _check(match, seats, spectator)
        checked += 1
        seat = match.seats_to_act[0]
        state = replay.match_position(match=match).state
        move = chooser.choice(game.legal_moves(state, seat))
        services.move_submit(match_id=match.pk, user=seats[seat], ply=match.ply, move=move)
    return checked


@pytest.mark.parametrize(
    ("game", "players"),
    [("dogblade", 2), ("grimhand", 2), ("haymaker", 2), ("shield", 3), ("banira", 1)],
)
def test_no_stream_line_carries_another_seats_secrets(make_user, game, players):
    users = [make_user() for _ in range(players)]
    match = _table(game, users)
    checked = _play(match, users, make_user(), PLIES[game])
    assert checked == PLIES[game]


def test_a_planted_leak_is_caught(make_user, monkeypatch):
    """The check can fail: a line built from the other seat's view is caught."""
    users = [make_user(), make_user()]
    match = _table("haymaker", users)
    _play(match, users, make_user(), 4)  # hands dealt and played into
    match.refresh_from_db()
    game = registry.get("haymaker")
    real_view = type(game).view

    def leaky(state, seat):
        return real_view(game, state, 1 - seat if seat is not None else 0)

    monkeypatch.setattr(game, "view", leaky)
    with pytest.raises(StreamLeak):
        _check(match, {0: users[0], 1: users[1]}, make_user())
