"""Dog Blade's match options, checked, and the first position they give.

Invariants:
- Dog Blade has no options a player chooses (`OPTIONS` is empty); `options["deal"]`
  may fix both decks and the first attacker. Every problem with a deal is an
  `InvalidOptions` whose message a person can read.
- A dealt match draws seat 0's 20 cards, then seat 1's, then flips the coin for the
  first attacker, all from `Chance(seed, "dogblade/setup")`, in that order; a fixed deal
  without "first" flips the same coin from the start of that stream.
- Pure: imports the standard library, `games.engine.core` and this package's `state`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.core import Chance, InvalidOptions, Option
from games.engine.dogblade.state import DECK_SIZE, Card, DogBladeState, random_card

OPTIONS: tuple[Option, ...] = ()

Decks = tuple[tuple[Card, ...], tuple[Card, ...]]


def new_state(seats: int, seed: bytes, options: Mapping[str, Any] | None) -> DogBladeState:
    """The first position: the two decks (dealt or fixed), full HP, the first attacker."""
    if seats != 2:
        raise InvalidOptions("Dog Blade is played by exactly two players.")
    options = options or {}
    chance = Chance(seed, "dogblade/setup")
    first: int | None = None
    if "deal" in options:
        decks, first = parse_deal(options["deal"])
    else:
        decks = (
            tuple(random_card(chance) for _ in range(DECK_SIZE)),
            tuple(random_card(chance) for _ in range(DECK_SIZE)),
        )
    if first is None:
        first = chance.randbelow(2)
    return DogBladeState(decks, (1, 1), (decks[0][0][1], decks[1][0][1]), first, 0, None)


def parse_deal(deal: Any) -> tuple[Decks, int | None]:
    """(the two decks, the first attacker or None) from `options["deal"]`."""
    if not isinstance(deal, Mapping) or "decks" not in deal:
        raise InvalidOptions('A Dog Blade deal is {"decks": [[[atk, hp], ...], [...]]}.')
    decks = deal["decks"]
    if not isinstance(decks, list | tuple) or len(decks) != 2:
        raise InvalidOptions("A Dog Blade deal needs exactly two decks.")
    parsed: list[tuple[Card, ...]] = []
    for deck in decks:
        if not isinstance(deck, list | tuple) or not deck:
            raise InvalidOptions("Each deck of a Dog Blade deal needs at least one card.")
        cards = []
        for card in deck:
            if (
                not isinstance(card, list | tuple)
                or len(card) != 2
                or not all(type(stat) is int and stat > 0 for stat in card)
            ):
                raise InvalidOptions(
                    "Each Dog Blade card is [atk, hp] with positive whole numbers."
                )
            cards.append((card[0], card[1]))
        parsed.append(tuple(cards))
    first = deal.get("first")
    if first not in (None, 0, 1):
        raise InvalidOptions("The first seat of a Dog Blade deal is 0 or 1.")
    return (parsed[0], parsed[1]), first
