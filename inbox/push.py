"""Every socket push of the notification centre: one group per user, sent after commit.

A push is already-rendered HTML that the htmx ws extension swaps in out of band: the bell's
unread count and, for a new notification, a toast. Like the match pushes it is a hint
(Channels delivers at most once): the socket sends the current count on every (re)connect
and every page renders the bell from the database.
"""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string

# One long-lived sender loop per process, shared with the match pushes.
from games.notifications import group_send
from inbox import selectors
from inbox.models import Notification


def group_for_user(user_id: int) -> str:
    return f"user-{user_id}"


def render_bell(*, user: Any) -> str:
    """The bell's count, swapped by id (sent on connect and after marking read)."""
    count = selectors.unread_count(user=user)
    return render_to_string("inbox/partials.html#bell-count", {"inbox_unread": count, "oob": True})


def render_push(*, notification: Notification) -> str:
    toast = render_to_string("inbox/partials.html#toast", {"notification": notification})
    return render_bell(user=notification.user) + toast


def notification_pushed(*, notification: Notification) -> None:
    """Send the new count and the notification to every open page of its user."""
    html = render_push(notification=notification)
    group_send(group_for_user(notification.user_id), {"type": "inbox.push", "html": html})
