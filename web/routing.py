"""The socket routes, all in one list: each app's, then a catch-all that refuses.

Channels' `URLRouter` raises "No route found" for a path no route matches, and the server
answers the handshake 500. Here the last route matches every path and closes the socket with
4404 instead, as the match socket does for a match that is not there. Ids are read by the
`<id:...>` converter (config/inputs.py): `/ws/matches/-1/`, `/ws/matches/²/` and a
5,000-digit id match no route, so they are refused the same way.
"""

from __future__ import annotations

from channels.generic.websocket import AsyncWebsocketConsumer
from channels.routing import URLRouter
from django.urls import re_path

from games.routing import websocket_urlpatterns as match_routes
from inbox.routing import websocket_urlpatterns as inbox_routes

NO_SUCH_ROUTE = 4404


class NoSuchRoute(AsyncWebsocketConsumer):
    """Any socket path no route takes: refused with 4404, nothing read, nothing joined."""

    async def connect(self) -> None:
        await self.close(code=NO_SUCH_ROUTE)


websocket_urlpatterns = [*match_routes, *inbox_routes]
websocket_router = URLRouter([*websocket_urlpatterns, re_path(r"", NoSuchRoute.as_asgi())])
