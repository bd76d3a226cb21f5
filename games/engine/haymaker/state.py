"""A Haymaker position, and how a match starts: the deal and the match options.

Invariants:
- Every one of the 40 cards is in exactly one place: a hand, the draw pile, the burned
  cards, a discard pile, or the attack on the table.
- Hands are sorted tuples of card ids (by suit, then rank); the draw pile is drawn from
  its front; discard piles keep the order cards were added. The state is never mutated:
  `apply` builds a new one and shares every tuple it did not change.
- `table` holds the attack waiting for the defender's answer; it is empty while the
  attacker is to act. `attacked_last` says the attacker attacked (normal or haymaker) in
  the previous turn and still attacks, which is when a pass is allowed.
- `revealed[s]` is a bit mask of the cards in seat s's hand that both players know are
  there: cards s received in a hit. It is always a subset of s's hand.
- `seed` keys the chance stream of the hits (label "haymaker/hit/<ply>"); it never leaves
  the engine. `result` is the Outcome once the match is over, else None.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.chance import Chance
from games.engine.core import InvalidOptions, Outcome
from games.engine.haymaker.cards import ALL_CARDS, CARD_COUNT, parse

HAND_SIZE = 10
BURNED = 4
DISCARDS_TOGETHER = "together"  # all the cards played in a turn go to one pile
DISCARDS_OWN = "own"  # each player's played cards go to their own pile
DISCARD_RULES = (DISCARDS_TOGETHER, DISCARDS_OWN)

Hand = tuple[int, ...]


class HaymakerState:
    """One position. Immutable by convention: `apply` builds a new one."""

    __slots__ = (
        "hands",
        "revealed",
        "deck",
        "burned",
        "discards",
        "table",
        "attacker",
        "attacked_last",
        "turn",
        "ply",
        "last",
        "result",
        "seed",
        "discard_rule",
    )

    def __init__(
        self,
        hands: tuple[Hand, Hand],
        revealed: tuple[int, int],
        deck: Hand,
        burned: Hand,
        discards: tuple[Hand, Hand],
        table: Hand,
        attacker: int,
        attacked_last: bool,
        turn: int,
        ply: int,
        last: dict[str, Any] | None,
        result: Outcome | None,
        seed: bytes,
        discard_rule: str,
    ) -> None:
        self.hands = hands
        self.revealed = revealed
        self.deck = deck
        self.burned = burned
        self.discards = discards
        self.table = table
        self.attacker = attacker
        self.attacked_last = attacked_last
        self.turn = turn
        self.ply = ply
        self.last = last
        self.result = result
        self.seed = seed
        self.discard_rule = discard_rule

    def replace(self, **changes: Any) -> HaymakerState:
        """A copy with some fields changed (spelled out: this is on every move's path)."""
        get = changes.get
        return HaymakerState(
            get("hands", self.hands),
            get("revealed", self.revealed),
            get("deck", self.deck),
            get("burned", self.burned),
            get("discards", self.discards),
            get("table", self.table),
            get("attacker", self.attacker),
            get("attacked_last", self.attacked_last),
            get("turn", self.turn),
            get("ply", self.ply),
            get("last", self.last),
            get("result", self.result),
            get("seed", self.seed),
            get("discard_rule", self.discard_rule),
        )

    def _key(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HaymakerState):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.hands, self.deck, self.table, self.ply))

    def __repr__(self) -> str:
        sizes = tuple(len(hand) for hand in self.hands)
        return (
            f"HaymakerState(ply={self.ply}, turn={self.turn}, attacker={self.attacker}, "
            f"hands={sizes}, deck={len(self.deck)}, table={len(self.table)})"
        )


def new_state(seats: int, seed: bytes, options: Mapping[str, Any] | None) -> HaymakerState:
    if seats != 2:
        raise InvalidOptions("Haymaker is played by exactly two players.")
    options = options or {}
    if not isinstance(options, Mapping):
        raise InvalidOptions("Haymaker's options are a JSON object.")
    discard_rule = options.get("discards", DISCARDS_TOGETHER)
    if discard_rule not in DISCARD_RULES:
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
