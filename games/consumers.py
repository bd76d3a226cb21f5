"""The match socket: authenticate, join the right group, forward already-rendered boards.

Consumers never write to the database or call the engine; moves go over HTTP POST.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from config.channel_layer import ClosesWhenLayerIsDown
from config.consumers import DispatchesWithoutSweep
from games import notifications, presence, selectors


def socket_group_for(*, match_id: int, user: Any) -> str | None:
    """The push group a socket of this user joins for this match (None: no such match, or
    not one this user may watch). Read through the selectors; the names are notifications'."""
    match = selectors.match_get(match_id=match_id)
    if match is None or not selectors.can_view(match=match, user=user):
        return None
    seat = selectors.seat_of(match=match, user=user)
    if seat is not None and seat.joined is not None:
        return notifications.group_for_seat(match.pk, seat.index)
    return notifications.group_for_spectators(match.pk)


class MatchConsumer(ClosesWhenLayerIsDown, DispatchesWithoutSweep, AsyncWebsocketConsumer):
    group: str | None = None
    watching: presence.Presence | None = None  # this page, for reminders

    async def connect(self) -> None:
        match_id = int(self.scope["url_route"]["kwargs"]["match_id"])
        self.group = await database_sync_to_async(socket_group_for)(
            match_id=match_id, user=self.scope.get("user")
        )
        if self.group is None:
            await self.close(code=4404)
            return
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        # Reminders skip a player who has this match open, and boards nobody has open are
        # not rendered (games.presence).
        self.watching = await presence.opened(
            user=self.scope.get("user"),
            match_id=match_id,
            channel=self.channel_name,
            is_seated=self.group != notifications.group_for_spectators(match_id),
        )
        # Catch up on anything missed while disconnected: the page re-fetches its board.
        await self.send(text_data=notifications.sync_fragment(match_id, socket=self.channel_name))

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        await presence.closed(self.watching)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Nothing is accepted from the client: moves are HTTP POSTs."""

    async def board_push(self, event: dict) -> None:
        await self.send(text_data=event["html"])

    async def board_changed(self, event: dict) -> None:
        """A change pushed with no board (only programs' streams were listening when it was
        sent): a page that has just opened fetched its board on connect."""

    async def line_push(self, event: dict) -> None:
        """A line another app pushes (community's chat), sent on only where the check that
        app registered lets it reach this page's user (`notifications.reaches`)."""
        user = self.scope.get("user")
        if await database_sync_to_async(notifications.reaches)(user=user, event=event):
            await self.send(text_data=event["html"])
