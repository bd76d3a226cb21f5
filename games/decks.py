"""Decks a player brings to a table: which they may pick, and what a pick makes of the
table's options (Grimhand Arcana's today).

Arcana's decks are the Arcana app's (a player's collection and deck builder), which stands
above `games`: it registers a `DeckSource` here from its AppConfig.ready, and `games`
imports nothing of it. With no source, a table offers no deck, and every seat plays the
house's archetype deck. A source refuses a deck with `games.errors.DeckRefused`, and writes
nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class DeckSource:
    # (user=...) -> [(deck id, name)]: the decks `user` may bring.
    choices: Callable[..., list[tuple[int, str]]]
    # (user=, deck_id=, is_rated=) -> the options of a new table created by `user`.
    match_options: Callable[..., dict[str, Any]]
    # (user=, match_id=, deck_id=) -> the joining seat's own options, or None (no deck).
    join_options: Callable[..., dict[str, Any] | None]


_source: DeckSource | None = None


def source_register(source: DeckSource) -> None:
    """Take decks from `source`. Registering again replaces it (`ready` may run twice)."""
    global _source
    _source = source


def choices(*, user: Any) -> list[tuple[int, str]]:
    return _source.choices(user=user) if _source is not None else []


def match_options(*, user: Any, deck_id: int | None, is_rated: bool) -> dict[str, Any] | None:
    """A new table's options with `user`'s deck; None: the game's defaults (no source)."""
    if _source is None:
        return None
    return _source.match_options(user=user, deck_id=deck_id, is_rated=is_rated)


def join_options(*, user: Any, match_id: int, deck_id: int | None) -> dict[str, Any] | None:
    """The joining seat's own options with the deck `deck_id`; None: nothing of its own."""
    if _source is None:
        return None
    return _source.join_options(user=user, match_id=match_id, deck_id=deck_id)
