"""Grimhand Arcana's Hard search: flat determinized Monte Carlo with Arcana rollouts.

It is `games.ai.flat_mc.FlatMonteCarloBot` (common random numbers: every legal move is
played out from the same determinizations with the same rollout stream; with
`prior="greedy"` Normal's move stands unless the best move beats it by `z` standard
errors of their paired difference) with three changes for Arcana:
- Determinizations come from the engine's `sample_hidden` through the sealed sampler, so
  they keep what the seat has seen: the top cards a Scrying Orb showed it stay on top, in
  order, and the opponent's unseen ability cards are drawn from what its deck may hold.
- A rollout (Normal's policy for both seats, uniform with probability `epsilon`) stops
  after `rollout_plies` moves; a match still running then is scored from the HP of both
  seats (`leaf`: 0.5 +- up to 0.5 along tanh of the HP difference over `LEAF_SCALE`), not
  as a draw, so a short rollout still tells a good position from a bad one.
- The budget is spent where the choice is close (`most_samples` > `samples`): after the
  first `samples` determinizations, and every `step` more, a move the best one beats by
  `z_drop` standard errors (paired) is dropped, and so is one that played out exactly as
  another; the search ends when one move is left or after `most_samples`. A clear choice
  costs `samples` determinizations, a close one up to `most_samples` for the moves
  still in it.

Invariants: as every searching bot (games.ai.ismcts): the view, the legal moves and
samples only; all randomness from the `chance` handed to `choose`, so a fixed chance
gives a fixed move (the budget is counted in samples; `seconds` is only a guard).
"""

from __future__ import annotations

import math
import statistics
import time
from typing import Any

from games.ai.flat_mc import FlatMonteCarloBot, paired, z_of
from games.ai.greedy import GreedyBot
from games.ai.ismcts import Determinizer, reward, unsearched
from games.engine.core import Chance, Game, Move, Outcome

LEAF_SCALE = 15.0  # HP difference that scores a cut rollout at about 0.88 / 0.12


def leaf(game: Game, state: Any, seat: int) -> float:
    """A running match's worth to `seat` in [0, 1] from both seats' HP (public)."""
    players = game.view(state, None)["players"]
    difference = players[seat]["hp"] - players[1 - seat]["hp"]
    return 0.5 + 0.5 * math.tanh(difference / LEAF_SCALE)


class ArcanaSearchBot(FlatMonteCarloBot):
    """Flat Monte Carlo over Arcana determinizations, cut rollouts scored by HP, the
    budget spent on the moves still in contention."""

    name = "arcana_flat"
    stream_name = "ai/arcana"

    def __init__(
        self,
        samples: int = 16,
        *,
        most_samples: int | None = None,
        step: int = 8,
        z_drop: float = 2.0,
        **settings: Any,
    ) -> None:
        super().__init__(samples, **settings)
        self.most_samples = max(samples, most_samples or samples)
        self.step = max(1, step)
        self.z_drop = z_drop

    def choose(
        self,
        game: Game,
        view: dict[str, Any],
        legal_moves: list[Move],
        chance: Chance,
        *,
        sample: Determinizer | None = None,
    ) -> Move:
        settled = unsearched(game, view, legal_moves, chance, sample, "Arcana search")
        if settled is not None:
            return settled
        assert sample is not None  # without a sampler, `unsearched` plays greedy's move
        base = legal_moves.index(GreedyBot().choose(game, view, legal_moves, chance))
        rows, alive = self.search(game, legal_moves, chance, sample, base)
        top = max(alive, key=lambda index: statistics.fmean(rows[index]))
        if self.prior != "greedy":
            return legal_moves[top]
        if base not in alive:  # dropped: the best beat it by z_drop >= z
            return legal_moves[top]
        return legal_moves[top] if self._beats(paired(rows[top], rows[base])) else legal_moves[base]

    def search(
        self, game: Game, legal_moves: list[Move], chance: Chance, sample: Determinizer, base: int
    ) -> tuple[list[list[float]], list[int]]:
        """Each move's rewards over the shared determinizations, and the moves still in."""
        search = self.search_chance(chance)
        rows: list[list[float]] = [[] for _move in legal_moves]
        alive = list(range(len(legal_moves)))
        deadline = self.deadline()
        for done in range(self.most_samples):
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            if done >= self.samples and (done - self.samples) % self.step == 0:
                alive = self.contenders(rows, alive, base)
                if len(alive) == 1:
                    break
            self.play_sample(game, legal_moves, alive, rows, search, sample)
        return rows, alive

    def contenders(self, rows: list[list[float]], alive: list[int], base: int) -> list[int]:
        """The moves still worth sampling: not beaten by the best by `z_drop` standard
        errors, and not a repeat of a move kept before it (Normal's move first)."""
        best = max(alive, key=lambda index: (statistics.fmean(rows[index]), index == base))
        kept = [best]
        for index in sorted(alive, key=lambda index: index != base):
            if index == best or any(rows[index] == rows[other] for other in kept):
                continue
            if z_of(paired(rows[best], rows[index])) < self.z_drop:
                kept.append(index)
        return kept

    def score(
        self, game: Game, end: Any, outcome: Outcome | None, seat: int, is_solo: bool
    ) -> float:
        """A finished rollout's reward; a cut one scored from both seats' HP (`leaf`)."""
        if outcome is None:
            return leaf(game, end, seat)
        return reward(outcome, seat, is_solo=is_solo)
