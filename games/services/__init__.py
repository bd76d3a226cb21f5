"""Every write to a match goes through here.

Lock order and preconditions: each write opens one transaction, locks the Match row
(`select_for_update`), re-reads what it checks, writes, and schedules its side effects with
`transaction.on_commit` (socket pushes, automatic moves). The unique (match, ply)
constraint backs the lock: no ply is ever applied twice. A finished match sends
`games.signals.match_finished` inside that transaction (ratings, XP and quests listen).

tables: create, join, fill with AI, cancel · moves: submit, resign · automation: the AI and
auto-play seats.
"""

from games.services._shared import AI_LEVELS, FORFEIT, TUTOR, MoveResult
from games.services.automation import automation_paused, automation_run, seat_set_autoplay
from games.services.moves import MAX_MOVE_BYTES, match_resign, move_submit
from games.services.tables import (
    OPPONENTS,
    SeatSpec,
    match_cancel,
    match_create,
    match_fill_with_ai,
    match_join,
    tutorial_start,
)

__all__ = [
    "AI_LEVELS",
    "FORFEIT",
    "MAX_MOVE_BYTES",
    "OPPONENTS",
    "TUTOR",
    "MoveResult",
    "SeatSpec",
    "automation_paused",
    "automation_run",
    "match_cancel",
    "match_create",
    "match_fill_with_ai",
    "match_join",
    "match_resign",
    "move_submit",
    "seat_set_autoplay",
    "tutorial_start",
]
