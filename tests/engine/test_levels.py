"""The table of AI levels (games.ai.levels): what players may choose, and the bot each
level plays in each game."""

from __future__ import annotations

import hashlib

import pytest

from games.ai import levels
from games.ai.flat_mc import FlatMonteCarloBot
from games.ai.greedy import GreedyBot
from games.ai.ismcts import IsmctsBot
from games.ai.oracle import OracleBot
from games.ai.play import play_match
from games.ai.random_bot import RandomBot
from games.engine import registry


def test_players_choose_easy_normal_or_hard_and_easy_comes_first() -> None:
    offered = levels.offered()
    assert [(level.id, level.label) for level in offered] == [
        ("easy", "Easy"),
        ("normal", "Normal"),
        ("hard", "Hard"),
    ]
    assert levels.DEFAULT == "easy"  # a seat's level where none is named
    assert levels.LOBBY_DEFAULT == "normal"  # the lobby's preselected level
    assert [level.seat_label for level in offered] == ["AI · Easy", "AI · Normal", "AI · Hard"]
    # Stored on a seat (max_length=16) and unique.
    assert len(set(levels.LEVELS)) == len(levels.LEVELS)
    assert all(len(level_id) <= 16 for level_id in levels.LEVELS)


def test_the_tutor_and_the_oracle_are_levels_nobody_chooses() -> None:
    assert not levels.is_offered("tutorial") and not levels.is_offered("oracle")
    assert levels.seat_label("tutorial") == "Tutor"
    assert levels.seat_label("random") == "AI (random)"  # an id the table does not hold
    assert not levels.is_offered("random")
    with pytest.raises(levels.UnknownLevel, match="There is no AI level “ismcts”"):
        levels.get("ismcts")


@pytest.mark.parametrize("slug", registry.slugs())
def test_each_level_has_its_bot_in_each_game(slug: str) -> None:
    assert isinstance(levels.EASY.bot(slug), RandomBot)
    assert isinstance(levels.NORMAL.bot(slug), GreedyBot)
    assert isinstance(levels.TUTORIAL.bot(slug), RandomBot)  # the tutor, off-script
    hard = levels.HARD.bot(slug)
    assert isinstance(hard, FlatMonteCarloBot if slug in levels.HARD.games else IsmctsBot)
    assert hard.wants_samples and hard.seconds == levels.GUARD_SECONDS
    oracle = levels.ORACLE.bot(slug)
    assert isinstance(oracle, OracleBot) and type(oracle.search) is type(hard)


def test_the_table_says_which_search_hard_plays() -> None:
    described = {slug: levels.HARD.describe(slug) for slug in registry.slugs()}
    assert described == {
        "banira": "flat Monte Carlo, 6 samples",
        "dogblade": "information-set MCTS, 400 iterations",
        "grimhand": "flat Monte Carlo, 48 samples",
        "haymaker": "flat Monte Carlo, 30 samples",
        "shield": "flat Monte Carlo, 8 samples",
    }
    assert levels.ORACLE.describe("haymaker") == "flat Monte Carlo, 30 samples, on the true state"
    assert levels.EASY.describe("haymaker") == "random legal moves"


def test_a_level_plays_a_whole_match_with_fresh_bots_each_time() -> None:
    game = registry.get("haymaker")
    seed = hashlib.sha256(b"levels").digest()
    bots = [levels.NORMAL.bot("haymaker"), levels.EASY.bot("haymaker")]
    first = play_match(game, seed, bots)
    again = play_match(game, seed, [levels.NORMAL.bot("haymaker"), levels.EASY.bot("haymaker")])
    assert game.outcome(first[0]) is not None and first[2] == again[2]
    assert levels.NORMAL.bot("haymaker") is not bots[0]
