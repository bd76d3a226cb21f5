"""What the search-bot tests share: positions where a seat has a choice, and one decision
made there from the seat's view and a sealed sampler (never the state)."""

from __future__ import annotations

from typing import Any

from games.ai import RandomBot
from games.ai.ismcts import Determinizer
from games.ai.play import play_match
from games.engine.core import Chance, Game, Move


def choice_positions(game: Game, seats: int, seed: bytes) -> list[Any]:
    """Positions of one random match (dealt from `seed`) where the seat to move has more
    than one legal move."""
    _state, _plies, moves = play_match(game, seed, [RandomBot() for _ in range(seats)])
    state = game.new(seats, seed)
    found = []
    for seat, move in moves:
        if len(game.legal_moves(state, seat)) > 1:
            found.append(state)
        state, _events = game.apply(state, seat, move)
    return found


def decide(bot: Any, game: Game, state: Any, seat: int, seed: bytes) -> Move:
    return bot.choose(
        game,
        game.view(state, seat),
        game.legal_moves(state, seat),
        Chance(seed, "bot"),
        sample=Determinizer(game, state, seat),
    )
