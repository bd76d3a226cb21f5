"""The one way to reach a match's state at a ply: its move log replayed through the engine.

`match_position(match=..., ply=...)` answers, in this order, from:
1. this process's memo of recent positions (no network, no unpickling);
2. the shared cache (Redis in production, so every web and worker process shares it);
3. the position one ply earlier (memo or cache), plus the one move after it;
4. a full replay of the move log (`engine.core.replay_steps`).

A position holds the state and the last `LOG_TAIL` moves with their events (what a board's
log shows), never the whole event log: a cache entry stays the same size however long the
match runs. Whatever needs every event of a match (progression's credit when it ends) asks
`match_events`, which replays the log once.

Keys are (the states' shape, match, seed commitment, ply). A logged move never changes,
so an entry is never stale; the move log stays the source of truth. The services
`match_remember` the position they have just computed inside their transaction, so
nothing downstream replays it again: the shared cache at once (a later reader of that ply
can only come after the commit, and a rolled-back move's entry is overwritten by the move
that really takes that ply), this process's memo only once the transaction commits.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db import transaction

from games.engine import registry
from games.engine.core import Event, replay_steps

logger = logging.getLogger(__name__)

LOG_TAIL = 40  # moves kept with a position: the most a board's log shows
CACHE_SECONDS = 6 * 3600
MEMO_SIZE = 512  # positions kept in each process


@dataclass(frozen=True)
class LoggedMove:
    ply: int
    seat: int
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Position:
    """A match after `ply` moves: its state, and the last `LOG_TAIL` moves, oldest first."""

    ply: int
    state: Any
    tail: tuple[LoggedMove, ...]

    def then(self, *, seat: int, state: Any, events: list[Event]) -> Position:
        """The position after one more move."""
        moved = LoggedMove(self.ply, seat, tuple(events))
        return Position(self.ply + 1, state, (*self.tail, moved)[-LOG_TAIL:])

    def events_of(self, ply: int) -> tuple[Event, ...]:
        """The events of the move made at `ply`, if it is still in the tail."""
        return next((move.events for move in self.tail if move.ply == ply), ())


class _Memo:
    """A small least-recently-used map of positions, shared by the threads of a process."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[str, Position] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> Position | None:
        with self._lock:
            position = self._entries.get(key)
            if position is not None:
                self._entries.move_to_end(key)
            return position

    def put(self, key: str, position: Position) -> None:
        with self._lock:
            self._entries[key] = position
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


_memo = _Memo(MEMO_SIZE)
WAITING = "waiting"  # games.models.Match.Status.WAITING (this module imports no models)


# Bumped whenever a game's state value changes shape (a new slot, a new option read from
# `setup`): a position pickled by older code is then never read back, whatever it holds.
STATE_SHAPE = 2


def _key(match: Any, ply: int) -> str:
    return f"position:{STATE_SHAPE}:{match.pk}:{match.seed_commitment[:16]}:{ply}"


def _stored(key: str) -> Position | None:
    position = _memo.get(key)
    if position is not None:
        return position
    try:
        position = cache.get(key)
    except Exception:  # the cache is an optimisation: replay instead
        logger.warning("replay cache unreachable; replaying from the log", exc_info=True)
        return None
    if isinstance(position, Position):
        _memo.put(key, position)
        return position
    return None


def _store(key: str, position: Position) -> None:
    try:
        cache.set(key, position, CACHE_SECONDS)
    except Exception:
        logger.warning("replay cache unreachable; position not cached", exc_info=True)


def match_position(*, match: Any, ply: int | None = None) -> Position:
    """The match after `ply` moves (default: its current ply).

    A table still waiting for players is never cached: its options may still change (a
    joining seat's own picks, games.services.tables.match_join), and a position kept from
    before the change would outlive it in every process."""
    ply = match.ply if ply is None else ply
    if getattr(match, "status", None) == WAITING:
        game = registry.get(match.game)
        return Position(0, game.new(match.size, bytes(match.seed), match.options), ())
    key = _key(match, ply)
    position = _stored(key)
    if position is not None:
        return position
    game = registry.get(match.game)
    previous = _stored(_key(match, ply - 1)) if ply > 0 else None
    if previous is None:
        previous = Position(0, game.new(match.size, bytes(match.seed), match.options), ())
    moves = match.moves.filter(ply__gte=previous.ply, ply__lt=ply).order_by("ply")
    logged = list(moves.values_list("seat", "payload"))
    position = previous
    for (seat, _), (state, events) in zip(
        logged, replay_steps(game, previous.state, logged), strict=True
    ):
        position = position.then(seat=seat, state=state, events=events)
    _store(key, position)
    _memo.put(key, position)
    return position


def match_remember(*, match: Any, position: Position) -> None:
    """Keep a position a service has just computed (inside its transaction) for every reader:
    the shared cache now, this process's memo once the transaction commits."""
    key = _key(match, position.ply)
    _store(key, position)
    transaction.on_commit(lambda: _memo.put(key, position))


def match_events(*, match: Any) -> list[LoggedMove]:
    """Every move of the match with its events, from the deal: one full replay of the log."""
    game = registry.get(match.game)
    logged = list(match.moves.order_by("ply").values_list("ply", "seat", "payload"))
    state = game.new(match.size, bytes(match.seed), match.options)
    steps = replay_steps(game, state, ((seat, payload) for _, seat, payload in logged))
    return [
        LoggedMove(ply, seat, tuple(events))
        for (ply, seat, _), (_, events) in zip(logged, steps, strict=True)
    ]


def memo_clear() -> None:
    """Forget this process's positions (tests that rewrite a match's log)."""
    _memo.clear()
