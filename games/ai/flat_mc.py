"""Flat determinized Monte Carlo with common random numbers (a Hard search).

For each of `samples` determinizations (full states consistent with the bot's view, from
the sealed `Determinizer`), every legal move is applied and played out with the same
rollout stream: each move meets exactly the same hidden cards, future draws and rollout
randomness, so the difference between two moves' means has far less variance than with
independent samples (common random numbers). The move with the best mean reward wins;
with `prior="greedy"` the greedy bot's move is kept unless the best move beats it by
more than `z` standard errors of their paired (per-determinization) difference, so a
search too short to resolve small differences falls back on the tuned heuristic instead
of on noise.

Invariants:
- Same contract as `games.ai.ismcts.IsmctsBot`: it sees the view, the legal moves and
  samples only, and all randomness comes from the `chance` handed to `choose`, so a
  fixed chance gives a fixed move (no time budget: `samples` is the whole budget, except
  for an optional `seconds` cap that ends the search after a whole determinization).
- Rewards as in ISMCTS (`games.ai.ismcts.reward`): 1 win, 0 loss, 0.5 draw or cut
  rollout; a one-seat game scores its normalised final score.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Iterable, Mapping
from typing import Any

from games.ai.base import Bot
from games.ai.greedy import GreedyBot
from games.ai.ismcts import ROLLOUT_PLIES, Determinizer, reward, unsearched
from games.ai.rollout import Policy, policy_for, rollout
from games.engine.core import Chance, Game, Move, Outcome


class FlatMonteCarloBot:
    """The best mean over `samples` shared determinizations and rollout streams."""

    name = "flat"
    wants_samples = True
    stream_name = "ai/flat"  # names the search's own chance stream

    def __init__(
        self,
        samples: int = 100,
        *,
        rollout: str = "greedy",
        epsilon: float = 0.1,
        rollout_plies: int = ROLLOUT_PLIES,
        seconds: float | None = None,
        prior: str | None = None,
        z: float = 2.0,
        variants: Mapping[str, Bot] | None = None,
    ) -> None:
        if samples < 1:
            raise ValueError("flat Monte Carlo needs at least one sample.")
        if prior not in (None, "greedy"):
            raise ValueError(f"unknown prior {prior!r} (known: greedy)")
        self.prior = prior
        self.z = z
        self.samples = samples
        self.policy: Policy = policy_for(rollout, epsilon)
        self.rollout_plies = rollout_plies
        self.seconds = seconds
        # Another search for a game variant (Grimhand Arcana): a view whose "variant" it
        # names is handed to that bot, with the sampler; every other view is searched here.
        self.variants: Mapping[str, Bot] = variants or {}

    def choose(
        self,
        game: Game,
        view: dict[str, Any],
        legal_moves: list[Move],
        chance: Chance,
        *,
        sample: Determinizer | None = None,
    ) -> Move:
        if self.variants and view.get("variant") in self.variants:
            other = self.variants[view["variant"]]
            return other.choose(game, view, legal_moves, chance, sample=sample)  # type: ignore[call-arg]
        settled = unsearched(game, view, legal_moves, chance, sample, "flat Monte Carlo")
        if settled is not None:
            return settled
        assert sample is not None  # without a sampler, `unsearched` plays greedy's move
        rewards = self.rewards(game, legal_moves, chance, sample)
        means = [statistics.fmean(row) for row in rewards]
        best = max(means)
        if self.prior == "greedy":
            base = legal_moves.index(GreedyBot().choose(game, view, legal_moves, chance))
            top = means.index(best)
            differences = paired(rewards[top], rewards[base])
            return legal_moves[top] if self._beats(differences) else legal_moves[base]
        return chance.choice(
            [m for m, mean in zip(legal_moves, means, strict=True) if mean == best]
        )

    def _beats(self, differences: list[float]) -> bool:
        """Whether the paired differences' mean is more than `z` standard errors above 0."""
        return len(differences) >= 2 and z_of(differences) > max(self.z, 0.0)

    def evaluate(
        self, game: Game, legal_moves: list[Move], chance: Chance, sample: Determinizer
    ) -> list[float]:
        """Each move's mean reward for `sample.seat` over the shared determinizations."""
        return [statistics.fmean(row) for row in self.rewards(game, legal_moves, chance, sample)]

    def rewards(
        self, game: Game, legal_moves: list[Move], chance: Chance, sample: Determinizer
    ) -> list[list[float]]:
        """Each move's reward in each shared determinization (one row per move)."""
        search = self.search_chance(chance)
        rows: list[list[float]] = [[] for _move in legal_moves]
        every = range(len(legal_moves))
        deadline = self.deadline()
        for done in range(self.samples):
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            self.play_sample(game, legal_moves, every, rows, search, sample)
        return rows

    def search_chance(self, chance: Chance) -> Chance:
        """The search's own stream, drawn from the chance handed to `choose`."""
        return Chance(chance.randbelow(1 << 256).to_bytes(32, "big"), self.stream_name)

    def deadline(self) -> float | None:
        """When the `seconds` guard ends the search (perf_counter), or None."""
        return None if self.seconds is None else time.perf_counter() + self.seconds

    def play_sample(
        self,
        game: Game,
        legal_moves: list[Move],
        indexes: Iterable[int],
        rows: list[list[float]],
        search: Chance,
        sample: Determinizer,
    ) -> None:
        """One more shared determinization: each move of `indexes` is applied to it and
        played out with the same rollout stream, its reward appended to its row."""
        seat, is_solo = sample.seat, game.max_seats == 1
        state = sample(search)
        stream = search.randbelow(1 << 64)  # the one rollout stream every move shares
        for index in indexes:
            after, _events = game.apply(state, seat, legal_moves[index])
            end, outcome = rollout(
                game, after, self.policy, random.Random(stream), self.rollout_plies
            )
            rows[index].append(self.score(game, end, outcome, seat, is_solo))

    def score(
        self, game: Game, end: Any, outcome: Outcome | None, seat: int, is_solo: bool
    ) -> float:
        """A rollout's worth to `seat`: its outcome's reward (a cut rollout, a draw)."""
        return reward(outcome, seat, is_solo=is_solo)


def paired(better: list[float], worse: list[float]) -> list[float]:
    """Two moves' rewards, determinization by determinization: their differences."""
    return [a - b for a, b in zip(better, worse, strict=True)]


def z_of(differences: list[float]) -> float:
    """How many standard errors the mean of `differences` (at least two) is above 0;
    +-inf when they are all the same and not 0, 0 when they are all 0."""
    mean = statistics.fmean(differences)
    error = statistics.stdev(differences) / math.sqrt(len(differences))
    if error == 0:
        return 0.0 if mean == 0 else math.copysign(math.inf, mean)
    return mean / error
