"""The ISMCTS bot: legal, reproducible, blind to hidden information, and stronger than random."""

from __future__ import annotations

import hashlib
import inspect
import time
from typing import Any

import pytest

from games.ai import RandomBot, levels
from games.ai.ismcts import Determinizer, IsmctsBot, move_key
from games.ai.play import play_match, seat_chance
from games.engine import registry
from games.engine.core import Chance, Game, Move
from tests import searching
from tests.searching import choice_positions

SEATS = {"banira": 1, "dogblade": 2, "grimhand": 2, "haymaker": 2, "shield": 4}


def seed_for(label: str) -> bytes:
    return hashlib.sha256(f"ismcts:{label}".encode()).digest()


def positions(game: Game, seats: int, index: int) -> list[Any]:
    """Positions of one random match where somebody has more than one legal move."""
    return choice_positions(game, seats, seed_for(f"{game.slug}/{index}"))


def decide(bot: IsmctsBot, game: Game, state: Any, seat: int, label: str) -> Move:
    return searching.decide(bot, game, state, seat, seed_for(label))


def test_hard_plays_it_where_its_table_names_no_other_search() -> None:
    assert "dogblade" not in levels.HARD.games
    bot = levels.HARD.bot("dogblade")
    assert isinstance(bot, IsmctsBot) and bot.wants_samples
    assert bot.seconds is not None and bot.seconds <= 1.0


@pytest.mark.parametrize("slug", sorted(SEATS))
def test_it_always_returns_one_of_the_offered_moves(slug: str) -> None:
    game = registry.get(slug)
    bot = IsmctsBot(iterations=30, seconds=None)
    states = positions(game, SEATS[slug], 0)
    for position, state in enumerate(states[:: max(1, len(states) // 5)]):
        seat = game.to_act(state)[0]
        move = decide(bot, game, state, seat, f"{slug}/{position}")
        assert move in game.legal_moves(state, seat)


@pytest.mark.parametrize("slug", sorted(SEATS))
def test_the_same_chance_gives_the_same_move(slug: str) -> None:
    game = registry.get(slug)
    states = positions(game, SEATS[slug], 1)
    for position, state in enumerate(states[:: max(1, len(states) // 3)]):
        seat = game.to_act(state)[0]
        first = decide(IsmctsBot(iterations=40, seconds=None), game, state, seat, str(position))
        again = decide(IsmctsBot(iterations=40, seconds=None), game, state, seat, str(position))
        assert move_key(first) == move_key(again)


@pytest.mark.parametrize("slug", sorted(SEATS))
def test_it_plays_every_game_to_the_end(slug: str) -> None:
    game = registry.get(slug)
    bots: list[Any] = [IsmctsBot(iterations=8, seconds=None)]
    bots += [RandomBot() for _ in range(SEATS[slug] - 1)]
    state, _plies, _moves = play_match(game, seed_for(f"{slug}/full"), bots)
    assert game.outcome(state) is not None


# --- Hidden information -------------------------------------------------------------------


def test_choose_takes_no_state() -> None:
    parameters = list(inspect.signature(IsmctsBot.choose).parameters)
    assert parameters == ["self", "game", "view", "legal_moves", "chance", "sample"]
    # The sealed sampler shows its (public) seat and nothing else.
    public = [name for name in Determinizer.__slots__ if not name.startswith("_")]
    assert public == ["seat"]


@pytest.mark.parametrize("slug", sorted(SEATS))
def test_states_that_look_the_same_get_the_same_move(slug: str) -> None:
    # The decision depends on the view and the samples only, and the samples only on what
    # the seat knows (tests/engine/test_determinization.py), so twins get the same move.
    game = registry.get(slug)
    bot = IsmctsBot(iterations=25, seconds=None)
    states = positions(game, SEATS[slug], 2)
    for position, state in enumerate(states[:: max(1, len(states) // 4)]):
        seat = game.to_act(state)[0]
        twin = game.sample_hidden(state, seat, Chance(seed_for(f"twin/{position}"), "twin"))
        assert game.view(twin, seat) == game.view(state, seat)
        label = f"{slug}/{position}"
        assert move_key(decide(bot, game, twin, seat, label)) == move_key(
            decide(bot, game, state, seat, label)
        )


def test_it_only_asks_the_sampler_for_samples() -> None:
    game = registry.get("haymaker")
    state = positions(game, 2, 3)[4]
    seat = game.to_act(state)[0]
    sealed = Determinizer(game, state, seat)
    asked: list[Any] = []

    class Spy:
        """Stands in for the sampler: anything but `seat` and a call would fail."""

        __slots__ = ()
        seat = sealed.seat

        def __call__(self, chance: Chance) -> Any:
            assert isinstance(chance, Chance)
            asked.append(chance)
            return sealed(chance)

    legal = game.legal_moves(state, seat)
    move = IsmctsBot(iterations=20, seconds=None).choose(
        game, game.view(state, seat), legal, Chance(seed_for("spy"), "bot"), sample=Spy()
    )  # type: ignore[arg-type]
    assert move in legal and len(asked) == 20


def test_without_a_sampler_it_plays_greedy_and_legal() -> None:
    game = registry.get("haymaker")
    for state in positions(game, 2, 4)[:10]:
        seat = game.to_act(state)[0]
        legal = game.legal_moves(state, seat)
        chance = Chance(seed_for("blind"), "bot")
        assert IsmctsBot().choose(game, game.view(state, seat), legal, chance) in legal


def test_a_time_budget_bounds_the_decision() -> None:
    game = registry.get("shield")
    state = positions(game, 4, 5)[20]
    seat = game.to_act(state)[0]
    started = time.perf_counter()
    decide(IsmctsBot(iterations=None, seconds=0.05), game, state, seat, "clock")
    assert time.perf_counter() - started < 0.5


# --- Strength (smoke: the offline numbers are in the report) ------------------------------


def ismcts_score(slug: str, matches: int, iterations: int) -> float:
    """ISMCTS against random, seats alternating on paired deals: 1 a win, 0.5 a draw."""
    game = registry.get(slug)
    total = 0.0
    for index in range(matches):
        seat = index % 2
        bots: list[Any] = [RandomBot(), RandomBot()]
        bots[seat] = IsmctsBot(iterations=iterations, seconds=None)
        state, _plies, _moves = play_match(game, seed_for(f"{slug}/deal/{index // 2}"), bots)
        outcome = game.outcome(state)
        assert outcome is not None
        total += 0.5 if outcome.is_draw else float(seat in outcome.winners)
    return total / matches


def test_it_beats_random_at_haymaker() -> None:
    assert ismcts_score("haymaker", matches=12, iterations=40) >= 0.7


def test_seat_chance_is_the_only_source_of_randomness() -> None:
    game = registry.get("grimhand")
    seed = seed_for("replay")
    runs = [
        play_match(game, seed, [IsmctsBot(iterations=10, seconds=None), RandomBot()])[2]
        for _ in range(2)
    ]
    assert runs[0] == runs[1]
    assert seat_chance(seed, 0).randbelow(1 << 64) == seat_chance(seed, 0).randbelow(1 << 64)
