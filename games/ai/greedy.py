"""The greedy bot: scores each legal move with its game's heuristic and plays the best one.

Invariants:
- Pure Python (the standard library and `games.engine`/`games.ai` only), like every bot.
- It decides from its seat's `view` and `legal_moves` only: a heuristic receives exactly
  those two things and one candidate move, and returns a number (higher is better).
- Heuristics are registered per game slug in `_EVALUATORS`; a game without one is played
  at random, so "greedy" can sit at any table. Add a game by writing
  `evaluate(view, move) -> float` in `games/ai/<slug>_greedy.py` and one line below.
- Ties between equally scored moves are broken with the bot's own chance stream, so its
  play is reproducible from the match seed.
- A game variant with its own heuristic is told by the view's "variant" (Grimhand Arcana:
  `games.ai.arcana_greedy`, one evaluator per policy: normal and the archetypes); a view
  without one is scored exactly as before, so Classic play is unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.ai import arcana_greedy, banira_greedy, grimhand_greedy, haymaker_greedy, shield_greedy
from games.ai.base import NoLegalMove
from games.engine.core import Chance, Game, Move

Evaluate = Callable[[dict[str, Any], Move], float]


def _grimhand(view: dict[str, Any], move: Move) -> float:
    """Classic's heuristic, or Arcana's (normal policy) for an Arcana view."""
    if view.get("variant") == "arcana":
        return arcana_greedy.evaluate(view, move)
    return grimhand_greedy.evaluate(view, move)


_EVALUATORS: dict[str, Evaluate] = {
    "banira": banira_greedy.evaluate,
    "grimhand": _grimhand,
    "haymaker": haymaker_greedy.evaluate,
    "shield": shield_greedy.evaluate,
}


def evaluator_for(slug: str) -> Evaluate | None:
    return _EVALUATORS.get(slug)


class GreedyBot:
    """One-move lookahead through a per-game heuristic; random where there is none.

    `policy` names an Arcana policy of `games.ai.arcana_greedy.POLICIES` ("normal",
    "aggressive", ...): it plays Arcana views; any other view gets the game's heuristic.
    """

    name = "greedy"

    def __init__(self, policy: str = arcana_greedy.NORMAL) -> None:
        self.arcana: Evaluate = arcana_greedy.evaluator(policy)
        self.policy = policy

    def choose(
        self, game: Game, view: dict[str, Any], legal_moves: list[Move], chance: Chance
    ) -> Move:
        if not legal_moves:
            raise NoLegalMove(f"{game.name}: the greedy bot was asked to move with no legal move.")
        if view.get("variant") == "arcana":
            return chance.choice(best_moves(self.arcana, view, legal_moves))
        evaluate = evaluator_for(game.slug)
        if evaluate is None:
            return chance.choice(legal_moves)
        return chance.choice(best_moves(evaluate, view, legal_moves))


def best_moves(evaluate: Evaluate, view: dict[str, Any], legal_moves: list[Move]) -> list[Move]:
    """The legal moves the heuristic scores highest (several on a tie), in their order."""
    scores = [evaluate(view, move) for move in legal_moves]
    best = max(scores)
    return [move for move, score in zip(legal_moves, scores, strict=True) if score == best]
