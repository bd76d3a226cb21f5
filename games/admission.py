"""Who may sit down with whom: a registry of checks other apps add to (docs/social.md).

games never imports the apps that decide this (social imports games, not the other way
round): each such app registers a check when it starts (`AppConfig.ready`), and the games
services ask `refusal` before they seat players together. A check is

    check(*, user, others) -> str | None

`user` is the player acting (creating a table, joining one, being paired), `others` the
players they would sit with (possibly none: a table against the AI). It answers a reason a
player can read, or None to let them play. The first reason found is the answer; no check may write.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

Check = Callable[..., "str | None"]

_checks: list[Check] = []


def register(check: Check) -> Check:
    """Add `check` (once: registering it again changes nothing). Returns it, so it can be
    used as a decorator."""
    if check not in _checks:
        _checks.append(check)
    return check


def unregister(check: Check) -> None:
    if check in _checks:
        _checks.remove(check)


def refusal(*, user: Any, others: Iterable[Any] = ()) -> str | None:
    """The reason `user` may not play (alone, or with `others`), or None. Every check is
    asked, even with nobody else at the table (a banned player may not play the AI either);
    absent players (None: AI and open seats) and `user` themself are left out of `others`."""
    if user is None:
        return None
    others = [other for other in others if other is not None and other.pk != user.pk]
    for check in _checks:
        reason = check(user=user, others=others)
        if reason:
            return reason
    return None
