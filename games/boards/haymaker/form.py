"""Haymaker's move form: the cards checked (`cards`) and the button pressed (`action`).

Every value is read by config.inputs; the move goes to the engine as it is, which decides
whether it is legal.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from config import inputs
from games.errors import BadMove

CARD_CHARS = 16
# Buttons that play no cards, whatever is checked ("take the hit" and "pass").
CARDLESS_ACTIONS = frozenset({"pass", "take_hit"})
ACTION_SHAPE = re.compile(r"[a-z_]{1,32}")


def card_move(action: str, cards: Sequence[str]) -> dict[str, Any]:
    """The move of the button `action` pressed with `cards` checked."""
    if not ACTION_SHAPE.fullmatch(action):
        raise BadMove("That button does not make a move here. Reload the page and try again.")
    if action in CARDLESS_ACTIONS:
        return {"type": action}
    return {"type": action, "cards": list(cards)}


def checked_cards(values: list[str]) -> list[str]:
    return inputs.texts(values, what="cards", max_length=CARD_CHARS)


def form_move(post: Any) -> dict[str, Any]:
    """The move of a posted card form."""
    action = inputs.text(post.get("action"), what="The button", max_length=32)
    return card_move(action, checked_cards(post.getlist("cards")))
