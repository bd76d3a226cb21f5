"""Domain errors of the match lifecycle. Each carries a message a player can read and the
HTTP status a view should answer with; anything else escaping a service is a bug."""

from __future__ import annotations


class MatchError(Exception):
    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BadMove(MatchError):
    """A malformed move payload (not a JSON object with a "type")."""


class OffScript(BadMove):
    """A tutorial's player left the coach's script: the move is taken back, explained."""

    status = 409


class InvalidMove(MatchError):
    """The engine refused the move (IllegalMove)."""

    status = 422


class NotSeated(MatchError):
    status = 403


class MatchNotFound(MatchError):
    status = 404


class NotYourTurn(MatchError):
    status = 409


class StaleMove(MatchError):
    status = 409


class MatchFinished(MatchError):
    status = 409


class MatchNotStarted(MatchError):
    status = 409


class SeatUnavailable(MatchError):
    status = 409


class CannotCreate(MatchError):
    pass


class MatchPaused(MatchError):
    status = 409


class TimeRanOut(MatchError):
    """A move came after its seat's deadline: the match was settled on time instead."""

    status = 409


class LimitReached(MatchError):
    """Too many correspondence matches at once for this player's record."""

    status = 409


class DeckRefused(MatchError):
    """The deck a player brought was refused by where decks come from (`games.decks`): not
    theirs, or no longer legal. Carries that source's message and status."""

    def __init__(self, message: str, *, status: int = 400) -> None:
        super().__init__(message)
        self.status = status
