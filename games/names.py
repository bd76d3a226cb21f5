"""A player's shown name, wherever `games` shows a seat.

The account app stands above `games` and says how a name is found (a display name, else the
username: `accounts.names.display_name`); it registers that here from its AppConfig.ready,
so `games` imports nothing of it. Until then, and in a project without it, the username.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_name_of: Callable[[Any], str] | None = None


def name_of_register(name_of: Callable[[Any], str]) -> None:
    """Show every player by `name_of(user)`. Registering again replaces it."""
    global _name_of
    _name_of = name_of


def player_name(user: Any) -> str:
    """`user`'s name as a board, a list or a notice shows it."""
    return _name_of(user) if _name_of is not None else user.get_username()
