"""The random bot: a uniformly random legal move, drawn from the bot's own chance stream."""

from __future__ import annotations

from typing import Any

from games.ai.base import NoLegalMove
from games.engine.core import Chance, Game, Move


class RandomBot:
    """The baseline every other bot must beat; also what the property tests play with."""

    name = "random"

    def choose(
        self, game: Game, view: dict[str, Any], legal_moves: list[Move], chance: Chance
    ) -> Move:
        if not legal_moves:
            raise NoLegalMove(f"{game.name}: the random bot was asked to move with no legal move.")
        return chance.choice(legal_moves)
