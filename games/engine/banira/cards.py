"""BaniraCards' vocabulary: elements, types, rarities, field slots, and the cards of a deck.

Invariants:
- A deck is plain data: a list of 50 card dicts with exactly the keys of `CARD_KEYS`
  (docs/rules/banira.md, "The deck as data"). `parse_deck` validates it into `Card`s and
  raises `InvalidOptions` with a message a person can read; nothing else reads raw dicts.
- Inside the engine a card is its position in the validated deck (an int); ids, the
  strings players and logs use, are unique within a deck.
- The ten field slots have fixed indexes: 0-6 the seven elements in the page's order,
  7 Sun, 8 Moon, 9 Flex. A card fits its element's slot, its type's slot (Star has none)
  and Flex: `Card.fits` lists those indexes, always three or two of them.
- Rarity codes order the stacking ladder: rainbow 0 > gold 1 > silver 2 > bronze 3; shiny
  (4) is wild. `ACCEPTS[top][card]` says whether `card` may be stacked onto `top`.
- Pure data, and its validation. Pure: imports the standard library and
  `games.engine.core` only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.core import InvalidOptions

ELEMENTS = ("aquamarine", "amethyst", "ruby", "topaz", "emerald", "sapphire", "diamond")
TYPES = ("sun", "moon", "star")
RARITIES = ("rainbow", "gold", "silver", "bronze", "shiny")
RAINBOW, GOLD, SILVER, BRONZE, SHINY = range(5)

SLOTS = ELEMENTS + ("sun", "moon", "flex")
SLOT_INDEX = {name: index for index, name in enumerate(SLOTS)}
SLOT_COUNT = len(SLOTS)
SUN_SLOT, MOON_SLOT, FLEX_SLOT = 7, 8, 9
ALL_SLOTS_MASK = (1 << SLOT_COUNT) - 1
SLOT_LABELS = tuple(name.capitalize() for name in SLOTS)

# Stamina to stack onto a card, by the rarity of the top card (the rules' list).
STACK_COST = (0, 3, 6, 9, 4)
SCORE_PER_PLAY = 8
SCORE_PER_SHINY_PLAY = 4


def _accepts(top: int, card: int) -> bool:
    if top == SHINY or card == SHINY:
        return True  # a shiny is wild on either side: it restarts a stack, and goes anywhere
    return card > top  # only onto a higher rarity: rainbow > gold > silver > bronze


ACCEPTS = tuple(tuple(_accepts(top, card) for card in range(5)) for top in range(5))
ACCEPTED_RARITIES = tuple(
    tuple(RARITIES[card] for card in range(5) if ACCEPTS[top][card]) for top in range(5)
)

DECK_SIZE = 50
CARD_KEYS = ("id", "name", "element", "type", "rarity", "points", "stamina", "draws")
STAT_KEYS = ("points", "stamina", "draws")
STAT_LIMIT = 20  # a stat is a whole number from -20 to 20
ID_LENGTH = 40
NAME_LENGTH = 60


class Card:
    """One card of the deck, validated. Immutable by convention."""

    __slots__ = (
        "index",
        "id",
        "name",
        "element",
        "type",
        "rarity",
        "points",
        "stamina",
        "draws",
        "fits",
        "score_gain",
        "_json",
    )

    def __init__(
        self,
        index: int,
        card_id: str,
        name: str,
        element: int,
        card_type: int,
        rarity: int,
        points: int,
        stamina: int,
        draws: int,
    ) -> None:
        self.index = index
        self.id = card_id
        self.name = name
        self.element = element
        self.type = card_type
        self.rarity = rarity
        self.points = points
        self.stamina = stamina
        self.draws = draws
        type_slot = (SUN_SLOT, MOON_SLOT, None)[card_type]
        self.fits = tuple(slot for slot in (element, type_slot, FLEX_SLOT) if slot is not None)
        self.score_gain = SCORE_PER_SHINY_PLAY if rarity == SHINY else SCORE_PER_PLAY
        self._json = {
            "id": card_id,
            "name": name,
            "element": ELEMENTS[element],
            "type": TYPES[card_type],
            "rarity": RARITIES[rarity],
            "points": points,
            "stamina": stamina,
            "draws": draws,
        }

    def to_json(self) -> dict[str, Any]:
        """The card as the deck list spells it (a fresh copy every time: views own theirs)."""
        return dict(self._json)

    def _key(self) -> tuple[Any, ...]:
        return (self.index, self.id, self.name, self.element, self.type, self.rarity) + (
            self.points,
            self.stamina,
            self.draws,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        stats = f"{self.points}/{self.stamina}/{self.draws}"
        return f"Card({self.id!r}, {RARITIES[self.rarity]}, {stats})"


DECK_HELP = (
    f"A BaniraCards deck is a list of {DECK_SIZE} cards, each "
    '{"id": "r1", "name": "Ruby Dawn", "element": "ruby", "type": "sun", "rarity": "gold", '
    '"points": 3, "stamina": 3, "draws": 2}.'
)


def parse_deck(raw: Any) -> tuple[Card, ...]:
    """The validated cards of a deck list, in the list's order."""
    if not isinstance(raw, list | tuple):
        raise InvalidOptions(DECK_HELP)
    if len(raw) != DECK_SIZE:
        raise InvalidOptions(f"A BaniraCards deck has exactly {DECK_SIZE} cards, not {len(raw)}.")
    cards = tuple(_parse_card(index, entry) for index, entry in enumerate(raw))
    seen: set[str] = set()
    for card in cards:
        if card.id in seen:
            raise InvalidOptions(
                f"Two cards of the deck have the id “{card.id}”: ids must be unique "
                '(give each copy of a card its own id, like "r1#2").'
            )
        seen.add(card.id)
    return cards


def _parse_card(index: int, entry: Any) -> Card:
    where = f"Card {index + 1} of the deck"
    if not isinstance(entry, Mapping):
        raise InvalidOptions(f"{where} is not a card. {DECK_HELP}")
    if isinstance(entry.get("name"), str) and entry["name"].strip():
        where = f"{where} (“{entry['name']}”)"
    for key in entry:
        if key not in CARD_KEYS:
            raise InvalidOptions(f"{where} has an unknown field “{key}”. {DECK_HELP}")
    for key in CARD_KEYS:
        if key not in entry:
            raise InvalidOptions(f"{where} has no “{key}”. {DECK_HELP}")
    card_id = _text(entry["id"], ID_LENGTH, f"{where}: the id")
    name = _text(entry["name"], NAME_LENGTH, f"{where}: the name")
    element = _choice(entry["element"], ELEMENTS, f"{where}: the element")
    card_type = _choice(entry["type"], TYPES, f"{where}: the type")
    rarity = _choice(entry["rarity"], RARITIES, f"{where}: the rarity")
    stats = []
    for key in STAT_KEYS:
        value = entry[key]
        if type(value) is not int or not -STAT_LIMIT <= value <= STAT_LIMIT:
            raise InvalidOptions(
                f"{where}: “{key}” must be a whole number from -{STAT_LIMIT} to {STAT_LIMIT}, "
                f"not {value!r}."
            )
        stats.append(value)
    return Card(index, card_id, name, element, card_type, rarity, stats[0], stats[1], stats[2])


def _text(value: Any, limit: int, what: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise InvalidOptions(f"{what} must be a non-empty text of at most {limit} characters.")
    return value


def _choice(value: Any, allowed: tuple[str, ...], what: str) -> int:
    if not isinstance(value, str) or value not in allowed:
        shown = value if isinstance(value, str) else repr(value)
        raise InvalidOptions(f"{what} must be one of {', '.join(allowed)}, not “{shown}”.")
    return allowed.index(value)
