"""A new chat line, pushed after its commit over the match socket (games.notifications'
groups): the seats' room to each seated player but its sender, the spectators' room to the
spectators' group. The socket drops it for a page whose user turned chat off or is on
either side of a block with the sender: `line_reaches`, registered with
`games.notifications` as the "chat" reach from `CommunityConfig.ready`.

A line a moderator removes leaves every page that shows it at once: `chat_line_removed`
pushes an out-of-band delete of its `<li>` to every page of its room, the sender's too (the
"chat.removed" reach lets it through everywhere: it carries nothing but the line's id)."""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string

from community.models import ChatMessage
from community.selectors import chat_reaches
from games import notifications
from games.models import Seat

REACH = "chat"
REMOVED_REACH = "chat.removed"


def line_reaches(*, user: Any, event: dict[str, Any]) -> bool:
    """A chat line reaches a page whose user has chat on, is not its sender, and is on
    neither side of a block with the sender."""
    return chat_reaches(user=user, sender_id=event["sender_id"])


def removal_reaches(*, user: Any, event: dict[str, Any]) -> bool:
    """A removal reaches every page of its room: it names only the line to take away."""
    return True


def chat_line_sent(*, message_id: int) -> None:
    line = ChatMessage.objects.select_related("sender__profile").filter(pk=message_id).first()
    if line is None or line.removed is not None:
        return
    html = render_to_string("community/chat.html#pushed", {"line": line, "room": line.room})
    event = {"type": "line.push", "reach": REACH, "html": html, "sender_id": line.sender_id}
    _room_send(line, event, but_user_id=line.sender_id)  # the sender's page shows it already


def chat_line_removed(*, message_id: int) -> None:
    line = ChatMessage.objects.filter(pk=message_id).only("pk", "match_id", "room").first()
    if line is None:
        return
    html = render_to_string("community/chat.html#removed", {"line": line})
    _room_send(line, {"type": "line.push", "reach": REMOVED_REACH, "html": html})


def _room_send(line: ChatMessage, event: dict[str, Any], *, but_user_id: int | None = None) -> None:
    """Send `event` to the pages of `line`'s room: the spectators' group, or each joined
    seat's group (but the seat of `but_user_id`)."""
    if line.room == ChatMessage.Room.WATCH:
        notifications.group_send(notifications.group_for_spectators(line.match_id), event)
        return
    seats = Seat.objects.filter(match_id=line.match_id, joined__isnull=False)
    if but_user_id is not None:
        seats = seats.exclude(user_id=but_user_id)
    for index in seats.values_list("index", flat=True):
        notifications.group_send(notifications.group_for_seat(line.match_id, index), event)
