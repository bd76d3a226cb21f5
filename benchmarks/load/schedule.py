"""The open-loop rate scheduler: requests leave on a fixed timetable, not when the last
one came back.

A closed loop (send, wait, send) slows down with the server and hides its queueing delay
("coordinated omission"). Here slot i is due at start + i / rate whatever happened before;
each slot's work runs as its own task and is told its intended start time, so latency is
measured from when the request *should* have left. The scheduler's own lateness (a busy
generator sharing the cores) is recorded too.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field


def slot_offsets(rate: float, duration: float) -> list[float]:
    """Seconds after the start at which each of the window's slots is due: i / rate."""
    if rate <= 0 or duration <= 0:
        return []
    count = int(round(rate * duration))
    return [index / rate for index in range(count)]


@dataclass
class Schedule:
    """What the scheduler did: slots fired, how late it fired them (s), tasks left over."""

    fired: int = 0
    lateness: list[float] = field(default_factory=list)
    unfinished: int = 0


async def open_loop(
    rate: float,
    duration: float,
    fire: Callable[[float], Awaitable[None]],
    *,
    drain_seconds: float = 10.0,
    clock: Callable[[], float] = time.perf_counter,
) -> Schedule:
    """Call `fire(intended_start)` at `rate` per second for `duration` seconds, each as its
    own task; then wait at most `drain_seconds` for the stragglers (cancelled after that)."""
    schedule = Schedule()
    tasks: set[asyncio.Task] = set()
    start = clock()
    for offset in slot_offsets(rate, duration):
        due = start + offset
        delay = due - clock()
        if delay > 0:
            await asyncio.sleep(delay)
        schedule.lateness.append(max(0.0, clock() - due))
        task = asyncio.create_task(fire(due))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
        schedule.fired += 1
    if tasks:
        _, pending = await asyncio.wait(set(tasks), timeout=drain_seconds)
        schedule.unfinished = len(pending)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
    return schedule
