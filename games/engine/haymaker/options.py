"""Haymaker's match options and fixed deals, checked, and the first position they give.

Invariants:
- `OPTIONS` is the schema: "discards" (who keeps the cards played in a turn) is the one
  option a player chooses; `options["deal"]` may fix the deal. Other names are ignored
  (docs/rules/haymaker.md, "Match options").
- Every problem is an `InvalidOptions` whose message a person can read.
- A dealt match shuffles the 40 cards with `Chance(seed, "haymaker/setup")`, deals 10 to
  each seat, burns 4 and leaves 16 to draw, then flips the coin for the first attacker
  from the same stream; a fixed deal without "first" flips it from the stream's start.
- Pure: imports the standard library, `games.engine.core` and this package's `cards`
  and `state`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.core import Chance, InvalidOptions, Option
from games.engine.haymaker.cards import ALL_CARDS, CARD_COUNT, parse
from games.engine.haymaker.state import DISCARD_RULES, DISCARDS_TOGETHER, Hand, HaymakerState

HAND_SIZE = 10
BURNED = 4

DISCARDS = Option(
    "discards",
    DISCARDS_TOGETHER,
    "Where the cards played in a turn go: all to the one pile the rules name, or each "
    "player's to their own pile.",
    choices=DISCARD_RULES,
)
OPTIONS = (DISCARDS,)


def new_state(seats: int, seed: bytes, options: Mapping[str, Any] | None) -> HaymakerState:
    if seats != 2:
        raise InvalidOptions("Haymaker is played by exactly two players.")
    options = options or {}
    if not isinstance(options, Mapping):
        raise InvalidOptions("Haymaker's options are a JSON object.")
    discard_rule = options.get(DISCARDS.name, DISCARDS.default)
    if discard_rule not in DISCARDS.choices:
        raise InvalidOptions('The "discards" option is "together" or "own".')
    chance = Chance(seed, "haymaker/setup")
    first: int | None = None
    if "deal" in options:
        hands, burned, deck, first = parse_deal(options["deal"])
    else:
        order = chance.shuffle(ALL_CARDS)
        hands = (tuple(sorted(order[:HAND_SIZE])), tuple(sorted(order[HAND_SIZE : 2 * HAND_SIZE])))
        burned = tuple(order[2 * HAND_SIZE : 2 * HAND_SIZE + BURNED])
        deck = tuple(order[2 * HAND_SIZE + BURNED :])
    if first is None:
        first = chance.randbelow(2)
    return HaymakerState(
        hands=hands,
        revealed=(0, 0),
        deck=deck,
        burned=burned,
        discards=((), ()),
        table=(),
        attacker=first,
        attacked_last=False,
        turn=1,
        ply=0,
        last=None,
        result=None,
        seed=bytes(seed),
        discard_rule=discard_rule,
    )


DEAL_HELP = (
    'A Haymaker deal is {"deck": [40 card names]} (dealt 10, 10, 4 burned, 16 to draw) or '
    '{"hands": [[...], [...]], "burned": [...], "deck": [...]}, with an optional "first": 0 or 1.'
)


def parse_deal(deal: Any) -> tuple[tuple[Hand, Hand], Hand, Hand, int | None]:
    """(hands, burned, draw pile, first attacker or None) from `options["deal"]`."""
    if not isinstance(deal, Mapping) or "deck" not in deal:
        raise InvalidOptions(DEAL_HELP)
    first = deal.get("first")
    if first is not None and (type(first) is not int or first not in (0, 1)):
        raise InvalidOptions('The "first" attacker of a Haymaker deal is seat 0 or 1.')
    deck = _deal_cards(deal["deck"], "deck")
    if "hands" not in deal:
        if len(deck) != CARD_COUNT:
            raise InvalidOptions(f"A Haymaker deck has all 40 cards, not {len(deck)}. {DEAL_HELP}")
        hands = (
            tuple(sorted(deck[:HAND_SIZE])),
            tuple(sorted(deck[HAND_SIZE : 2 * HAND_SIZE])),
        )
        return (
            hands,
            deck[2 * HAND_SIZE : 2 * HAND_SIZE + BURNED],
            deck[2 * HAND_SIZE + BURNED :],
            first,
        )
    raw_hands = deal["hands"]
    if not isinstance(raw_hands, list | tuple) or len(raw_hands) != 2:
        raise InvalidOptions("A Haymaker deal has exactly two hands.")
    hands = (
        tuple(sorted(_deal_cards(raw_hands[0], "first hand"))),
        tuple(sorted(_deal_cards(raw_hands[1], "second hand"))),
    )
    if not hands[0] or not hands[1]:
        raise InvalidOptions("Each hand of a Haymaker deal needs at least one card.")
    burned = _deal_cards(deal.get("burned", []), "burned cards")
    placed = hands[0] + hands[1] + burned + deck
    if len(set(placed)) != len(placed):
        raise InvalidOptions("A card appears twice in the Haymaker deal.")
    if len(placed) != CARD_COUNT:
        raise InvalidOptions(
            f"A Haymaker deal places all 40 cards exactly once, not {len(placed)}. {DEAL_HELP}"
        )
    return hands, burned, deck, first


def _deal_cards(raw: Any, where: str) -> Hand:
    cards = parse(raw)
    if isinstance(cards, str):
        raise InvalidOptions(f"In the deal's {where}: {cards}")
    return cards
