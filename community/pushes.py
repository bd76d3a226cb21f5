"""A new chat line, pushed after its commit over the match socket (games.notifications'
groups): the seats' room to each seated player but its sender, the spectators' room to the
spectators' group. The socket drops it for a page whose user turned chat off or is on
either side of a block with the sender (`community.selectors.chat_reaches`)."""

from __future__ import annotations

from django.template.loader import render_to_string

from community.models import ChatMessage
from games import notifications
from games.models import Seat


def chat_line_sent(*, message_id: int) -> None:
    line = ChatMessage.objects.select_related("sender__profile").filter(pk=message_id).first()
    if line is None or line.removed is not None:
        return
    html = render_to_string("community/chat.html#pushed", {"line": line, "room": line.room})
    event = {"type": "chat.push", "html": html, "sender_id": line.sender_id}
    if line.room == ChatMessage.Room.WATCH:
        notifications.group_send(notifications.group_for_spectators(line.match_id), event)
        return
    seats = Seat.objects.filter(match_id=line.match_id, joined__isnull=False).exclude(
        user_id=line.sender_id
    )
    for index in seats.values_list("index", flat=True):
        notifications.group_send(notifications.group_for_seat(line.match_id, index), event)
