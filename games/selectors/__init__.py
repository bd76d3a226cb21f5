"""Every read of the games app. Nothing here writes.

matches: one match, from its move log (the replayed state, cached by ply), the board and
log a seat may see, clocks, the outcome's wording · lists: a player's matches, open and
live tables, reliability, the correspondence load.
"""

from games.selectors.lists import (
    BASE_CAP,
    MAX_CAP,
    Load,
    Reliability,
    correspondence_load,
    live_matches,
    matches_for_user,
    open_matches,
    reliability,
    turn_count_for,
)
from games.selectors.matches import (
    LoggedMove,
    Replayed,
    board_version,
    can_view,
    clocks,
    log_lines,
    match_board,
    match_game,
    match_get,
    match_remember,
    match_replay,
    opponent_names,
    outcome_text,
    rematch_of,
    seat_names,
    seat_of,
    socket_group_for,
    with_recorded_outcome,
)

__all__ = [
    "BASE_CAP",
    "MAX_CAP",
    "Load",
    "LoggedMove",
    "Reliability",
    "Replayed",
    "board_version",
    "can_view",
    "clocks",
    "correspondence_load",
    "live_matches",
    "log_lines",
    "match_board",
    "match_game",
    "match_get",
    "match_remember",
    "match_replay",
    "matches_for_user",
    "open_matches",
    "opponent_names",
    "outcome_text",
    "reliability",
    "rematch_of",
    "seat_names",
    "seat_of",
    "socket_group_for",
    "turn_count_for",
    "with_recorded_outcome",
]
