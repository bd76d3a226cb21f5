"""Signals the games app sends. Receivers run inside the sending transaction."""

from django.dispatch import Signal

# Sent once when a match ends with a result (not when a waiting table is cancelled), inside
# the transaction that records it, after the match row is saved. Keyword argument: match.
# A receiver that raises rolls the result back, so keep receivers to their own writes.
match_finished = Signal()
