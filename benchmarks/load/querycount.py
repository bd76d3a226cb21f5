"""SQL queries and in-process time per move POST and per board GET (run inside Django).

`python -m benchmarks.load.querycount` with the load run's environment: two new players
play a fresh Dog Blade match through Django's test client (the same URLs, form fields
and htmx headers as the generator) and it prints JSON: queries per request (min, mean,
max) and each request's time in this one quiet process. It needs no server running.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MOVES = 12


def main() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    print(json.dumps(measure()))


def measure() -> dict:
    from django.contrib.auth import get_user_model
    from django.test import Client

    from accounts.services import profile_ensure
    from benchmarks.load.board import parse_move_form
    from games import services

    users = []
    for name in ("loadq0", "loadq1"):
        user = get_user_model().objects.create_user(username=name, password="x-load-q")
        profile_ensure(user=user)
        users.append(user)
    match = services.match_create(
        creator=users[0], game_slug="dogblade", opponent="player", invitee_username="loadq1"
    )
    services.match_join(match_id=match.pk, user=users[1])
    clients = []
    for user in users:
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(user)
        clients.append(client)
    headers = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "board"}
    board_url, samples = f"/matches/{match.pk}/board/", {"move": [], "board": []}
    for _ in range(MOVES):
        boards = [client.get(board_url, **headers).content.decode() for client in clients]
        seat = next((s for s in (0, 1) if parse_move_form(boards[s])), None)
        if seat is None:
            break
        form = parse_move_form(boards[seat])
        mover, watcher = clients[seat], clients[1 - seat]
        samples["move"].append(_timed(mover.post, form.action, form.data(), **headers))
        samples["board"].append(_timed(watcher.get, board_url, **headers))
    return {kind: _summary(values) for kind, values in samples.items()}


def _timed(request, *args, **kwargs) -> tuple[int, float, int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        response = request(*args, **kwargs)
        elapsed = (time.perf_counter() - started) * 1000
    return len(queries.captured_queries), elapsed, response.status_code


def _summary(samples: list[tuple[int, float, int]]) -> dict:
    if not samples:
        return {"requests": 0}
    counts = [count for count, _, _ in samples]
    times = [elapsed for _, elapsed, _ in samples]
    return {
        "requests": len(samples),
        "statuses": sorted({status for _, _, status in samples}),
        "queries_min": min(counts),
        "queries_mean": round(statistics.mean(counts), 1),
        "queries_max": max(counts),
        "ms_median_in_process": round(statistics.median(times), 1),
    }


if __name__ == "__main__":
    main()
