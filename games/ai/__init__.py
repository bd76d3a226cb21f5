"""Bots that play any game through the engine contract (pure Python, never Django).

A bot decides from a seat's `view` and `legal_moves` only (see `games.ai.base.Bot`), so
the same bot plays every registered game and can never see hidden information.
`get_bot(name)` is the registry: "random" (Easy) and "greedy" (Normal, a per-game
heuristic) and "ismcts" (Hard, games.ai.hard: each game's search, ISMCTS or flat
Monte Carlo, configured in `games.ai.hard.HARD`; it also takes a sealed `sample=`).
The cheating oracle (games.ai.oracle) is deliberately not registered here.
`games.ai.play.play_match` plays a whole match between bots.
"""

from __future__ import annotations

from collections.abc import Callable

from games.ai.base import Bot, NoLegalMove, UnknownBot
from games.ai.greedy import GreedyBot
from games.ai.hard import HardBot
from games.ai.random_bot import RandomBot

__all__ = ["Bot", "NoLegalMove", "RandomBot", "UnknownBot", "bot_names", "get_bot"]

_BOTS: dict[str, Callable[[], Bot]] = {
    RandomBot.name: RandomBot,
    GreedyBot.name: GreedyBot,
    HardBot.name: HardBot,
}


def get_bot(name: str) -> Bot:
    """A fresh bot of that name; raises `UnknownBot` for a name nobody registered."""
    try:
        factory = _BOTS[name]
    except KeyError:
        raise UnknownBot(name, bot_names()) from None
    return factory()


def bot_names() -> list[str]:
    return list(_BOTS)
