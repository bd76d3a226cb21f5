"""What Arcana hands the lobby: a player's decks for a Grimhand Arcana table.

Registered with `games.decks` in `ArcanaConfig.ready`: the lobby offers the player's decks,
a new table's options come from `services.match_options`, a joining seat's from
`services.join_choice`. Arcana's refusals become the games app's `DeckRefused`, with the
same message and status, so the table views answer them as any other refusal.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from arcana import selectors, services
from arcana.errors import ArcanaError
from games.decks import DeckSource
from games.errors import DeckRefused

Answer = TypeVar("Answer")


def _refusals_as_deck_refused(write: Callable[..., Answer]) -> Callable[..., Answer]:
    @wraps(write)
    def answer(**kwargs: Any) -> Answer:
        try:
            return write(**kwargs)
        except ArcanaError as error:
            raise DeckRefused(error.message, status=error.status) from error

    return answer


def deck_choices(*, user: Any) -> list[tuple[int, str]]:
    return [(deck.pk, deck.name) for deck in selectors.decks_for(user=user)]


DECKS = DeckSource(
    choices=deck_choices,
    match_options=_refusals_as_deck_refused(services.match_options),
    join_options=_refusals_as_deck_refused(services.join_choice),
)
