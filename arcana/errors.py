"""Domain errors of Arcana's collection and decks: each carries a message a player reads.
Views turn them into a 4xx fragment or a flash message; nothing is written when one is
raised."""

from __future__ import annotations

from collections.abc import Sequence


class ArcanaError(Exception):
    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotFound(ArcanaError):
    status = 404


class NotOwned(ArcanaError):
    status = 403


class NotEnoughShards(ArcanaError):
    status = 409


class DeckRefused(ArcanaError):
    """A deck that breaks rules: `problems` lists every one, as sentences."""

    status = 422

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__(" ".join(problems))
        self.problems = list(problems)
