"""Refusals of chat, reports and sanctions: each carries a message a person can read and
the HTTP status a view answers with. Anything else escaping a service is a bug."""

from __future__ import annotations


class CommunityError(Exception):
    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ChatRefused(CommunityError):
    pass


class NotAllowed(CommunityError):
    status = 403


class NotFound(CommunityError):
    status = 404


class TooFast(CommunityError):
    status = 429
