"""Rollout policies shared by the searching bots (ISMCTS, flat Monte Carlo, the oracle).

A rollout plays a (determinized) state forward to the end, or for at most `plies` moves.
A policy picks each move: `random` (uniform), or `greedy` with exploration `epsilon`
(the game's one-move heuristic from `games.ai.greedy`, applied to the acting seat's view
of the searched state; uniform with probability `epsilon`, and where the game has none).

Invariants:
- Rollouts only ever see states handed to the searching bot (its own samples), never the
  match's state: the greedy policy reads `game.view(sample, seat)`.
- All randomness comes from a `random.Random` the search seeds from its own `Chance`, so
  the same chance replays the same rollouts (a `Random` is ~20x cheaper per draw than the
  HMAC stream, which matters at thousands of rollout moves a decision).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.ai.greedy import best_moves, evaluator_for
from games.engine.core import Game, Move, Outcome

Policy = Callable[[Game, Any, int, list[Move], random.Random], Move]


def random_policy(game: Game, state: Any, seat: int, legal: list[Move], rng: random.Random) -> Move:
    return legal[rng.randrange(len(legal))] if len(legal) > 1 else legal[0]


class GreedyPolicy:
    """Epsilon-greedy on the game's greedy evaluator (uniform where the game has none)."""

    __slots__ = ("epsilon",)

    def __init__(self, epsilon: float = 0.1) -> None:
        self.epsilon = epsilon

    def __call__(
        self, game: Game, state: Any, seat: int, legal: list[Move], rng: random.Random
    ) -> Move:
        if len(legal) == 1:
            return legal[0]
        evaluate = evaluator_for(game.slug)
        if evaluate is None or rng.random() < self.epsilon:
            return legal[rng.randrange(len(legal))]
        ties = best_moves(evaluate, game.view(state, seat), legal)
        return ties[rng.randrange(len(ties))] if len(ties) > 1 else ties[0]


def policy_for(name: str, epsilon: float = 0.1) -> Policy:
    """ "random" or "greedy" (epsilon-greedy); raises ValueError for anything else."""
    if name == "random":
        return random_policy
    if name == "greedy":
        return GreedyPolicy(epsilon)
    raise ValueError(f"unknown rollout policy {name!r} (known: random, greedy)")


def rollout(
    game: Game, state: Any, policy: Policy, rng: random.Random, plies: int
) -> tuple[Any, Outcome | None]:
    """Play `state` on with `policy` to the end or for `plies` moves: (state, outcome)."""
    outcome = game.outcome(state)
    for _ply in range(plies):
        if outcome is not None:
            break
        seat = game.to_act(state)[0]
        move = policy(game, state, seat, game.legal_moves(state, seat), rng)
        state, _events = game.apply(state, seat, move)
        outcome = game.outcome(state)
    return state, outcome
