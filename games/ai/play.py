"""Play a whole match between bots, through the engine contract only.

Invariants:
- Only `new`, `to_act`, `legal_moves`, `view`, `apply` and `outcome` are called, exactly
  as the web app calls them, so a bot match exercises the same path as a human one. A bot
  with `wants_samples` also gets `sample=Determinizer(game, state, seat)`: a sealed
  sampler of states consistent with its view (`game.sample_hidden`), never the state.
  Only the benchmark oracle (`sees_state`, games.ai.oracle, never offered to players) is
  handed the true state, as `truth=Revealed(state, seat)`.
- Each seat's bot draws from its own chance stream, `Chance(seed, "ai/seat/<n>")`: a
  label the engine never uses, so no bot ever sees (or perturbs) the deal stream, and the
  same seed replays the same match, bots included.
- The returned move list is the match's log: `core.replay(game, seats, seed, options,
  moves)` rebuilds the returned state.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from games.ai.base import Bot
from games.ai.ismcts import Determinizer
from games.ai.oracle import Revealed
from games.engine.core import Chance, Event, Game, Move


class EngineClock:
    """Accumulates the seconds spent inside the engine's `legal_moves` and `apply`.

    Benchmarks and the simulator use it to measure the engine alone, not the bots.
    """

    __slots__ = ("seconds", "moves")

    def __init__(self) -> None:
        self.seconds = 0.0
        self.moves = 0

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0


def seat_chance(seed: bytes, seat: int) -> Chance:
    """The chance stream of the bot in `seat` (separate from every stream the engine uses)."""
    return Chance(seed, f"ai/seat/{seat}")


def play_match(
    game: Game,
    seed: bytes,
    bots: Sequence[Bot],
    options: Mapping[str, Any] | None = None,
    max_plies: int = 10_000,
    *,
    clock: EngineClock | None = None,
    events: list[Event] | None = None,
) -> tuple[Any, int, list[tuple[int, Move]]]:
    """Play until the match ends or `max_plies` moves were made: (state, plies, moves).

    A match cut off by `max_plies` is returned as it stands (`game.outcome(state)` is None).
    Where several seats may act at once, the lowest seat moves first. `events`, if given,
    receives every event of the match's own moves (never a search's), in order.
    """
    seats = len(bots)
    if not game.min_seats <= seats <= game.max_seats:
        raise ValueError(
            f"{game.name} needs {game.min_seats} to {game.max_seats} players, got {seats} bots."
        )
    chances = [seat_chance(seed, seat) for seat in range(seats)]
    state = game.new(seats, seed, options)
    moves: list[tuple[int, Move]] = []
    timer = time.perf_counter
    while len(moves) < max_plies and game.outcome(state) is None:
        to_act = game.to_act(state)
        if not to_act:
            raise RuntimeError(f"{game.name}: nobody may act, yet the match has no outcome.")
        seat = to_act[0]
        started = timer()
        legal = game.legal_moves(state, seat)
        engine_seconds = timer() - started
        view = game.view(state, seat)
        if getattr(bots[seat], "sees_state", False):  # a benchmark oracle (games.ai.oracle)
            truth = Revealed(state, seat)
            move = bots[seat].choose(game, view, legal, chances[seat], truth=truth)  # type: ignore[call-arg]
        elif getattr(bots[seat], "wants_samples", False):
            sample = Determinizer(game, state, seat)
            move = bots[seat].choose(game, view, legal, chances[seat], sample=sample)  # type: ignore[call-arg]
        else:
            move = bots[seat].choose(game, view, legal, chances[seat])
        started = timer()
        state, happened = game.apply(state, seat, move)
        engine_seconds += timer() - started
        if events is not None:
            events.extend(happened)
        if clock is not None:
            clock.seconds += engine_seconds
            clock.moves += 1
        moves.append((seat, move))
    return state, len(moves), moves
