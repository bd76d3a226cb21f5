"""The exact model behind benchmarks/grimhand_ceiling.py agrees with the engine and Normal.

The benchmark bounds what any fair strategy wins at Grimhand by solving a model of the
game (docs/benchmarks.md, "AI ladder"). These tests check the model against the real
thing: on small decks, its Normal-v-Normal value equals the share of every deck order
that the engine, played by two greedy bots, gives seat 0.
"""

from __future__ import annotations

import importlib.util
import itertools
import sys
from pathlib import Path
from types import ModuleType

import pytest

from games.ai.greedy import GreedyBot
from games.ai.play import play_match
from games.engine import registry

SEED = b"grimhand-ceiling-model-test-seed"


@pytest.fixture(scope="module")
def ceiling() -> ModuleType:
    path = Path(__file__).resolve().parents[3] / "benchmarks" / "grimhand_ceiling.py"
    sys.path.insert(0, str(path.parent))  # the benchmark imports its folder's `common`
    try:
        spec = importlib.util.spec_from_file_location("grimhand_ceiling", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(path.parent))
    return module


def _engine_share(attack: list[int], defense: list[int], first: int) -> float:
    """Seat 0's share of wins over every order of both decks, two greedy bots, HP out of play."""
    game = registry.get("grimhand")
    wins = games = 0
    for attack_order in set(itertools.permutations(attack)):
        for defense_order in set(itertools.permutations(defense)):
            deal = {
                "attack": list(attack_order),
                "defense": list(defense_order),
                "hp": [10_000, 10_000],
                "first": first,
            }
            state, _plies, _moves = play_match(
                game, SEED, [GreedyBot(), GreedyBot()], {"deal": deal}
            )
            wins += game.outcome(state).winners == (0,)
            games += 1
    return wins / games


@pytest.mark.parametrize("first", [0, 1])
@pytest.mark.parametrize(
    ("attack", "defense"),
    [
        ([1, 2, 3, 4, 13], [5, 13]),
        ([1, 13, 13, 2], [3, 4, 5, 6, 13]),
        ([1, 2, 13, 13], [3, 4, 5, 13]),
        ([2, 13, 3, 1, 13], [13, 4, 5]),
    ],
)
def test_normal_against_normal_matches_the_engine(ceiling, attack, defense, first) -> None:
    # Decks without 7s: the first Death card ends the match before any deck runs out.
    start = (len(attack), attack.count(13), 0, len(defense), defense.count(13), 0)
    start += (False,) * 4
    model = ceiling.solve(ceiling.normal, ceiling.normal, start, movers=(first,))
    assert model == pytest.approx(_engine_share(attack, defense, first))


def test_the_best_response_is_never_worse_than_normal(ceiling) -> None:
    start = (6, 1, 1, 5, 1, 1) + (False,) * 4
    for opponent in (ceiling.normal, ceiling.easy):
        assert ceiling.solve(None, opponent, start) >= ceiling.solve(
            ceiling.normal, opponent, start
        )


def test_a_draw_follows_the_lucky_seven_rules(ceiling) -> None:
    empty = (2, 0, 1, 3, 1, 0) + (False,) * 4
    (seven, _plain) = ceiling.results(empty, 0, ceiling.ATTACK)
    assert seven == (0.5, (1, 0, 0, 3, 1, 0, True, False, False, False))  # into the slot
    full = (2, 0, 1, 3, 1, 0, True, False, False, False)
    (seven, _plain) = ceiling.results(full, 0, ceiling.ATTACK)
    assert seven == (0.5, (1, 0, 0, 3, 1, 0, True, False, True, False))  # a plain attack card
    (death, plain) = ceiling.results(full, 0, ceiling.DEFENSE)
    assert death == (1 / 3, (2, 0, 1, 2, 0, 0, False, False, False, False))  # the 7 saves
    assert ceiling.results(empty, 0, ceiling.DEFENSE)[0] == (1 / 3, None)  # the drawer loses
    assert sum(p for p, _ in ceiling.results(empty, 1, ceiling.DEFENSE)) == pytest.approx(1.0)
