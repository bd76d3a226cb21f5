"""The one way match results reach ratings: games.signals.match_finished.

The signal is sent inside the transaction that records the result, with the match row
locked, so the rating change commits or rolls back with the result itself.
"""

from __future__ import annotations

import logging
from typing import Any

from ratings import services

logger = logging.getLogger(__name__)


def rate_finished_match(sender: Any, *, match: Any, **kwargs: Any) -> None:
    """Rate `match` (a no-op for unrated matches and for a match already rated).

    A failure here is logged and rolled back to its own savepoint (match_rate's atomic
    block), never raised: a bug in ratings must not undo the move that ended a match. The
    match then stays unrated until `manage.py ratings_backfill` rates it.
    """
    try:
        services.match_rate(match_id=match.pk)
    except Exception:
        logger.exception("Rating match %s failed; it stays unrated for now.", match.pk)
