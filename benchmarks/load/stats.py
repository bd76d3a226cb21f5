"""Percentiles and latency summaries (pure: no server, no Django)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence


def percentile(values: Sequence[float], q: float) -> float | None:
    """The q-th percentile (0..100) by linear interpolation between closest ranks.

    The same definition as numpy's default ("linear"): rank = q/100 * (n - 1) in the sorted
    values. None for no values.
    """
    if not 0 <= q <= 100:
        raise ValueError("q is a percentage, 0 to 100")
    if not values:
        return None
    ordered = sorted(values)
    rank = q / 100 * (len(ordered) - 1)
    low = math.floor(rank)
    high = math.ceil(rank)
    if low == high:
        return float(ordered[low])
    weight = rank - low
    return ordered[low] * (1 - weight) + ordered[high] * weight


def summary(values_ms: Iterable[float], quantiles: Sequence[float] = (50, 95, 99)) -> dict:
    """count, the given percentiles (p50, p95, p99), mean and max, in ms (1 decimal)."""
    values = list(values_ms)
    result: dict = {"count": len(values)}
    for q in quantiles:
        name = f"p{q:g}"
        value = percentile(values, q)
        result[name] = None if value is None else round(value, 1)
    result["mean"] = round(sum(values) / len(values), 1) if values else None
    result["max"] = round(max(values), 1) if values else None
    return result


def rate(count: int, seconds: float) -> float:
    """Events per second, 1 decimal (0 for an empty window)."""
    return round(count / seconds, 1) if seconds > 0 else 0.0
