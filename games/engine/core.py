"""The engine contract every game implements, and the values it trades in.

Invariants:
- A game is a stateless object; all match data lives in an immutable state value.
- `apply` never mutates its input and raises `IllegalMove` with a message a player can read.
- `new` + the same moves always gives the same states and events (all chance comes from
  `Chance`, keyed by the match's secret seed).
- `view(state, seat)` is exactly what that seat may know; nothing else may leave the engine.
- Pure: imports the standard library and `games.engine.chance` only.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol, Self, runtime_checkable

from games.engine.chance import Chance

__all__ = [
    "Chance",
    "Event",
    "Game",
    "IllegalMove",
    "InvalidOptions",
    "Move",
    "Option",
    "Outcome",
    "SlotValue",
    "replay",
]

Move = dict[str, Any]
"""A move is a JSON-able dict with at least a "type", e.g. {"type": "attack"}."""


class SlotValue:
    """A state value's boilerplate, read from its `__slots__`: equality and hash over every
    slot in order (values of one class only), and `replace`. Immutable by convention. A
    subclass declares all its `__slots__` itself (it is no subclass of another SlotValue),
    an `__init__` whose parameters are the slots' names, and its own `__repr__` (a short
    one: a state's decks are long).

    Each subclass gets its own `__eq__` and `__hash__`, closures over one
    `operator.attrgetter` of its slots (no lookup of the slot names per call)."""

    __slots__ = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        slots = cls.__slots__
        if isinstance(slots, str) or len(slots) < 2:
            raise TypeError(f"{cls.__name__}: a SlotValue names two slots or more")
        key = operator.attrgetter(*slots)  # a tuple of the slots, read at C speed

        def _key(self: Any) -> tuple[Any, ...]:
            return key(self)

        def __eq__(self: Any, other: object) -> bool:
            return type(other) is type(self) and key(self) == key(other)

        def __hash__(self: Any) -> int:
            return hash(key(self))

        cls._key = _key
        cls.__eq__ = __eq__
        cls.__hash__ = __hash__

    def _key(self) -> tuple[Any, ...]:
        raise NotImplementedError  # set on each subclass by __init_subclass__

    def replace(self, **changes: Any) -> Self:
        """A copy with some fields changed (for tests, tools and `sample_hidden`)."""
        fields = dict(zip(self.__slots__, self._key(), strict=True))
        fields.update(changes)
        return type(self)(**fields)


class InvalidOptions(ValueError):
    """Match options (or a fixed deal) the game cannot start from; `message` is for people."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True, slots=True)
class Option:
    """One match option a game offers: its name, its default, and the values it may take.

    Each game lists its options as `OPTIONS` in its `options.py` and checks a match's
    options against that table. `choices` lists the allowed values when they are few;
    `bounds` is the smallest and the largest whole number allowed, both included. The
    fixed deal (`options["deal"]`, for tutorials, puzzles and tests) is not in the table:
    every game takes one, each in its own shape.
    """

    name: str
    default: Any
    text: str  # what the option changes, for people
    choices: tuple[Any, ...] = ()
    bounds: tuple[int, int] | None = None


class IllegalMove(Exception):
    """A move the rules do not allow here; `message` is written for the player."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Event(NamedTuple):
    """Something that happened, for animations, the match log and quest progress.

    `visible_to` lists the seats allowed to see it; None means everyone, spectators included.
    (A NamedTuple rather than a dataclass: events are made on every move of the hot path.)
    """

    type: str
    data: Mapping[str, Any]
    visible_to: tuple[int, ...] | None = None

    def is_visible_to(self, seat: int | None) -> bool:
        return self.visible_to is None or (seat is not None and seat in self.visible_to)

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, **self.data}


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished match ended.

    `ranking` lists seats best first; seats that tied share a tuple.
    """

    winners: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]
    reason: str
    scores: tuple[int, ...] | None = None

    @property
    def is_draw(self) -> bool:
        return not self.winners

    def to_json(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "ranking": [list(group) for group in self.ranking],
            "reason": self.reason,
            "scores": list(self.scores) if self.scores is not None else None,
        }


@runtime_checkable
class Game(Protocol):
    slug: str
    name: str
    min_seats: int
    max_seats: int

    def new(self, seats: int, seed: bytes, options: Mapping[str, Any] | None = None) -> Any: ...

    def to_act(self, state: Any) -> tuple[int, ...]: ...

    def legal_moves(self, state: Any, seat: int) -> list[Move]: ...

    def is_legal(self, state: Any, seat: int, move: Move) -> bool: ...

    def apply(self, state: Any, seat: int, move: Move) -> tuple[Any, list[Event]]: ...

    def view(self, state: Any, seat: int | None) -> dict[str, Any]: ...

    def revealed_view(self, state: Any) -> dict[str, Any]:
        """Everything, face up: for a finished match's replay and for verifying an export.

        The spectator view (`seat` None) with every hidden card shown where the board draws
        cards (hands), plus `"revealed": True` and `"hidden"`: the rest no seat saw, as
        [{"pile": "attack deck", "seat": None or a seat, "order": "top first" or "",
        "cards": [...]}]. Never for a running match: the platform shows it only once the
        seed is revealed.
        """
        ...

    def outcome(self, state: Any) -> Outcome | None: ...

    def sample_hidden(self, state: Any, seat: int, chance: Chance) -> Any: ...

    def forfeit(self, state: Any, seat: int, reason: str) -> Outcome | None:
        """The outcome when `seat` resigns or runs out of time ("resign", "timeout").

        Two-player games end there. A game that plays on without the seat sets the class
        attribute `forfeit_is_a_move = True`: the platform then logs the move
        {"type": "forfeit", "reason": reason} for that seat, out of turn, and the match ends
        only if `outcome` says so; `forfeit` returns what that move would lead to.
        """
        ...


def forfeit_two_player(seat: int, reason: str) -> Outcome:
    """In a two-player game the other seat wins whatever the position."""
    winner = 1 - seat
    return Outcome(winners=(winner,), ranking=((winner,), (seat,)), reason=reason)


def replay_steps(
    game: Game, state: Any, moves: Iterable[tuple[int, Move]]
) -> Iterator[tuple[Any, list[Event]]]:
    """Apply logged moves one by one from `state`: after each, the new state and its events.

    The one loop every replay goes through: the site's cached replay (`games.replay`), the
    history, and the verification of an export (which stops at the first move that raises).
    """
    for seat, move in moves:
        state, move_events = game.apply(state, seat, move)
        yield state, move_events


def replay(
    game: Game,
    seats: int,
    seed: bytes,
    options: Mapping[str, Any] | None,
    moves: Iterable[tuple[int, Move]],
) -> tuple[Any, list[list[Event]]]:
    """Rebuild a match from its move log: the final state and each move's events."""
    state = game.new(seats, seed, options)
    events: list[list[Event]] = []
    for after, move_events in replay_steps(game, state, moves):
        state = after
        events.append(move_events)
    return state, events
