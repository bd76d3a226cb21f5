"""Domain errors of a player's account. Each carries a message a player can read; a view
shows it (the profile page's messages) and answers as usual."""

from __future__ import annotations


class AccountError(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class VacationRefused(AccountError):
    """A vacation that cannot start or end as asked (days out of range, none running)."""


class SoundRefused(AccountError):
    """A sound setting out of range (the volume is 0 to 100)."""
