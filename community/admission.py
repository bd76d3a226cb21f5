"""A banned player may not start or join a match: a check in games' admission registry
(games.admission, which games asks before it seats players together)."""

from __future__ import annotations

import importlib.util
from typing import Any

from django.utils import timezone


def banned_refusal(*, user: Any, others: Any = ()) -> str | None:
    """A banned `user` is told why and until when; a table whose other player is banned
    is refused without the reason (it is theirs to know)."""
    from accounts.names import display_name
    from community import selectors

    ban = selectors.sanction_active(user_id=user.pk, kind="ban")
    if ban is not None:
        until = timezone.localtime(ban.expires).strftime("%d %b %Y, %H:%M")
        return f"You are banned from playing until {until}: {ban.reason}"
    for other in others:
        if selectors.is_banned(user_id=other.pk):
            return f"{display_name(other)} cannot play right now."
    return None


def register_checks() -> None:
    if importlib.util.find_spec("games.admission") is None:
        return  # no registry in this checkout: nothing to refuse through
    from games import admission

    admission.register(banned_refusal)
