"""An outage of one dependency, as this process sees it: fail soft, log once, retry.

Redis (the cache and the channel layer) and the Celery broker are optional for a move: a
move is committed in PostgreSQL, and what Redis holds is rebuilt (cached boards and
positions), healed (pushes: pages poll and re-fetch on reconnect) or swept up later (tasks:
the beat's sweepers). So their callers keep going without them, and an `Outage` keeps that
cheap and quiet:

- the first failure opens the outage and logs one warning;
- while it is open, callers skip the dependency at once (no connection attempt, no
  timeout to wait for): one call is let through every `retry_seconds` to try it again;
- the first success closes it and logs one line: how long it lasted and how many calls
  went without;
- while it stays open, a reminder is logged at most every `remind_seconds`.

So a burst of failures is logged once, not once per call, and when the dependency comes
back it is used again at the next retry, without a restart. One `Outage` per dependency
and process; thread-safe; an event loop may use it too (nothing here blocks).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

logger = logging.getLogger("cardhall.outage")

RETRY_SECONDS = 5.0  # while down, one call in this interval tries the dependency again
REMIND_SECONDS = 60.0  # while down, a reminder in the log at most this often


class Outage:
    """The state of one dependency in this process: up, or down since when."""

    def __init__(
        self,
        name: str,
        *,
        retry_seconds: float = RETRY_SECONDS,
        remind_seconds: float = REMIND_SECONDS,
        on_miss: Callable[[], None] | None = None,
    ) -> None:
        self.name = name
        self.on_miss = on_miss  # called for each call that went without it (a metric)
        self.retry_seconds = retry_seconds
        self.remind_seconds = remind_seconds
        self._lock = threading.Lock()
        self.down_since: float | None = None  # monotonic time of the first failure
        self.up_since = float("-inf")  # monotonic time the last outage ended
        self._next_try = 0.0
        self._next_reminder = 0.0
        self.skipped = 0  # calls that went without the dependency in this outage

    @property
    def is_down(self) -> bool:
        return self.down_since is not None

    def should_skip(self) -> bool:
        """True: the dependency is down and it is not yet time to try it again; the caller
        goes without it (counted). False: call it, then report `failed` or `succeeded`."""
        if self.down_since is None:
            return False
        with self._lock:
            if self.down_since is None:
                return False
            now = time.monotonic()
            if now >= self._next_try:
                self._next_try = now + self.retry_seconds  # this caller tries; others wait
                return False
            self.skipped += 1
        self._missed()
        return True

    def failed(self, error: BaseException) -> None:
        """A call failed because the dependency is unreachable (the caller went without)."""
        self._missed()
        with self._lock:
            now = time.monotonic()
            self.skipped += 1
            self._next_try = now + self.retry_seconds
            if self.down_since is None:
                self.down_since = now
                self._next_reminder = now + self.remind_seconds
                logger.warning(
                    "%s unreachable (%s: %s): going on without it, trying again every %g s",
                    self.name,
                    type(error).__name__,
                    error,
                    self.retry_seconds,
                )
            elif now >= self._next_reminder:
                self._next_reminder = now + self.remind_seconds
                logger.warning(
                    "%s still unreachable after %.0f s (%s calls went without it)",
                    self.name,
                    now - self.down_since,
                    self.skipped,
                )

    def _missed(self) -> None:
        if self.on_miss is not None:
            self.on_miss()

    def succeeded(self) -> None:
        """A call went through: an open outage is over."""
        if self.down_since is None:
            return
        with self._lock:
            if self.down_since is None:
                return
            logger.warning(
                "%s reachable again after %.1f s (%s calls went without it)",
                self.name,
                time.monotonic() - self.down_since,
                self.skipped,
            )
            self.down_since = None
            self.up_since = time.monotonic()
            self.skipped = 0

    def is_up_for(self, seconds: float) -> bool:
        """Up, and for at least `seconds` (what was written while it was down, was not)."""
        return self.down_since is None and time.monotonic() - self.up_since >= seconds
