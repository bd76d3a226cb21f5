"""Determinization carries no hidden information, for every registered game.

`sample_hidden(state, seat, chance)` is how a bot learns about a position (through the
sealed `games.ai.ismcts.Determinizer`). Two states that look the same to `seat` must give
the same samples for the same chance stream: then the samples, and every decision built
on them, depend only on what the seat knows. The per-game tests under tests/engine/<slug>/
build twins by hand; this one checks the contract across the registry, with twins made
by redrawing the hidden parts and by replacing the secret seed of future chance events.
"""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from games.ai import RandomBot
from games.ai.play import play_match
from games.engine import registry
from games.engine.core import Chance, Game
from games.engine.dogblade.state import DogBladeState, random_card

SEATS = {"banira": (1,), "dogblade": (2,), "grimhand": (2,), "haymaker": (2,), "shield": (3, 4)}
SAMPLE_SEEDS = 4


def seed_for(label: str) -> bytes:
    return hashlib.sha256(f"determinization:{label}".encode()).digest()


def positions(game: Game, seats: int, index: int) -> list[Any]:
    """Every position of one random match, the start included."""
    seed = seed_for(f"{game.slug}/{seats}/{index}")
    _state, _plies, moves = play_match(game, seed, [RandomBot() for _ in range(seats)])
    state = game.new(seats, seed)
    states = [state]
    for seat, move in moves:
        state, _events = game.apply(state, seat, move)
        states.append(state)
    return states


def with_new_secret_seed(state: Any, chance: Chance) -> Any:
    """The same position with another seed for future chance events (never in a view)."""
    seed = chance.randbelow(1 << 256).to_bytes(32, "big")
    if hasattr(state, "seed"):
        return state.replace(seed=seed)
    setup = getattr(state, "setup", None)
    if setup is not None and hasattr(setup, "seed"):  # Grimhand keeps it in its setup
        return state.replace(setup=type(setup)(seed, *setup._key()[1:]))
    return state  # no secret seed: Dogblade and BaniraCards draw nothing after the deal


def twins(game: Game, state: Any, seat: int, label: str) -> list[Any]:
    """States `seat` cannot tell from `state`: hidden parts redrawn, secret seed replaced."""
    chance = Chance(seed_for(label), "twin")
    redrawn = game.sample_hidden(state, seat, chance)
    return [redrawn, with_new_secret_seed(state, chance), with_new_secret_seed(redrawn, chance)]


def cases() -> list[tuple[str, int]]:
    assert set(SEATS) == set(registry.slugs()), "every registered game is covered"
    return [(slug, seats) for slug, counts in SEATS.items() for seats in counts]


@pytest.mark.parametrize(("slug", "seats"), cases())
def test_states_that_look_the_same_give_the_same_samples(slug: str, seats: int) -> None:
    game = registry.get(slug)
    differing = 0
    for index in range(3):
        states = positions(game, seats, index)
        for position, state in enumerate(states[:: max(1, len(states) // 8)]):
            for seat in range(seats):
                for twin_index, twin in enumerate(twins(game, state, seat, f"{index}/{position}")):
                    assert game.view(twin, seat) == game.view(state, seat)
                    differing += twin != state
                    for sample_seed in range(SAMPLE_SEEDS):
                        label = f"{slug}/{index}/{position}/{seat}/{twin_index}/{sample_seed}"
                        sample = game.sample_hidden(state, seat, Chance(seed_for(label), "s"))
                        twin_sample = game.sample_hidden(twin, seat, Chance(seed_for(label), "s"))
                        assert twin_sample == sample
    assert differing > 10  # the twins really hide something different


@pytest.mark.parametrize(("slug", "seats"), cases())
def test_a_sample_looks_the_same_to_the_seat(slug: str, seats: int) -> None:
    game = registry.get(slug)
    states = positions(game, seats, 9)
    for position, state in enumerate(states[:: max(1, len(states) // 10)]):
        for seat in range(seats):
            sample = game.sample_hidden(state, seat, Chance(seed_for(f"{position}/{seat}"), "s"))
            assert game.view(sample, seat) == game.view(state, seat)
            assert game.legal_moves(sample, seat) == game.legal_moves(state, seat)
            assert game.to_act(sample) == game.to_act(state)


def test_dogblade_samples_ignore_the_undrawn_cards() -> None:
    # A hand-built twin: every undrawn card replaced, independently of sample_hidden.
    game = registry.get("dogblade")
    chance = Chance(seed_for("dogblade/twin"), "twin")
    for state in positions(game, 2, 0)[::10]:
        decks = tuple(
            deck[: state.drawn[side]]
            + tuple(random_card(chance) for _ in deck[state.drawn[side] :])
            for side, deck in enumerate(state.decks)
        )
        twin = DogBladeState(decks, state.drawn, state.hp, state.turn, state.ply, state.winner)  # type: ignore[arg-type]
        for seat in (0, 1):
            assert game.view(twin, seat) == game.view(state, seat)
            for sample_seed in range(SAMPLE_SEEDS):
                label = f"dogblade/{state.ply}/{seat}/{sample_seed}"
                sample = game.sample_hidden(state, seat, Chance(seed_for(label), "s"))
                assert game.sample_hidden(twin, seat, Chance(seed_for(label), "s")) == sample
