"""Bots that play any game through the engine contract (pure Python, never Django).

A bot decides from a seat's `view` and `legal_moves` only (see `games.ai.base.Bot`), so
the same bot plays every registered game and can never see hidden information.
The AI levels players choose (Easy, Normal, Hard) and the bot or search each plays in
each game are one table: `games.ai.levels`. `get_bot(name)` builds the two bots that
need no settings, "random" and "greedy", for tests and tools that want one bot in every
game. `games.ai.play.play_match` plays a whole match between bots, and
`games.ai.simulation` plays and tallies many (`manage.py simulate`).
"""

from __future__ import annotations

from collections.abc import Callable

from games.ai.base import Bot, NoLegalMove, UnknownBot
from games.ai.greedy import GreedyBot
from games.ai.random_bot import RandomBot

__all__ = ["Bot", "NoLegalMove", "RandomBot", "UnknownBot", "bot_names", "get_bot"]

_BOTS: dict[str, Callable[[], Bot]] = {
    RandomBot.name: RandomBot,
    GreedyBot.name: GreedyBot,
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
