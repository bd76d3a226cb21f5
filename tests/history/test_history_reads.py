"""The replay reads (`games.history`): every ply of a finished match of each game, replayed
from the move log, equals the state the services computed live, and so does each viewer's
board (every seat, the spectators, everything revealed) and the events each one sees."""

from __future__ import annotations

import pytest

from games import history, replay, selectors
from games.boards import presenter_for
from games.models import Match
from tests.history.helpers import GAMES, SEATS, play, start


@pytest.fixture
def players(make_user):
    return [make_user() for _ in range(3)]


def _viewers(match: Match) -> list[history.Viewer]:
    seats = [history.Viewer(str(seat), seat, f"seat {seat}") for seat in range(match.size)]
    return [
        *seats,
        history.Viewer(history.SPECTATOR, None, "spectator"),
        history.Viewer(history.REVEALED, None, "revealed"),
    ]


@pytest.mark.parametrize("game", GAMES)
def test_every_ply_of_a_finished_match_replays_to_the_live_state(game, players):
    users = players[: SEATS[game]]
    played = play(start(game, users), users)
    match = played.match
    assert match.is_finished and match.ply == len(played.states) - 1 > 0

    assert history.history_states(match=match) == played.states

    engine = selectors.match_game(match=match)
    presenter = presenter_for(game)
    every_move = replay.match_events(match=match)
    for ply, live in enumerate(played.states):
        position = history.history_position(match=match, ply=ply)
        assert position.state == live
        expected_tail = every_move[:ply][-replay.LOG_TAIL :]
        assert [entry.events for entry in position.tail] == [e.events for e in expected_tail]
        assert [entry.ply for entry in position.tail] == [e.ply for e in expected_tail]
        for viewer in _viewers(match):
            board = history.history_board(match=match, viewer=viewer, ply=ply)
            if viewer.is_revealed:
                expected = engine.revealed_view(live)
            else:
                expected = engine.view(live, viewer.seat)
            assert board["view"] == presenter.decorate(expected) | {
                key: board["view"][key] for key in ("bar",) if key in board["view"]
            }
            seen = [
                (event.type, dict(event.data))
                for entry in expected_tail
                for event in entry.events
                if viewer.is_revealed or event.is_visible_to(viewer.seat)
            ]
            shown = [
                (event["type"], {k: v for k, v in event.items() if k not in ("type", "text")})
                for entry in reversed(board["log"])
                for event in entry["events"]
            ]
            assert shown == seen
            assert board["legal_moves"] == [] and not board["is_my_turn"]


@pytest.mark.parametrize("game", ["grimhand", "haymaker", "shield"])
def test_a_revealed_view_shows_every_hand_the_seats_view_hides(game, players):
    users = players[: SEATS[game]]
    played = play(start(game, users), users, plies=3, finish=False)
    engine = selectors.match_game(match=played.match)
    state = played.states[-1]
    revealed = engine.revealed_view(state)
    assert revealed["revealed"] is True and revealed["seat"] is None
    assert revealed["hidden"], "the piles nobody saw"
    spectator = engine.view(state, None)
    assert set(spectator) <= set(revealed)
    if game == "grimhand":
        assert all(player["hand"]["attack"] is not None for player in revealed["players"])
    if game == "haymaker":
        for player in revealed["players"]:
            assert len(player["revealed"]) == player["hand_count"]
