"""BaniraCards' move form: the card radio checked, then a slot button plays it there and the
"discard" button discards it. (Its other buttons post their move as JSON in `move`.)

Every value is read by config.inputs; the engine decides whether the move is legal.
"""

from __future__ import annotations

from typing import Any

from config import inputs
from games.engine.banira.cards import ID_LENGTH
from games.errors import BadMove

CARD_CHARS = ID_LENGTH  # the longest card id (a copy's "#2" included); slot names are shorter


def form_move(post: Any) -> dict[str, Any]:
    card = inputs.text(post.get("card"), what="The card", max_length=CARD_CHARS)
    if not card:
        raise BadMove("Pick a card from your hand first, then a slot.")
    if "discard" in post:
        return {"type": "discard", "card": card}
    slot = inputs.text(post.get("slot"), what="The slot", max_length=CARD_CHARS)
    return {"type": "play", "card": card, "slot": slot}
