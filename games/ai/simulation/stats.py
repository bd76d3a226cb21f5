"""The statistics of a simulation: win-share intervals, percentiles, score summaries.

Invariants: pure functions of their arguments (the standard library only); percentiles are
by nearest rank, so every one of them is a value that was observed.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any, TypeVar

Number = TypeVar("Number", int, float)


def wilson_interval(wins: int, matches: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a win share of `wins` out of `matches` (95% for z=1.96)."""
    share = wins / matches
    spread = z * z / matches
    centre = (share + spread / 2) / (1 + spread)
    margin = z * math.sqrt(share * (1 - share) / matches + spread / (4 * matches)) / (1 + spread)
    return max(0.0, centre - margin), min(1.0, centre + margin)


def percentile(ordered: Sequence[Number], share: float) -> Number:
    """The nearest-rank percentile of sorted values (share 0.1 is p10, 0.9 is p90)."""
    rank = max(1, math.ceil(share * len(ordered)))
    return ordered[rank - 1]


def score_distribution(scores: Sequence[int]) -> dict[str, Any]:
    """Mean, median, p10, p90, min and max of some final scores (all None when there are none)."""
    if not scores:
        return dict.fromkeys(("mean", "median", "p10", "p90", "min", "max"))
    ordered = sorted(scores)
    return {
        "mean": round(statistics.fmean(ordered), 2),
        "median": statistics.median(ordered),
        "p10": percentile(ordered, 0.1),
        "p90": percentile(ordered, 0.9),
        "min": ordered[0],
        "max": ordered[-1],
    }


def mean_interval(values: Sequence[int], z: float = 1.96) -> dict[str, Any]:
    """The mean of `values` and its normal-approximation 95% interval (None if under 2)."""
    if len(values) < 2:
        mean = round(statistics.fmean(values), 2) if values else None
        return {"mean": mean, "ci95": None}
    mean = statistics.fmean(values)
    margin = z * statistics.stdev(values) / math.sqrt(len(values))
    return {"mean": round(mean, 2), "ci95": [round(mean - margin, 2), round(mean + margin, 2)]}


def timing(samples: Sequence[float]) -> dict[str, Any]:
    """Decision times in seconds as milliseconds: mean, p95 (nearest rank) and how many."""
    if not samples:
        return {"mean": None, "p95": None, "moves": 0}
    ordered = sorted(samples)
    return {
        "mean": round(1000 * statistics.fmean(ordered), 4),
        "p95": round(1000 * percentile(ordered, 0.95), 4),
        "moves": len(ordered),
    }


def difference_interval(
    wins_a: int, count_a: int, wins_b: int, count_b: int, z: float = 1.96
) -> tuple[float, float, float] | None:
    """Share a minus share b and its normal-approximation 95% interval: (difference, low,
    high); None when either group is empty."""
    if not count_a or not count_b:
        return None
    share_a, share_b = wins_a / count_a, wins_b / count_b
    margin = z * math.sqrt(share_a * (1 - share_a) / count_a + share_b * (1 - share_b) / count_b)
    difference = share_a - share_b
    return difference, difference - margin, difference + margin


def quartiles(ordered: Sequence[Number]) -> dict[str, Any]:
    """The min, first quartile, median, third quartile and max of sorted values (nearest
    rank; all None when there are none)."""
    if not ordered:
        return dict.fromkeys(("min", "q1", "median", "q3", "max"))
    return {
        "min": ordered[0],
        "q1": percentile(ordered, 0.25),
        "median": percentile(ordered, 0.5),
        "q3": percentile(ordered, 0.75),
        "max": ordered[-1],
    }


def histogram(values: Sequence[int], width: int, bins: int) -> list[dict[str, Any]]:
    """Counts of `values` in bins of `width` from 0; the last of `bins` bins is open-ended
    ("high" None)."""
    counts = [0] * bins
    for value in values:
        counts[min(bins - 1, max(0, value) // width)] += 1
    return [
        {
            "low": index * width,
            "high": None if index == bins - 1 else (index + 1) * width - 1,
            "count": count,
        }
        for index, count in enumerate(counts)
    ]
