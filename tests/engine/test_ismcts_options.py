"""The searches' options: heuristic rollouts, flat Monte Carlo with common random numbers,
and the per-game Hard configuration. Each stays legal, reproducible and blind to hidden
information (the same checks as tests/engine/test_ismcts.py for the plain ISMCTS)."""

from __future__ import annotations

import dataclasses
import hashlib
import random
from typing import Any

import pytest

from games.ai import levels
from games.ai.flat_mc import FlatMonteCarloBot
from games.ai.greedy import GreedyBot, evaluator_for
from games.ai.ismcts import Determinizer, IsmctsBot, move_key
from games.ai.rollout import GreedyPolicy, policy_for, random_policy, rollout
from games.engine import registry
from games.engine.core import Chance, Game, Move
from tests import searching
from tests.searching import choice_positions

SEATS = {"banira": 1, "dogblade": 2, "grimhand": 2, "haymaker": 2, "shield": 4}


def seed_for(label: str) -> bytes:
    return hashlib.sha256(f"ismcts-options:{label}".encode()).digest()


def positions(game: Game, seats: int, index: int) -> list[Any]:
    """Positions of one random match where somebody has more than one legal move."""
    return choice_positions(game, seats, seed_for(f"{game.slug}/{index}"))


def decide(bot: Any, game: Game, state: Any, seat: int, label: str) -> Move:
    return searching.decide(bot, game, state, seat, seed_for(label))


def bots() -> list[Any]:
    return [
        IsmctsBot(iterations=20, seconds=None, rollout="greedy", epsilon=0.2, rollout_plies=30),
        FlatMonteCarloBot(4, rollout="greedy"),
        FlatMonteCarloBot(3, rollout="random", rollout_plies=20),
    ]


def test_policies() -> None:
    assert policy_for("random") is random_policy
    assert isinstance(policy_for("greedy", 0.3), GreedyPolicy)
    assert policy_for("greedy", 0.3).epsilon == 0.3  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="unknown rollout policy"):
        policy_for("psychic")


@pytest.mark.parametrize("slug", sorted(SEATS))
def test_rollouts_stop_at_the_cap_and_replay_from_their_seed(slug: str) -> None:
    game = registry.get(slug)
    state = game.new(SEATS[slug], seed_for(f"{slug}/rollout"))
    policy = GreedyPolicy(0.1)
    ends = [rollout(game, state, policy, random.Random(5), 10_000) for _ in range(2)]
    assert ends[0][1] is not None and ends[0][1] == ends[1][1]
    _cut, outcome = rollout(game, state, policy, random.Random(5), 1)
    assert outcome is None or game.outcome(state) is None


@pytest.mark.parametrize("slug", sorted(SEATS))
def test_every_search_returns_an_offered_move_reproducibly(slug: str) -> None:
    game = registry.get(slug)
    states = positions(game, SEATS[slug], 1)
    for position, state in enumerate(states[:: max(1, len(states) // 3)]):
        seat = game.to_act(state)[0]
        for bot in bots():
            first = decide(bot, game, state, seat, f"{slug}/{position}")
            assert first in game.legal_moves(state, seat)
            again = decide(bot, game, state, seat, f"{slug}/{position}")
            assert move_key(first) == move_key(again)


@pytest.mark.parametrize("slug", sorted(SEATS))
def test_states_that_look_the_same_get_the_same_move(slug: str) -> None:
    game = registry.get(slug)
    states = positions(game, SEATS[slug], 2)
    for position, state in enumerate(states[:: max(1, len(states) // 3)]):
        seat = game.to_act(state)[0]
        twin = game.sample_hidden(state, seat, Chance(seed_for(f"twin/{position}"), "twin"))
        assert game.view(twin, seat) == game.view(state, seat)
        for bot in bots():
            label = f"{slug}/{position}"
            assert move_key(decide(bot, game, twin, seat, label)) == move_key(
                decide(bot, game, state, seat, label)
            )


def test_flat_monte_carlo_shares_its_determinizations_between_moves() -> None:
    # Common random numbers: one sample per determinization, whatever the move count.
    game = registry.get("haymaker")
    state = next(
        s for s in positions(game, 2, 3) if len(game.legal_moves(s, game.to_act(s)[0])) > 2
    )
    seat = game.to_act(state)[0]
    sealed = Determinizer(game, state, seat)
    asked: list[Chance] = []

    class Spy:
        __slots__ = ()
        seat = sealed.seat

        def __call__(self, chance: Chance) -> Any:
            asked.append(chance)
            return sealed(chance)

    legal = game.legal_moves(state, seat)
    means = FlatMonteCarloBot(7).evaluate(game, legal, Chance(seed_for("crn"), "bot"), Spy())  # type: ignore[arg-type]
    assert len(asked) == 7 and len(means) == len(legal)
    assert all(0.0 <= mean <= 1.0 for mean in means)


def test_flat_monte_carlo_without_a_sampler_plays_greedy_and_legal() -> None:
    game = registry.get("grimhand")
    state = positions(game, 2, 4)[0]
    seat = game.to_act(state)[0]
    legal = game.legal_moves(state, seat)
    chance = Chance(seed_for("blind"), "bot")
    assert FlatMonteCarloBot().choose(game, game.view(state, seat), legal, chance) in legal


def test_hard_is_configured_for_every_registered_game() -> None:
    for slug in registry.slugs():
        search = levels.HARD.search(slug)
        bot = levels.HARD.bot(slug)
        assert search.bot in {"ismcts", "flat"}
        assert bot.seconds == levels.GUARD_SECONDS  # type: ignore[attr-defined]
        budget = "samples" if search.bot == "flat" else "iterations"
        assert getattr(bot, budget) == search.settings[budget]
        assert search.summary.endswith(f"{search.settings[budget]} {budget}")
    assert set(levels.HARD.games) <= set(registry.slugs())
    with pytest.raises(ValueError, match="unknown bot"):
        levels.Search("psychic")


@pytest.mark.parametrize("slug", sorted(SEATS))
def test_hard_decides_like_its_configured_search(slug: str) -> None:
    game = registry.get(slug)
    states = positions(game, SEATS[slug], 5)
    if not states:
        pytest.skip(f"{slug}: no choice in this match")
    state = states[len(states) // 2]
    seat = game.to_act(state)[0]
    search = levels.HARD.search(slug)
    by_hand = {"flat": FlatMonteCarloBot, "ismcts": IsmctsBot}[search.bot]
    unguarded = by_hand(seconds=None, **search.settings)  # type: ignore[operator]
    hard = dataclasses.replace(levels.HARD, guard_seconds=None).bot(slug)
    assert move_key(decide(hard, game, state, seat, "hard")) == move_key(
        decide(unguarded, game, state, seat, "hard")
    )


def test_a_greedy_prior_keeps_greedys_move_unless_the_search_is_sure() -> None:
    game = registry.get("grimhand")
    for position, state in enumerate(positions(game, 2, 6)[:6]):
        seat = game.to_act(state)[0]
        legal = game.legal_moves(state, seat)
        view = game.view(state, seat)
        label = f"prior/{position}"
        never = FlatMonteCarloBot(6, prior="greedy", z=1e9)  # no margin is ever enough
        greedy_move = GreedyBot().choose(game, view, legal, Chance(seed_for(label), "bot"))
        kept = decide(never, game, state, seat, label)
        assert kept in legal
        # With an impossible margin the greedy move stands (ties aside: same evaluation).
        evaluate = evaluator_for("grimhand")
        assert evaluate is not None and evaluate(view, kept) == evaluate(view, greedy_move)
    assert FlatMonteCarloBot(2, prior="greedy")._beats([0.5, 0.5, 0.6])
    assert not FlatMonteCarloBot(2, prior="greedy")._beats([1.0, -1.0, 0.1])
    assert not FlatMonteCarloBot(2, prior="greedy")._beats([1.0])
    with pytest.raises(ValueError, match="unknown prior"):
        FlatMonteCarloBot(2, prior="oracle")
