"""Signals the games app sends. Receivers run inside the sending transaction."""

from django.dispatch import Signal

# Sent once when a match ends with a result (not when a waiting table is cancelled), inside
# the transaction that records it, after the match row is saved. Keyword argument: match.
# A receiver that raises rolls the result back, so keep receivers to their own writes.
match_finished = Signal()

# Sent when a seat's turn (and its clock) starts, inside the transaction that started it,
# after the seat is saved: keyword arguments seat and match. Reminders (inbox) listen and
# schedule their work with transaction.on_commit.
turn_started = Signal()

# Sent when a seat's turn ends (it moved, or the match moved on or ended), inside that
# transaction: keyword arguments seat and match.
turn_ended = Signal()

# Sent when a named player is invited to a seat (a new table or a rematch), inside the
# transaction that created the seat: keyword arguments seat and match.
seat_invited = Signal()

# Sent when a player asks to pause and others still have to agree, inside the transaction
# that recorded the request: keyword arguments match and seat (the one asking).
pause_requested = Signal()
