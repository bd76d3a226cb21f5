"""High Card on the page: its presenter, the decoder of its own form, its outcome phrase."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from games.boards.base import BoardPresenter
from games.engine.core import Event
from games.errors import BadMove


def describe(event: Event, names: Sequence[str]) -> str:
    data = event.data
    if event.type == "drawn":
        return f"{names[data['seat']]} draws {data['card']}."
    if event.type == "round":
        if data["seat"] is None:
            return "Equal cards: nobody takes the round."
        return f"{names[data['seat']]} takes the round."
    return event.type.replace("_", " ")


def form_move(post: Any) -> dict[str, Any]:
    """The board's one button, `draw`."""
    if "draw" not in post:
        raise BadMove("Press Draw to draw a card.")
    return {"type": "draw"}


BOARD = BoardPresenter(
    slug="highcard",
    folder=Path(__file__).parent,
    template="games/highcard/board.jinja",
    describe=describe,
    tagline="Draw a card; the higher one takes the round. Best of five.",
    stylesheet="",
    outcome_phrases={
        "best_of_five": ("three rounds first", "they took three rounds first", "best of five"),
    },
    form_move=form_move,
)
