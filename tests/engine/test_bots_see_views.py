"""No bot ever reads hidden state: every level plays every game through a watched engine.

`Watched` stands in for a game. It remembers every real state of the match, the ones
`new` and `apply` give the platform, and fails the test the moment a bot, while it
decides, hands one of them to the engine (`view`, `legal_moves`, `apply`, `outcome`,
`to_act`). The only door to the real state is the platform's sealed sampler
(`sample_hidden`), which gives back a state drawn from what the seat knows. `GuardedBot`
wraps each level and fails if it is handed anything but plain view data, the legal
moves and, for a searching level, a sampler.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from games.ai import get_bot, levels
from games.ai.ismcts import Determinizer
from games.ai.play import play_match
from games.engine import registry
from games.engine.core import Chance, Game, Move

SEATS = {"banira": 1, "dogblade": 2, "grimhand": 2, "haymaker": 2, "shield": 4}


class PeekedAtTheState(AssertionError):
    pass


class Watched:
    """A game whose real states a deciding bot may not touch."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.real: dict[int, Any] = {}  # id -> state: the references keep ids unique
        self.deciding = False
        self.samples = 0

    def __getattr__(self, name: str) -> Any:  # slug, name, seats, has_choices, ...
        return getattr(self.game, name)

    def _touch(self, state: Any, method: str) -> None:
        if self.deciding and id(state) in self.real:
            raise PeekedAtTheState(f"a bot passed the match's real state to {method}")

    def _remember(self, state: Any) -> Any:
        if not self.deciding:
            self.real[id(state)] = state
        return state

    def new(self, seats: int, seed: bytes, options: Any = None) -> Any:
        return self._remember(self.game.new(seats, seed, options))

    def apply(self, state: Any, seat: int, move: Move) -> tuple[Any, list[Any]]:
        self._touch(state, "apply")
        following, events = self.game.apply(state, seat, move)
        return self._remember(following), events

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        self._touch(state, "view")
        return self.game.view(state, seat)

    def legal_moves(self, state: Any, seat: int) -> list[Move]:
        self._touch(state, "legal_moves")
        return self.game.legal_moves(state, seat)

    def outcome(self, state: Any) -> Any:
        self._touch(state, "outcome")
        return self.game.outcome(state)

    def to_act(self, state: Any) -> tuple[int, ...]:
        self._touch(state, "to_act")
        return self.game.to_act(state)

    def sample_hidden(self, state: Any, seat: int, chance: Chance) -> Any:
        # The sealed sampler's own call: the one place the real state may be read.
        sample = self.game.sample_hidden(state, seat, chance)
        assert id(sample) not in self.real, "a sample must be a new state, not the real one"
        self.samples += 1
        return sample


class GuardedBot:
    """A level that fails unless it is handed a view, the legal moves and a sealed sampler."""

    def __init__(self, inner: Any, watched: Watched) -> None:
        self.inner = inner
        self.watched = watched
        self.name = inner.name
        self.wants_samples = getattr(inner, "wants_samples", False)

    def choose(self, game: Any, view: Any, legal_moves: Any, chance: Chance, **extra: Any) -> Move:
        assert isinstance(view, dict) and json.loads(json.dumps(view)) == view, "not a view"
        assert isinstance(legal_moves, list) and all(isinstance(m, dict) for m in legal_moves)
        assert set(extra) <= {"sample"}, f"handed more than a view: {sorted(extra)}"
        if self.wants_samples:
            assert type(extra.get("sample")) is Determinizer
        self.watched.deciding = True
        try:
            move = self.inner.choose(game, view, legal_moves, chance, **extra)
        finally:
            self.watched.deciding = False
        assert move in legal_moves
        return move


def _level(name: str, slug: str) -> Any:
    # A short guard: Hard's same search, stopped after its first determinizations.
    return dataclasses.replace(levels.get(name), guard_seconds=0.02).bot(slug)


@pytest.mark.parametrize("level", [level.id for level in levels.offered()])
@pytest.mark.parametrize("slug", sorted(SEATS))
def test_every_level_plays_every_game_to_the_end_without_peeking(slug: str, level: str) -> None:
    watched = Watched(registry.get(slug))
    bots = [GuardedBot(_level(level, slug), watched)]
    bots += [GuardedBot(get_bot("greedy"), watched) for _ in range(SEATS[slug] - 1)]
    state, plies, _moves = play_match(watched, f"peek:{slug}:{level}".encode() * 2, bots)  # type: ignore[arg-type]
    assert watched.game.outcome(state) is not None and plies > 0
    searched = level == "hard" and watched.game.has_choices  # Dog Blade plays itself
    assert (watched.samples > 0) == searched


def test_the_watch_catches_a_bot_that_peeks() -> None:
    """The guard is not vacuous: a bot that reaches the real state is caught."""
    watched = Watched(registry.get("grimhand"))

    class Peeker:
        name = "peeker"
        wants_samples = True

        def choose(self, game: Any, view: Any, legal: Any, chance: Any, *, sample: Any) -> Move:
            cells = [cell.cell_contents for cell in sample._draw.__closure__]
            real = next(value for value in cells if id(value) in watched.real)  # sealed inside
            game.legal_moves(real, sample.seat)
            return legal[0]

    bots = [GuardedBot(Peeker(), watched), GuardedBot(get_bot("greedy"), watched)]
    with pytest.raises(PeekedAtTheState):
        play_match(watched, b"peek:caught" * 3, bots)  # type: ignore[arg-type]
