"""Errors of the Bot API, each with a status and a message a person can read."""

from __future__ import annotations


class ApiError(Exception):
    status = 400

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class TokenRefused(ApiError):
    status = 401


class ScopeMissing(ApiError):
    status = 403


class TooMany(ApiError):
    """A limit of the token or the account (rate, matches, streams): 429 with Retry-After."""

    status = 429

    def __init__(self, message: str, *, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class NotFound(ApiError):
    status = 404
