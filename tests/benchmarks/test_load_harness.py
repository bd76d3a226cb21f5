"""The load benchmark's pure parts (benchmarks/load/): no servers, no database.

The full run is `make loadtest`, never part of the suite.
"""

from __future__ import annotations

import asyncio
import json
import time

import pytest

from benchmarks.load import profile
from benchmarks.load.board import (
    _FormReader,
    board_ply,
    board_status,
    parse_move_form,
    socket_name,
)
from benchmarks.load.schedule import open_loop, slot_offsets
from benchmarks.load.stats import percentile, rate, summary

# The shape of games/dogblade/board.jinja's move form, as it is drawn (Django's escaping).
BOARD = """
<section id="board" class="board board-dogblade is-my-turn" data-version="7.1700000000000"
         data-ply="7" data-status="active" hx-get="/matches/3/board/?have=7.17">
  <div class="db-center">
    <form method="post" action="/matches/3/move/" hx-post="/matches/3/move/" hx-target="#board"
          hx-swap="outerHTML" hx-disabled-elt="find button" class="move-form">
      <input type="hidden" name="csrfmiddlewaretoken" value="tok&amp;en">
      <input type="hidden" name="ply" value="7">
      <input type="hidden" name="move_id" value="a1b2c3">
      <button type="submit" name="move" value="{&quot;type&quot;: &quot;attack&quot;}"
              class="button primary attack-button" data-testid="move-attack">Attack!</button>
    </form>
  </div>
  <form method="post" action="/matches/3/resign/" class="resign-form">
    <button type="submit" class="button ghost danger">Resign</button>
  </form>
</section>
"""

WAITING_BOARD = """<section id="board" data-ply="8" data-status="active">
  <div class="db-center"><p class="db-versus">VS</p></div></section>"""


def test_percentile_interpolates_between_closest_ranks():
    values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    assert percentile(values, 0) == 1
    assert percentile(values, 100) == 10
    assert percentile(values, 50) == pytest.approx(5.5)
    assert percentile(values, 90) == pytest.approx(9.1)
    assert percentile(list(reversed(values)), 99) == pytest.approx(9.91)
    assert percentile([42.0], 99) == 42.0
    assert percentile([], 50) is None
    with pytest.raises(ValueError):
        percentile(values, 101)


def test_summary_and_rate():
    assert summary(range(1, 101)) == {
        "count": 100,
        "p50": 50.5,
        "p95": 95.0,
        "p99": 99.0,
        "mean": 50.5,
        "max": 100,
    }
    assert summary([]) == {
        "count": 0,
        "p50": None,
        "p95": None,
        "p99": None,
        "mean": None,
        "max": None,
    }
    assert rate(300, 20.0) == 15.0
    assert rate(5, 0) == 0.0


def test_slots_are_evenly_spaced_at_the_offered_rate():
    offsets = slot_offsets(50, 2.0)
    assert len(offsets) == 100
    assert offsets[0] == 0
    assert offsets[1] == pytest.approx(0.02)
    assert offsets[-1] == pytest.approx(1.98)
    assert slot_offsets(0, 5) == []
    assert slot_offsets(10, 0) == []


def test_the_open_loop_keeps_its_timetable_when_requests_are_slow():
    """Slow answers must not delay the next sends (no coordinated omission)."""
    intended: list[float] = []

    async def slow_request(due: float) -> None:
        intended.append(due)
        await asyncio.sleep(0.2)  # far slower than the 10 ms between slots

    started = time.perf_counter()
    schedule = asyncio.run(open_loop(100, 0.3, slow_request, drain_seconds=2))
    elapsed = time.perf_counter() - started
    assert schedule.fired == 30
    assert schedule.unfinished == 0
    # The window and one slow answer take 0.5 s; sends that waited for answers would take
    # 30 x 0.2 = 6 s. The bound sits between, far from both: a CI machine can stall.
    assert elapsed < 3.0
    gaps = [later - earlier for earlier, later in zip(intended, intended[1:], strict=False)]
    assert all(gap == pytest.approx(0.01, abs=1e-6) for gap in gaps)
    assert len(schedule.lateness) == 30


def test_the_open_loop_cancels_what_outlives_the_drain():
    async def stuck(due: float) -> None:
        await asyncio.sleep(30)

    schedule = asyncio.run(open_loop(20, 0.1, stuck, drain_seconds=0.05))
    assert schedule.fired == 2
    assert schedule.unfinished == 2


def test_the_move_is_read_from_the_boards_form():
    form = parse_move_form(BOARD)
    assert form is not None
    assert form.action == "/matches/3/move/"
    assert form.data() == {
        "csrfmiddlewaretoken": "tok&en",
        "ply": "7",
        "move_id": "a1b2c3",
        "move": '{"type": "attack"}',
    }
    assert form.ply == 7
    assert form.move == {"type": "attack"}
    assert json.loads(form.data()["move"]) == {"type": "attack"}


def test_a_board_without_a_move_form_has_no_move():
    assert parse_move_form(WAITING_BOARD) is None
    disabled = BOARD.replace('class="button primary', 'disabled class="button primary')
    assert parse_move_form(disabled) is None


def test_only_the_forms_are_read_and_each_board_once():
    # What a read of the whole document finds, in a board whose other forms come first.
    board = BOARD.replace(
        '<div class="db-center">',
        '<form class="autoplay-form" action="/a/"><button name="enabled" value="on">x</button>'
        '</form><p>a <b>form</b> of words</p><div class="db-center">',
    )
    whole = _FormReader()
    whole.feed(board)
    whole.close()
    assert parse_move_form(board) == whole.forms[0]
    assert parse_move_form(board) is parse_move_form(board)  # read once, then remembered


def test_the_socket_is_named_as_its_hello_names_it():
    from games.notifications import sync_fragment

    assert socket_name(sync_fragment(3, socket="specific.ab!cd")) == "specific.ab!cd"
    assert socket_name(BOARD) == ""


def test_the_ply_of_a_board_or_a_push():
    assert board_ply(BOARD) == 7
    assert board_ply(WAITING_BOARD) == 8
    assert board_ply('{"type": "board", "ply": 12}') == 12
    assert board_ply('<div hx-get="/matches/3/board/?ply=5"></div>') == 5
    resync = '<div id="board-sync" hidden hx-get="/matches/3/board/" hx-trigger="load"></div>'
    assert board_ply(resync) is None
    assert board_status(BOARD) == "active"
    assert board_status(resync) is None


def test_profile_summary_counts_inclusive_and_self_time():
    raw = "\n".join(
        [
            "run (uvicorn/server.py:1);move (games/views.py:200);"
            "render (django/template/base.py:9) 6",
            "run (uvicorn/server.py:1);move (games/views.py:200) 2",
            "run (uvicorn/server.py:1);execute (psycopg/cursor.py:3) 2",
        ]
    )
    result = profile.summarise(raw)
    assert result["samples"] == 10
    inclusive = {entry["function"]: entry["percent"] for entry in result["inclusive"]}
    assert inclusive["games/views.py:move"] == 80.0
    assert inclusive["uvicorn/server.py:run"] == 100.0
    own = {entry["function"]: entry["percent"] for entry in result["self"]}
    assert own == {
        "django/template/base.py:render": 60.0,
        "games/views.py:move": 20.0,
        "psycopg/cursor.py:execute": 20.0,
    }
    assert [entry["function"] for entry in result["project_inclusive"]] == ["games/views.py:move"]
    packages = {entry["function"]: entry["percent"] for entry in result["self_by_package"]}
    assert packages == {"django/template": 60.0, "games": 20.0, "psycopg": 20.0}
    assert profile.summarise("") == {"samples": 0}


def test_the_health_probe_times_readiness_and_reads_the_channel_layer():
    """HealthProbe (a process of its own) against a tiny local server: one slow answer, one
    503 saying "down"; liveness timed beside readiness."""
    from aiohttp import web

    from benchmarks.load.__main__ import check_targets
    from benchmarks.load.phases import HealthProbe

    answers = iter([(200, "up", 0.0), (503, "down", 0.0), (200, "up", 0.12)])

    async def healthz(_request):
        status, layer, pause = next(answers, (200, "up", 0.0))
        await asyncio.sleep(pause)
        return web.json_response({"database": "up", "channel_layer": layer}, status=status)

    async def main() -> dict:
        app = web.Application()
        app.router.add_get("/healthz", healthz)
        app.router.add_get("/healthz/live", lambda _request: web.json_response({"up": 1}))
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        try:
            async with HealthProbe(f"http://127.0.0.1:{port}") as probe:
                await asyncio.sleep(1.0)
        finally:
            await runner.cleanup()
        return probe.report()

    report = asyncio.run(main())
    assert report["statuses"]["503"] == 1 and report["statuses"]["200"] >= 3
    assert report["channel_layer"]["down"] == 1
    assert report["ms"]["max"] >= 100  # the slow answer is counted, not skipped
    assert report["live_ms"]["count"] == report["ms"]["count"]
    verdict = check_targets({"saturation": {"healthz": report}})["healthz_p99_ms_under_load"]
    assert verdict["target"] == 50 and verdict["met"] is False
