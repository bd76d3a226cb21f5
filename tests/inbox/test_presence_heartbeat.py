"""games.presence's heartbeat: the open pages of an event loop (a worker process) are
refreshed together, one thread hop and two cache round trips a beat, and the beat runs only
while the loop holds a page."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace

import pytest
from django.core.cache import cache

from games import presence

WAIT = 10.0  # a bound on every wait, never a timing being tested


@pytest.fixture(autouse=True)
def _clean():
    cache.clear()
    yield
    cache.clear()


async def _until(condition) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, "never happened"
        await asyncio.sleep(0.01)


@pytest.mark.asyncio
async def test_one_beat_refreshes_every_open_page_of_the_loop_at_once(monkeypatch):
    monkeypatch.setattr(presence, "PRESENCE_REFRESH", 0.05)
    beats: list[list[tuple]] = []
    touch_many = presence.presence_touch_many

    def counted(pages):
        beats.append(list(pages))
        touch_many(pages)

    monkeypatch.setattr(presence, "presence_touch_many", counted)
    player, stranger = SimpleNamespace(pk=7), SimpleNamespace(pk=8)
    pages = [
        await presence.opened(user=player, match_id=1, channel="tab-1", is_seated=True),
        await presence.opened(user=player, match_id=1, channel="tab-2", is_seated=True),
        await presence.opened(user=stranger, match_id=1, channel="watch-1", is_seated=False),
        await presence.opened(user=stranger, match_id=2, channel="watch-2", is_seated=False),
    ]
    opened_at = time.time()
    heartbeat = presence.Heartbeat.of_this_loop()
    assert heartbeat.pages == set(pages)

    await _until(lambda: beats)
    assert sorted(beats[0], key=str) == sorted(
        [(7, 1, "tab-1"), (7, 1, "tab-2"), (None, 1, "watch-1"), (None, 2, "watch-2")], key=str
    )  # every page in one call, not one task per page
    for user_id, match_id in ((7, 1), (None, 1), (None, 2)):
        seen = cache.get(presence._key(user_id, match_id))
        assert seen and all(when >= opened_at for when in seen.values())  # refreshed

    for page in pages:
        await page.close()
    assert heartbeat.task is None and not heartbeat.pages  # no beat with no page open
    assert not presence.is_present(user_id=7, match_id=1)
    assert not presence.looking(match_id=1, user_ids=[7]).has_spectators


@pytest.mark.asyncio
async def test_a_page_closed_mid_beat_keeps_the_others_beating(monkeypatch):
    monkeypatch.setattr(presence, "PRESENCE_REFRESH", 0.05)
    player = SimpleNamespace(pk=7)
    first = await presence.opened(user=player, match_id=3, channel="tab-1", is_seated=True)
    second = await presence.opened(user=player, match_id=3, channel="tab-2", is_seated=True)
    heartbeat = presence.Heartbeat.of_this_loop()
    task = heartbeat.task

    await first.close()
    assert heartbeat.task is task and not task.done()  # still one page to beat for
    assert presence.is_present(user_id=7, match_id=3)  # the other tab
    await second.close()
    await _until(task.done)
    assert not presence.is_present(user_id=7, match_id=3)


def test_touching_many_pages_reads_and_writes_in_slices_and_keeps_others_entries(monkeypatch):
    monkeypatch.setattr(presence, "KEYS_PER_ROUND_TRIP", 2)
    now = time.time()
    cache.set(
        presence._key(7, 1),
        {"other-server": now, "gone": now - presence.PRESENCE_TTL - 1},
        presence.PRESENCE_TTL,
    )
    reads: list[int] = []
    get_many = cache.get_many
    monkeypatch.setattr(cache, "get_many", lambda keys: reads.append(len(keys)) or get_many(keys))

    presence.presence_touch_many([(7, 1, "tab-1"), *((None, match, "watch") for match in range(5))])

    assert reads == [2, 2, 2]  # six keys, two a round trip
    assert set(cache.get(presence._key(7, 1))) == {"other-server", "tab-1"}  # "gone" expired
    for match in range(5):
        assert set(cache.get(presence._key(None, match))) == {"watch"}
