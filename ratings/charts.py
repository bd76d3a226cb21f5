"""The rating-history chart as geometry: a server-rendered SVG, no JavaScript.

`line_chart` turns dated rating points (one series per game) into what the template
draws: the plot box, the axis ticks with their labels, a polyline and dots per series.
The page renders it twice, at a wide and a narrow size, and CSS shows the one that fits,
so the labels stay readable on a phone instead of shrinking with the whole picture.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils import timezone
from django.utils.dateformat import format as date_format

Y_STEPS = (5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)


@dataclass(frozen=True)
class Point:
    when: datetime.datetime
    rating: float
    label: str  # the dot's tooltip, e.g. "Dog Blade · 3 Jun: 1532 (+14)"


@dataclass(frozen=True)
class Series:
    key: str  # a game slug: the line's CSS class
    name: str
    points: Sequence[Point]  # oldest first


@dataclass(frozen=True)
class Tick:
    at: float  # x or y in the SVG's coordinates
    label: str


@dataclass(frozen=True)
class Dot:
    x: float
    y: float
    label: str


@dataclass(frozen=True)
class Line:
    key: str
    name: str
    points: str  # the polyline's "x,y x,y ..."
    dots: tuple[Dot, ...]


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    left: float
    right: float
    top: float
    bottom: float
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    lines: tuple[Line, ...]
    baseline: float | None  # y of the starting rating 1500, when it is in range

    @property
    def y_label_x(self) -> float:
        return self.left - 6

    @property
    def view_box(self) -> str:
        return f"0 0 {self.width} {self.height}"


@dataclass(frozen=True)
class Size:
    width: int
    height: int
    x_ticks: int
    y_ticks: int


WIDE = Size(720, 300, 6, 6)
NARROW = Size(360, 250, 3, 5)


def line_chart(series: Sequence[Series], *, size: Size, start: float = 1500.0) -> Chart | None:
    """The chart of `series` at `size`, or None when there is no point to draw."""
    series = [s for s in series if s.points]
    if not series:
        return None
    left, right, top, bottom = 46.0, size.width - 14.0, 12.0, size.height - 28.0
    times = [p.when.timestamp() for s in series for p in s.points]
    t0, t1 = min(times), max(times)
    if t1 - t0 < 60:  # one moment: spread it over an hour so the dot sits in the middle
        t0, t1 = t0 - 1800, t1 + 1800
    low, high, step = _y_range([p.rating for s in series for p in s.points], size.y_ticks)

    def x(when: datetime.datetime) -> float:
        return round(left + (when.timestamp() - t0) / (t1 - t0) * (right - left), 1)

    def y(rating: float) -> float:
        return round(bottom - (rating - low) / (high - low) * (bottom - top), 1)

    lines = []
    for s in series:
        dots = tuple(Dot(x(p.when), y(p.rating), p.label) for p in s.points)
        lines.append(Line(s.key, s.name, " ".join(f"{d.x},{d.y}" for d in dots), dots))
    y_ticks = tuple(Tick(y(value), f"{value:.0f}") for value in _frange(low, high, step))
    return Chart(
        width=size.width,
        height=size.height,
        left=left,
        right=right,
        top=top,
        bottom=bottom,
        x_ticks=_x_ticks(t0, t1, size.x_ticks, x),
        y_ticks=y_ticks,
        lines=tuple(lines),
        baseline=y(start) if low < start < high else None,
    )


def _y_range(values: Sequence[float], ticks: int) -> tuple[float, float, float]:
    """Round bounds around `values` on a step that gives at most `ticks` labels."""
    lowest, highest = min(values), max(values)
    if highest - lowest < 20:
        lowest, highest = lowest - 10, highest + 10
    for step in Y_STEPS:
        low, high = math.floor(lowest / step) * step, math.ceil(highest / step) * step
        if (high - low) / step + 1 <= ticks:
            return float(low), float(high), float(step)
    widest = float(Y_STEPS[-1])
    return math.floor(lowest / widest) * widest, math.ceil(highest / widest) * widest, widest


def _frange(low: float, high: float, step: float) -> list[float]:
    return [low + i * step for i in range(int(round((high - low) / step)) + 1)]


def _x_ticks(t0: float, t1: float, count: int, x) -> tuple[Tick, ...]:
    span = t1 - t0
    pattern = "j M H:i" if span < 3 * 86400 else ("j M" if span < 300 * 86400 else "M Y")
    ticks, seen = [], set()
    for i in range(count):
        at = t0 + span * i / max(count - 1, 1)
        moment = datetime.datetime.fromtimestamp(at, tz=datetime.UTC)
        label = date_format(timezone.localtime(moment), pattern)
        if label not in seen:
            seen.add(label)
            ticks.append(Tick(x(moment), label))
    return tuple(ticks)
