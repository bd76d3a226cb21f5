"""The notification socket: a signed-in user's pages hear about new notifications.

It authenticates, joins the user's group, sends the current unread count (catching up on
anything missed while disconnected) and forwards already-rendered pushes. Nothing is
accepted from the client and nothing is written.
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from config.channel_layer import ClosesWhenLayerIsDown
from config.consumers import DispatchesWithoutSweep
from inbox import push


class NotificationConsumer(ClosesWhenLayerIsDown, DispatchesWithoutSweep, AsyncWebsocketConsumer):
    group: str | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        self.group = push.group_for_user(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send(text_data=await database_sync_to_async(push.render_bell)(user=user))

    async def disconnect(self, code: int) -> None:
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Nothing is accepted from the client."""

    async def inbox_push(self, event: dict) -> None:
        await self.send(text_data=event["html"])
