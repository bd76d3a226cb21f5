"""The cheating oracle: Hard's search on the true state, for benchmarks and tests only."""

from __future__ import annotations

import hashlib
import inspect

import pytest
from django.core.management import CommandError, call_command

from games import ai
from games.ai.oracle import OracleBot, Revealed
from games.ai.play import play_match
from games.ai.random_bot import RandomBot
from games.engine import registry
from games.engine.core import Chance
from games.management.commands import _ladder
from games.services import automation


def seed_for(label: str) -> bytes:
    return hashlib.sha256(f"oracle:{label}".encode()).digest()


def test_it_is_never_offered_to_players() -> None:
    assert "oracle" not in ai.bot_names()
    with pytest.raises(ai.UnknownBot):
        ai.get_bot("oracle")
    assert "oracle" not in _ladder.default_levels()
    # The site builds its bots through get_bot only, never through the ladder's levels.
    source = inspect.getsource(automation)
    assert "oracle" not in source.lower() and "level_bot" not in source and "Revealed" not in source


def test_simulate_offers_it_only_in_the_ladder() -> None:
    with pytest.raises(CommandError, match="There is no bot called"):
        call_command("simulate", "grimhand", "--bots", "oracle,random")
    assert isinstance(_ladder.level_bot("oracle"), OracleBot)


def test_it_searches_the_true_state() -> None:
    game = registry.get("grimhand")
    state = game.new(2, seed_for("truth"))
    seat = game.to_act(state)[0]
    truth = Revealed(state, seat)
    assert truth(Chance(seed_for("a"), "x")) is state and truth.seat == seat
    legal = game.legal_moves(state, seat)
    move = OracleBot().choose(
        game, game.view(state, seat), legal, Chance(seed_for("c"), "bot"), truth=truth
    )
    assert move in legal


@pytest.mark.parametrize("slug", ["grimhand", "haymaker"])
def test_it_plays_a_match_to_the_end_reproducibly(slug: str) -> None:
    game = registry.get(slug)
    runs = [
        play_match(game, seed_for(slug), [OracleBot(), RandomBot()], max_plies=400)
        for _ in range(2)
    ]
    assert game.outcome(runs[0][0]) is not None
    assert runs[0][2] == runs[1][2]


def test_the_ladder_can_measure_it() -> None:
    from io import StringIO

    out = StringIO()
    call_command(
        "simulate",
        "grimhand",
        "--ladder",
        "--levels",
        "greedy,oracle",
        "--matches",
        "4",
        "--json",
        stdout=out,
    )
    assert '"oracle"' in out.getvalue()
