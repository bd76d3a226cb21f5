"""Where a server worker's time goes: py-spy's raw (collapsed) stacks, summarised.

py-spy (the `load` extra) samples one uvicorn worker during the saturation window when the
run is given `--profile`. Each raw line is `frame;frame;...;leaf count`, a frame being
`function (file:line)`. `summarise` gives each function's share of the samples that
contain it (inclusive) and that end in it (self), largest first; the same inclusive share
for the project's own functions only; and self time grouped by package (`django/template`,
`django/db`, `psycopg`, `games`, ...), which says where a move's time goes at a glance.
"""

from __future__ import annotations

import re
from collections import Counter

_FRAME = re.compile(r"^(?P<function>.*?) \((?P<file>[^:()]*)(?::\d+)?\)$")


def frame_name(frame: str) -> str:
    """`render (django/template/base.py:170)` -> `django/template/base.py:render`."""
    found = _FRAME.match(frame.strip())
    if not found:
        return frame.strip()
    path = found.group("file")
    for marker in ("site-packages/", "/main/", "lib/python3"):
        if marker in path:
            path = path.split(marker, 1)[1]
            break
    return f"{path}:{found.group('function')}"


PROJECT = ("games/", "accounts/", "progression/", "ratings/", "inbox/", "banira/", "config/")


def package(name: str) -> str:
    """`django/template/base.py:render` -> `django/template`; `redis/client.py:x` -> `redis`."""
    parts = name.split(":", 1)[0].split("/")
    if parts[0] in ("django", "games") and len(parts) > 2:
        return "/".join(parts[:2])
    return parts[0] if len(parts) > 1 else "(top-level modules: threading, socket, ...)"


def summarise(raw: str, top: int = 15) -> dict:
    inclusive: Counter = Counter()
    leaf: Counter = Counter()
    by_package: Counter = Counter()
    total = 0
    for line in raw.splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        frames = [frame_name(frame) for frame in stack.split(";")]
        total += count
        for name in set(frames[1:] if _is_thread_label(frames[0]) else frames):
            inclusive[name] += count
        leaf[frames[-1]] += count
        by_package[package(frames[-1])] += count
    if not total:
        return {"samples": 0}

    def share(counter: Counter) -> list[dict]:
        return [
            {"function": name, "percent": round(100 * count / total, 1)}
            for name, count in counter.most_common(top)
        ]

    project = Counter({k: v for k, v in inclusive.items() if k.startswith(PROJECT)})
    return {
        "samples": total,
        "self_by_package": share(by_package),
        "project_inclusive": share(project),
        "inclusive": share(inclusive),
        "self": share(leaf),
    }


def _is_thread_label(frame: str) -> bool:
    return frame.startswith(("process ", "thread ")) or frame.startswith("Thread")
