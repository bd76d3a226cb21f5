"""The keyed chance source: deterministic, independent per seed and label, unbiased."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from games.engine.chance import Chance

SEED = bytes.fromhex("00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff")
OTHER_SEED = bytes(32)


def draws(chance: Chance, bound: int = 1000, count: int = 50) -> list[int]:
    return [chance.randbelow(bound) for _ in range(count)]


def chi_square(counts: Counter[int], bound: int, total: int) -> float:
    expected = total / bound
    return sum((counts[value] - expected) ** 2 / expected for value in range(bound))


def test_same_seed_label_and_counter_give_the_same_stream() -> None:
    assert draws(Chance(SEED, "deal")) == draws(Chance(SEED, "deal"))


def test_labels_and_seeds_give_independent_streams() -> None:
    base = draws(Chance(SEED, "deal"))
    assert draws(Chance(SEED, "ai/seat/0")) != base
    assert draws(Chance(SEED, "ai/seat/1")) != draws(Chance(SEED, "ai/seat/0"))
    assert draws(Chance(OTHER_SEED, "deal")) != base


def test_a_stream_resumes_from_its_block_counter() -> None:
    whole_block = 2**256  # one randbelow of this bound consumes exactly one HMAC block
    stream = Chance(SEED, "deal")
    stream.randbelow(whole_block)
    second = stream.randbelow(whole_block)
    assert stream.counter == 2
    assert Chance(SEED, "deal", counter=1).randbelow(whole_block) == second


@pytest.mark.parametrize("bound", [1, 2, 3, 6, 7, 10, 13, 52, 1000, 2**40 + 3])
def test_randbelow_stays_within_bounds(bound: int) -> None:
    chance = Chance(SEED, f"bounds/{bound}")
    assert all(0 <= value < bound for value in draws(chance, bound, 500))


def test_randbelow_rejects_an_empty_range() -> None:
    with pytest.raises(ValueError):
        Chance(SEED).randbelow(0)


def test_randint_includes_both_ends() -> None:
    chance = Chance(SEED, "randint")
    values = {chance.randint(3, 5) for _ in range(200)}
    assert values == {3, 4, 5}


@pytest.mark.parametrize(
    ("bound", "critical"),
    [
        (6, 20.52),  # chi-square, 5 degrees of freedom, p = 0.001
        (10, 27.88),  # 9 degrees of freedom: a bound that needs rejection sampling
    ],
)
def test_randbelow_is_roughly_uniform(bound: int, critical: float) -> None:
    total = 30_000
    chance = Chance(SEED, f"uniformity/{bound}")
    counts = Counter(chance.randbelow(bound) for _ in range(total))
    assert set(counts) == set(range(bound))
    assert chi_square(counts, bound, total) < critical


def test_choice_picks_from_the_items() -> None:
    chance = Chance(SEED, "choice")
    items = ("a", "b", "c")
    assert {chance.choice(items) for _ in range(100)} == set(items)


def test_shuffle_returns_a_new_permutation() -> None:
    items = list(range(52))
    shuffled = Chance(SEED, "shuffle").shuffle(items)
    assert items == list(range(52))  # the input is untouched
    assert sorted(shuffled) == items
    assert shuffled != items
    assert shuffled == Chance(SEED, "shuffle").shuffle(items)


def test_shuffle_reaches_every_order_about_equally() -> None:
    chance = Chance(SEED, "shuffle/orders")
    total = 6_000
    counts = Counter(tuple(chance.shuffle("abc")) for _ in range(total))
    orders = list(itertools.permutations("abc"))
    assert set(counts) == set(orders)
    expected = total / len(orders)
    statistic = sum((counts[order] - expected) ** 2 / expected for order in orders)
    assert statistic < 20.52  # 5 degrees of freedom, p = 0.001


@pytest.mark.parametrize("seed", [b"", b"too short", bytes(15)])
def test_rejects_a_short_seed(seed: bytes) -> None:
    with pytest.raises(ValueError):
        Chance(seed)


def test_rejects_a_seed_that_is_not_bytes() -> None:
    with pytest.raises(ValueError):
        Chance("0123456789abcdef0123456789abcdef")  # type: ignore[arg-type]
