"""A program's stream (the Bot API) makes its player present, but shows no board: the push
after a change renders no board for it and sends it a bare "changed" (games.notifications)."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer

from games import notifications, presence, rendering, selectors

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_stream_is_present_for_reminders_but_not_a_page(alice, bob, duel):
    presence.presence_touch(
        user_id=alice.pk, match_id=duel.pk, channel=presence.stream_channel("bot-1")
    )
    presence.presence_touch(user_id=None, match_id=duel.pk, channel=presence.stream_channel("w"))

    assert presence.is_present(user_id=alice.pk, match_id=duel.pk)  # no reminder
    looking = presence.looking(match_id=duel.pk, user_ids=[alice.pk, bob.pk])
    assert looking.user_ids == frozenset() and not looking.has_spectators
    assert looking.streaming_ids == {alice.pk} and looking.has_spectator_streams

    presence.presence_touch(user_id=alice.pk, match_id=duel.pk, channel="page-1")
    looking = presence.looking(match_id=duel.pk, user_ids=[alice.pk, bob.pk])
    assert looking.user_ids == {alice.pk} and looking.streaming_ids == frozenset()
    assert looking.channels == {alice.pk: {"page-1", presence.stream_channel("bot-1")}}


def _pushed(match, monkeypatch, *, mover_page: str = ""):
    """What each seat's group and the spectators' group receive after a change, and how
    many boards were rendered for it."""
    layer = get_channel_layer()
    groups = [notifications.group_for_seat(match.pk, i) for i in (0, 1)]
    groups.append(notifications.group_for_spectators(match.pk))
    rendered = []
    draw = rendering.draw
    monkeypatch.setattr(rendering, "draw", lambda *a, **kw: rendered.append(a) or draw(*a, **kw))

    def change() -> None:
        notifications.match_changed(
            match=selectors.match_get(match_id=match.pk), mover_page=mover_page
        )

    async def listen_through_the_change() -> dict:
        # One loop holds the subscriptions, as a server's loop holds its sockets'.
        channels = {}
        for group in groups:
            channels[group] = await layer.new_channel()
            await layer.group_add(group, channels[group])
        await sync_to_async(change)()
        received = {}
        for group, channel in channels.items():
            try:
                async with asyncio.timeout(1.0):
                    received[group] = (await layer.receive(channel))["type"]
            except TimeoutError:
                received[group] = None
        return received

    received = async_to_sync(listen_through_the_change)()
    return [received[group] for group in groups], len(rendered)


def test_a_seat_followed_only_by_a_stream_gets_a_bare_change_and_no_render(
    alice, bob, duel, monkeypatch
):
    presence.presence_touch(user_id=alice.pk, match_id=duel.pk, channel="page-1")
    presence.presence_touch(user_id=bob.pk, match_id=duel.pk, channel=presence.stream_channel("b"))
    presence.presence_touch(user_id=None, match_id=duel.pk, channel=presence.stream_channel("w"))

    received, renders = _pushed(duel, monkeypatch)

    assert received == ["board.push", "board.changed", "board.changed"]
    assert renders == 1  # alice's page only


def test_nobody_looking_gets_nothing(alice, bob, duel, monkeypatch):
    received, renders = _pushed(duel, monkeypatch)
    assert received == [None, None, None] and renders == 0


def test_a_pushed_board_is_written_to_the_shared_cache_without_asking_it_first(
    alice, bob, duel, monkeypatch
):
    """A push draws the version the change just made, which no process can have drawn yet:
    the shared cache gets it (for the other worker's board fetch), both boards in one
    round trip, and is not read first."""
    from django.core.cache import cache

    presence.presence_touch(user_id=alice.pk, match_id=duel.pk, channel="page-1")
    presence.presence_touch(user_id=bob.pk, match_id=duel.pk, channel="page-2")
    asked, written = [], []
    monkeypatch.setattr(rendering, "_shared_get", asked.append)
    set_many = cache.set_many
    monkeypatch.setattr(
        cache,
        "set_many",
        lambda data, *a, **kw: written.append(len(data)) or set_many(data, *a, **kw),
    )

    received, renders = _pushed(duel, monkeypatch)

    assert received == ["board.push", "board.push", None] and renders == 2
    assert asked == [] and written == [2]
    match = selectors.match_get(match_id=duel.pk)
    for seat in match.seats.all():
        assert cache.get(rendering._key(match, seat)) is not None
    rendering.memo_clear()  # another process: no fragment of its own, so it asks the cache
    rendering.board_html(match=match, seat=match.seats.all()[0])
    assert len(asked) == 1


def test_the_page_that_moved_is_spared_its_push_but_not_a_stream_of_its_seat(
    alice, bob, duel, monkeypatch
):
    presence.presence_touch(user_id=alice.pk, match_id=duel.pk, channel="page-1")
    presence.presence_touch(user_id=bob.pk, match_id=duel.pk, channel="page-2")

    received, renders = _pushed(duel, monkeypatch, mover_page="page-1")
    assert received == [None, "board.push", None] and renders == 1  # bob's board only

    # A program's stream on alice's seat hears of her own moves, and so her page does too.
    stream = presence.stream_channel("a")
    presence.presence_touch(user_id=alice.pk, match_id=duel.pk, channel=stream)
    received, _ = _pushed(duel, monkeypatch, mover_page="page-1")
    assert received == ["board.push", "board.push", None]
