"""The cheating oracle: Hard's search on the true state, for benchmarks and tests only."""

from __future__ import annotations

import hashlib
import inspect

import pytest
from django.core.management import CommandError, call_command

from games.ai import levels
from games.ai.flat_mc import FlatMonteCarloBot
from games.ai.oracle import OracleBot, Revealed
from games.ai.play import play_match
from games.ai.random_bot import RandomBot
from games.engine import registry
from games.engine.core import Chance
from games.errors import CannotCreate
from games.services import automation, tables


def seed_for(label: str) -> bytes:
    return hashlib.sha256(f"oracle:{label}".encode()).digest()


def test_it_is_never_offered_to_players() -> None:
    assert not levels.ORACLE.is_offered and not levels.is_offered("oracle")
    assert "oracle" not in [level.id for level in levels.offered()]
    # The site never hands a bot the state: only play_match does, for `sees_state`.
    source = inspect.getsource(automation)
    assert "oracle" not in source.lower() and "Revealed" not in source
    assert "truth" not in source and "sees_state" not in source


@pytest.mark.django_db
def test_no_seat_may_hold_it(alice) -> None:
    with pytest.raises(CannotCreate, match="AI levels on offer"):
        tables.match_create(creator=alice, game_slug="grimhand", opponent="ai", ai_level="oracle")


def test_simulate_offers_it_only_in_the_ladder() -> None:
    with pytest.raises(CommandError, match="There is no AI level “oracle”"):
        call_command("simulate", "grimhand", "--bots", "oracle,easy")
    oracle = levels.get("oracle").bot("grimhand")
    assert isinstance(oracle, OracleBot) and isinstance(oracle.search, FlatMonteCarloBot)
    assert oracle.search.samples == levels.HARD.search("grimhand").settings["samples"]
    assert oracle.search.seconds is None  # no guard: a benchmark measures the full search


def test_it_needs_a_searching_bot() -> None:
    with pytest.raises(ValueError, match="needs a searching bot"):
        OracleBot(RandomBot())


def test_it_searches_the_true_state() -> None:
    game = registry.get("grimhand")
    state = game.new(2, seed_for("truth"))
    seat = game.to_act(state)[0]
    truth = Revealed(state, seat)
    assert truth(Chance(seed_for("a"), "x")) is state and truth.seat == seat
    legal = game.legal_moves(state, seat)
    move = levels.ORACLE.bot("grimhand").choose(
        game, game.view(state, seat), legal, Chance(seed_for("c"), "bot"), truth=truth
    )
    assert move in legal


@pytest.mark.parametrize("slug", ["grimhand", "haymaker"])
def test_it_plays_a_match_to_the_end_reproducibly(slug: str) -> None:
    game = registry.get(slug)
    runs = [
        play_match(game, seed_for(slug), [levels.ORACLE.bot(slug), RandomBot()], max_plies=400)
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
        "normal,oracle",
        "--matches",
        "4",
        "--json",
        stdout=out,
    )
    assert '"oracle"' in out.getvalue()
