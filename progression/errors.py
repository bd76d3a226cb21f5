"""Domain errors of progression: each carries a message a player can read.

They extend games.errors.MatchError, the project's one base of "a domain error with a
message and an HTTP status", so views and tests treat every domain error alike.
"""

from __future__ import annotations

from games.errors import MatchError


class ProgressionError(MatchError):
    status = 400


class NotFound(ProgressionError):
    status = 404


class AlreadyDone(ProgressionError):
    """Claimed twice, bought twice, rerolled twice today."""

    status = 409


class NotYet(ProgressionError):
    """A tier not reached, a premium track not bought."""

    status = 409


class NotEnoughCoins(ProgressionError):
    status = 409


class NotOwned(ProgressionError):
    status = 403
