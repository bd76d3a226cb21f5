"""What a bot is: something that picks one of a seat's legal moves from that seat's view.

Invariants:
- Pure Python: the standard library and `games.engine` only, never Django.
- A bot sees exactly what a human in its seat would: `game.view(state, seat)` and
  `game.legal_moves(state, seat)`. It never receives the raw state, so it cannot cheat.
- All of a bot's randomness comes from the `Chance` it is handed (a stream of its own,
  separate from the match's deal), so a bot's play is reproducible from the match seed.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from games.engine.core import Chance, Game, Move


@runtime_checkable
class Bot(Protocol):
    name: str

    def choose(
        self, game: Game, view: dict[str, Any], legal_moves: list[Move], chance: Chance
    ) -> Move:
        """One of `legal_moves`, decided from `view` alone."""
        ...


class UnknownBot(LookupError):
    """A bot name nobody registered; `message` is for people."""

    def __init__(self, name: str, known: list[str]) -> None:
        super().__init__(f"There is no bot called “{name}” (known: {', '.join(known)}).")
        self.message = str(self)


class NoLegalMove(RuntimeError):
    """A bot was asked to move from a position where its seat has no legal move."""
