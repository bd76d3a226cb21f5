"""The one place this app reaches the Arcana engine's card rules
(games/engine/grimhand/arcana/cards.py). The engine is the only judge: these functions
return its own messages word for word and never add a rule of their own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from games.engine.core import InvalidOptions
from games.engine.grimhand.arcana.cards import (
    ARCHETYPE_DECKS,
    DECK_RULES,
    DEFAULT_POOL,
    EFFECTS,
    CardDef,
    check_deck,
    rules_text,
    validate_card,
)
from games.engine.grimhand.arcana.state import EDITION

__all__ = [
    "ARCHETYPE_DECKS",
    "DECK_RULES",
    "DEFAULT_POOL",
    "EDITION",
    "EFFECTS",
    "CardDef",
    "card_problem",
    "deck_problems",
    "effect_choices",
    "pool_of",
    "text_of",
]


def effect_choices() -> list[tuple[str, str]]:
    """The engine's effect registry as form choices (read at each form build)."""
    return [(key, key.replace("_", " ").capitalize()) for key in sorted(EFFECTS)]


def card_problem(card: Mapping[str, Any]) -> str | None:
    """The engine's objection to a card definition (its InvalidOptions message), or None."""
    try:
        validate_card(card)
    except InvalidOptions as error:
        return error.message
    return None


def text_of(card: Mapping[str, Any]) -> str:
    """The line a player reads: the card's own text, else the engine's for its effect
    (empty while the card is not valid)."""
    try:
        definition = validate_card(card)
    except InvalidOptions:
        return str(card.get("text") or "")
    return definition.text or rules_text(definition)


def pool_of(cards: Iterable[Mapping[str, Any]]) -> dict[str, CardDef]:
    """The pool the engine plays with, from card dicts; a card it refuses is left out."""
    pool = {}
    for card in cards:
        try:
            definition = validate_card(card)
        except InvalidOptions:
            continue
        pool[definition.id] = definition
    return pool


def deck_problems(card_ids: Sequence[str], pool: Mapping[str, CardDef]) -> list[str]:
    """Every deck rule `card_ids` breaks, as the engine words them; [] when legal."""
    return list(check_deck(list(card_ids), pool))
