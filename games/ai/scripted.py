"""A bot that plays a fixed script by ply (for tutorials), and another bot once off-script.

Like every bot it sees only its seat's view and legal moves: the script is a plan written in
advance, followed only while the scripted move is legal in the position it finds.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.ai.base import Bot
from games.engine.core import Chance, Game, Move


class ScriptedBot:
    name = "scripted"

    def __init__(self, script: Mapping[int, Move], fallback: Bot) -> None:
        self.script = script
        self.fallback = fallback

    def choose(
        self, game: Game, view: dict[str, Any], legal_moves: list[Move], chance: Chance
    ) -> Move:
        planned = self.script.get(view["ply"])
        if planned is not None and planned in legal_moves:
            return planned
        return self.fallback.choose(game, view, legal_moves, chance)
