"""Every write to a match goes through here.

Lock order and preconditions: each write opens one transaction, locks the Match row
(`select_for_update`), re-reads what it checks, writes, and schedules its side effects with
`games.effects` (what follows the change, in order: ratings and progression inside the
transaction; pushes, the AI task and inbox notices after the commit). The unique (match,
ply) constraint backs the lock: no ply is ever applied twice.

tables: create, join, fill with AI, cancel, rematch · clock: time controls, pauses,
timeouts, deadlines shifted for a vacation · moves: submit, resign · automation: the AI and
auto-play seats · pairing: quick pairing's seeks (docs/lobby.md).
"""

from games.services import adjudication, clock, pairing, timeouts
from games.services._shared import FORFEIT, TUTOR, MoveResult
from games.services.automation import automation_paused, automation_run, seat_set_autoplay
from games.services.clock import (
    TIME_CONTROLS,
    deadlines_shift,
    match_pause_request,
    match_pause_withdraw,
    match_resume,
)
from games.services.moves import (
    MAX_MOVE_BYTES,
    match_resign,
    match_settle_overdue,
    move_submit,
)
from games.services.tables import (
    OPPONENTS,
    SeatSpec,
    match_cancel,
    match_create,
    match_fill_with_ai,
    match_join,
    match_join_by_link,
    match_rematch,
    tutorial_start,
)

__all__ = [
    "adjudication",
    "FORFEIT",
    "MAX_MOVE_BYTES",
    "OPPONENTS",
    "TIME_CONTROLS",
    "TUTOR",
    "MoveResult",
    "SeatSpec",
    "automation_paused",
    "automation_run",
    "clock",
    "deadlines_shift",
    "match_cancel",
    "match_create",
    "match_fill_with_ai",
    "match_join",
    "match_join_by_link",
    "pairing",
    "timeouts",
    "match_pause_request",
    "match_pause_withdraw",
    "match_rematch",
    "match_resume",
    "match_settle_overdue",
    "match_resign",
    "move_submit",
    "seat_set_autoplay",
    "tutorial_start",
]
