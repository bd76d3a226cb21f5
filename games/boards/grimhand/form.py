"""Grimhand Arcana's own move forms: playing an ability card (with its target) and
reordering the cards a Scrying Orb showed.

Every other Grimhand button posts its move as JSON in the "move" field (read by the
view, not here). Every value is read by config.inputs; the move goes to the engine as it
is, which decides whether it is legal and says why not.

- Play: `arcana=play`, `card` (an ability card id), `target` for cards that need one:
  a deck ("attack" or "defense") or a card of the hand ("attack:5").
- Scrying Orb: `arcana=scry`, `place0`, `place1`, ... : for each new position, top first,
  the position (0-based, top first) of the card seen that goes there.
"""

from __future__ import annotations

from typing import Any

from config import inputs
from games.errors import BadMove

ACTIONS = ("play", "scry")
DECKS = ("attack", "defense")
CARD_CHARS = 40
MAX_SCRY = 5
STALE = "That button does not make a move here. Reload the page and try again."


def form_move(post: Any) -> dict[str, Any]:
    """The move of a posted Arcana form."""
    action = post.get("arcana")
    if action is None:  # no move at all: the same answer as any board's empty "move" field
        return inputs.json_document(post.get("move", ""), what="The move", max_length=4096)
    if action not in ACTIONS:
        raise BadMove(STALE)
    if action == "scry":
        return {"type": "choose", "order": _order(post)}
    card = inputs.text(post.get("card"), what="The ability card", max_length=CARD_CHARS)
    if not card:
        raise BadMove("Pick the ability card to play.")
    move: dict[str, Any] = {"type": "play", "card": card}
    target = inputs.text(post.get("target"), what="The target", max_length=16)
    if target:
        deck, _, value = target.partition(":")
        if deck not in DECKS:
            raise BadMove("Pick the attack or the defense deck, or a card of your hand.")
        move["deck"] = deck
        if value:
            move["value"] = inputs.whole_number(value, what="The card's value", maximum=99)
    return move


def _order(post: Any) -> list[int]:
    order = []
    for place in range(MAX_SCRY):
        raw = post.get(f"place{place}")
        if raw is None:
            break
        order.append(
            inputs.whole_number(
                raw, what=f"The card for position {place + 1}", maximum=MAX_SCRY - 1
            )
        )
    if not order:
        raise BadMove("Choose the new order of the cards you saw.")
    return order
