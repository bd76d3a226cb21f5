"""Limits of the Bot API, per token and per account (docs/bot-api.md, "Limits")."""

from __future__ import annotations

from typing import Any


def check_matches(*, user: Any) -> None:
    """Concurrent matches: not yet limited beyond the site's own cap on timed matches."""
