"""The ISMCTS bot (Hard): single-observer information-set Monte Carlo tree search.

After Cowling, Powley and Whitehouse (2012), "Information Set Monte Carlo Tree Search".
Each iteration draws one determinization (a full state consistent with the bot's view),
descends one shared tree restricted to the moves legal in that determinization (UCB1 with
availability counts), expands one node, plays a rollout to the end (random moves, or the
game's greedy heuristic with some exploration: `games.ai.rollout`) and backs up every
seat's reward.

Invariants:
- Pure Python (the standard library, `games.engine` and `games.ai` only), like every bot.
- The bot never receives a state. The platform seals the true state in a `Determinizer`
  and passes it as `choose(..., sample=...)`; the bot can only ask it for samples, and
  `game.sample_hidden` guarantees a sample depends only on what the seat knows
  (tests/engine/test_determinization.py). Without a sampler it falls back to greedy.
- All randomness comes from the `chance` handed to `choose` (one 256-bit draw per
  decision keys the search's own stream, which also seeds the rollouts' `Random`), so
  with an iteration budget the same chance gives the same move. A time budget
  (`seconds`) trades that for a bounded decision time.
- Tree edges are keyed by the seat that moves and the canonical JSON of the move, so
  moves are compared by value across determinizations.
- Rewards: 1 for a win, 0 for a loss, 0.5 for a draw or a rollout cut at `rollout_plies`;
  a one-seat game scores its normalised final score, min(1, score / SCORE_SCALE).
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable
from typing import Any

from games.ai.base import NoLegalMove
from games.ai.greedy import GreedyBot
from games.ai.rollout import Policy, policy_for, rollout
from games.engine.core import Chance, Game, Move, Outcome

ROLLOUT_PLIES = 200
SCORE_SCALE = 200
EXPLORATION = 0.7  # UCB1 constant for rewards in [0, 1]


class Determinizer:
    """A sealed sampler: `sampler(chance)` is a full state consistent with `seat`'s view.

    Built by the platform from the true state; the bot only ever sees what it returns,
    which `game.sample_hidden` draws from what `seat` knows. `seat` is public.
    """

    __slots__ = ("seat", "_draw")

    def __init__(self, game: Game, state: Any, seat: int) -> None:
        self.seat = seat
        self._draw: Callable[[Chance], Any] = lambda chance: game.sample_hidden(state, seat, chance)

    def __call__(self, chance: Chance) -> Any:
        return self._draw(chance)


def unsearched(
    game: Game,
    view: dict[str, Any],
    legal_moves: list[Move],
    chance: Chance,
    sample: Determinizer | None,
    bot: str,
) -> Move | None:
    """The move a searching bot makes without a search, or None when it must search.

    No legal move raises `NoLegalMove`; without a sampler the bot plays greedy's move; a
    single legal move is played as it is.
    """
    if not legal_moves:
        raise NoLegalMove(f"{game.name}: the {bot} bot was asked to move with no legal move.")
    if sample is None:
        return GreedyBot().choose(game, view, legal_moves, chance)
    if len(legal_moves) == 1:
        return legal_moves[0]
    return None


def move_key(move: Move) -> str:
    """The canonical text of a move: equal moves give equal keys in any determinization."""
    return json.dumps(move, sort_keys=True, separators=(",", ":"))


class _Node:
    """One edge of the tree: the move `seat` made to get here and its statistics."""

    __slots__ = ("seat", "move", "children", "visits", "available", "reward")

    def __init__(self, seat: int, move: Move | None) -> None:
        self.seat = seat
        self.move = move
        self.children: dict[tuple[int, str], _Node] = {}
        self.visits = 0
        self.available = 1
        self.reward = 0.0

    def ucb(self, exploration: float = EXPLORATION) -> float:
        mean = self.reward / self.visits
        return mean + exploration * math.sqrt(math.log(self.available) / self.visits)


def reward(outcome: Outcome | None, seat: int, *, is_solo: bool) -> float:
    """`seat`'s reward in [0, 1] for how a rollout ended (`is_solo`: a one-seat game)."""
    if outcome is None:
        return 0.5
    if is_solo and outcome.scores:
        return min(1.0, max(0.0, outcome.scores[seat] / SCORE_SCALE))
    if outcome.is_draw:
        return 0.5
    return 1.0 if seat in outcome.winners else 0.0


class IsmctsBot:
    """SO-ISMCTS within `iterations` and `seconds`, whichever runs out first.

    `rollout` names the rollout policy ("random", or "greedy" with exploration `epsilon`);
    a rollout stops after `rollout_plies` moves and then counts as a draw.
    """

    name = "ismcts"
    wants_samples = True  # the platform passes `sample=Determinizer(game, state, seat)`

    def __init__(
        self,
        iterations: int | None = 2_000,
        seconds: float | None = 0.5,
        *,
        rollout: str = "random",
        epsilon: float = 0.1,
        rollout_plies: int = ROLLOUT_PLIES,
        exploration: float = EXPLORATION,
    ) -> None:
        if iterations is None and seconds is None:
            raise ValueError("ISMCTS needs an iteration or a time budget.")
        self.iterations = iterations
        self.seconds = seconds
        self.policy: Policy = policy_for(rollout, epsilon)
        self.rollout_plies = rollout_plies
        self.exploration = exploration

    def choose(
        self,
        game: Game,
        view: dict[str, Any],
        legal_moves: list[Move],
        chance: Chance,
        *,
        sample: Determinizer | None = None,
    ) -> Move:
        settled = unsearched(game, view, legal_moves, chance, sample, "ISMCTS")
        if settled is not None:
            return settled
        assert sample is not None  # without a sampler, `unsearched` plays greedy's move
        search = Chance(chance.randbelow(1 << 256).to_bytes(32, "big"), "ai/ismcts")
        rng = random.Random(search.randbelow(1 << 64))
        root = _Node(sample.seat, None)
        legal = {(sample.seat, move_key(move)): move for move in legal_moves}
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = 0
        while self.iterations is None or done < self.iterations:
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            self._iterate(game, root, sample(search), legal, search, rng)
            done += 1
        visited = [key for key in legal if key in root.children]
        if not visited:
            return chance.choice(legal_moves)
        best = max(visited, key=lambda key: root.children[key].visits)
        return legal[best]

    def _iterate(
        self,
        game: Game,
        root: _Node,
        state: Any,
        root_legal: dict[tuple[int, str], Move],
        chance: Chance,
        rng: random.Random,
    ) -> None:
        """One determinized descent, expansion, rollout and backup."""
        node, path = root, [root]
        while game.outcome(state) is None:
            if node is root:  # the bot's own decision: exactly the moves it was offered
                seat, options = root.seat, root_legal
            else:
                seat = game.to_act(state)[0]
                options = {(seat, move_key(m)): m for m in game.legal_moves(state, seat)}
            untried = [key for key in options if key not in node.children]
            if untried:
                key = chance.choice(untried)
                child = node.children[key] = _Node(seat, options[key])
                for other in options:
                    if other != key and other in node.children:
                        node.children[other].available += 1
                state, _events = game.apply(state, seat, options[key])
                path.append(child)
                break
            children = [node.children[key] for key in options]
            for child in children:
                child.available += 1
            explore = self.exploration
            node = max(children, key=lambda child: child.ucb(explore))
            state, _events = game.apply(state, seat, node.move)  # type: ignore[arg-type]
            path.append(node)
        _end, outcome = rollout(game, state, self.policy, rng, self.rollout_plies)
        is_solo = game.max_seats == 1
        for visited in path[1:]:
            visited.visits += 1
            visited.reward += reward(outcome, visited.seat, is_solo=is_solo)
