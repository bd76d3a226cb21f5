"""Domain errors of follows, blocks and challenges: each carries a message a player can
read and the HTTP status a view answers with."""

from __future__ import annotations


class SocialError(Exception):
    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NoSuchPlayer(SocialError):
    status = 404


class NotWithYourself(SocialError):
    """Following, blocking or challenging oneself."""


class Blocked(SocialError):
    """A block between the two players stands in the way."""

    status = 409
