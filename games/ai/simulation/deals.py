"""Which deal each simulated match plays, and who sits where.

Invariants (the standard library only):
- Deal `index` of a run with seed `seed` is dealt from sha256(f"{seed}:{index}"), so a
  run is reproducible from its seed, and two runs with the same seed meet the same deals.
- With seats rotating, match i puts the bot listed k-th in seat (k + i) mod seats; with
  pairing, `seats` matches in a row share one deal, so the luck of the deal cancels out.
"""

from __future__ import annotations

import hashlib


def match_seed(seed: int, index: int) -> bytes:
    return hashlib.sha256(f"{seed}:{index}".encode()).digest()


def deal_index(seats: int, index: int, paired: bool) -> int:
    """Which deal match `index` plays: with pairing, `seats` matches in a row share one."""
    return index // seats if paired else index


def seat_order(bot_count: int, index: int, rotate: bool) -> list[int]:
    """Which bot (by its position in the run's list) sits in each seat in match `index`."""
    if not rotate:
        return list(range(bot_count))
    return [(seat - index) % bot_count for seat in range(bot_count)]
