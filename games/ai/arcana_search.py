"""Grimhand Arcana's Hard search: flat determinized Monte Carlo with Arcana rollouts.

It is `games.ai.flat_mc.FlatMonteCarloBot` (common random numbers: every legal move is
played out from the same `samples` determinizations with the same rollout stream; with
`prior="greedy"` Normal's move stands unless the best move beats it by `z` standard
errors of their paired difference) with two changes for Arcana:
- Determinizations come from the engine's `sample_hidden` through the sealed sampler, so
  they keep what the seat has seen: the top cards a Scrying Orb showed it stay on top, in
  order, and the opponent's unseen ability cards are drawn from what its deck may hold.
- A rollout (Normal's policy for both seats, uniform with probability `epsilon`) stops
  after `rollout_plies` moves; a match still running then is scored from the HP of both
  seats (`leaf`: 0.5 +- up to 0.5 along tanh of the HP difference over `LEAF_SCALE`), not
  as a draw, so a short rollout still tells a good position from a bad one.

Invariants: as every searching bot (games.ai.ismcts): the view, the legal moves and
samples only; all randomness from the `chance` handed to `choose`, so a fixed chance
gives a fixed move (the budget is counted in samples; `seconds` is only a guard).
"""

from __future__ import annotations

import math
from typing import Any

from games.ai.flat_mc import FlatMonteCarloBot
from games.ai.ismcts import reward
from games.engine.core import Game, Outcome

LEAF_SCALE = 15.0  # HP difference that scores a cut rollout at about 0.88 / 0.12


def leaf(game: Game, state: Any, seat: int) -> float:
    """A running match's worth to `seat` in [0, 1] from both seats' HP (public)."""
    players = game.view(state, None)["players"]
    difference = players[seat]["hp"] - players[1 - seat]["hp"]
    return 0.5 + 0.5 * math.tanh(difference / LEAF_SCALE)


class ArcanaSearchBot(FlatMonteCarloBot):
    """Flat Monte Carlo over Arcana determinizations, cut rollouts scored by HP."""

    name = "arcana_flat"
    stream_name = "ai/arcana"

    def score(
        self, game: Game, end: Any, outcome: Outcome | None, seat: int, is_solo: bool
    ) -> float:
        """A finished rollout's reward; a cut one scored from both seats' HP (`leaf`)."""
        if outcome is None:
            return leaf(game, end, seat)
        return reward(outcome, seat, is_solo=is_solo)
