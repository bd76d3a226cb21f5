"""Real threads released at the same moment, for the concurrency tests (PostgreSQL)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connection

from games.errors import MatchError


def race(count: int, act: Callable[[int], Any], *, timeout: float = 30) -> list[Any]:
    """Run `act(0)` … `act(count - 1)` in threads that start together behind a barrier.

    Each slot holds what `act` returned, or the domain error it raised (anything else is a
    bug and propagates as a missing result). Every thread closes its own DB connection.
    """
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count

    def run(index: int) -> None:
        try:
            barrier.wait()
            results[index] = act(index)
        except MatchError as error:
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(index,)) for index in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
    return results
