"""Chat, reports and sanctions (docs/community.md).

A chat line belongs to a match and to one of its two rooms: the seats' (the players, and
a waiting table's players so far) or the spectators'. Chat is text a person typed or a
canned emote: nothing else ever writes a line, so no card or hidden information reaches it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

MESSAGE_MAX = 300  # characters of a chat line


class ChatMessage(models.Model):
    class Room(models.TextChoices):
        SEATS = "seats", "Players"
        WATCH = "watch", "Spectators"

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    room = models.CharField(max_length=8, choices=Room.choices)
    sender = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.CharField(max_length=MESSAGE_MAX)
    emote = models.CharField(max_length=16, blank=True)  # a key of community.emotes.EMOTES
    created = models.DateTimeField(default=timezone.now)
    removed = models.DateTimeField(null=True, blank=True)  # set: hidden by a moderator
    removed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        indexes = [
            models.Index(fields=["match", "room", "created"]),
            models.Index(fields=["sender", "created"]),
        ]

    def __str__(self) -> str:
        return f"{self.sender_id} in #{self.match_id} ({self.room}): {self.text[:40]}"


class ChatSetting(models.Model):
    """A player's chat switch. No row: chat is on."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_setting"
    )
    is_chat_on = models.BooleanField(default=True)

    def __str__(self) -> str:
        return f"{self.user_id}: chat {'on' if self.is_chat_on else 'off'}"


class Report(models.Model):
    class Reason(models.TextChoices):
        ABUSE = "abuse", "Abuse or harassment"
        SPAM = "spam", "Spam or advertising"
        CHEATING = "cheating", "Cheating or collusion"
        NAME = "name", "Offensive name"
        OTHER = "other", "Something else"

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    message = models.ForeignKey(
        ChatMessage, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    match = models.ForeignKey(
        "games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reason = models.CharField(max_length=16, choices=Reason.choices)
    details = models.CharField(max_length=1000, blank=True)
    created = models.DateTimeField(default=timezone.now)
    resolved = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["resolved", "-created"]
        constraints = [  # one open report per reporter and message (a double click files one)
            models.UniqueConstraint(
                fields=["reporter", "message"],
                condition=models.Q(resolved__isnull=True, message__isnull=False),
                name="community_one_open_report_per_message",
            ),
        ]

    def __str__(self) -> str:
        return f"Report #{self.pk}: {self.get_reason_display()}"


class Sanction(models.Model):
    class Kind(models.TextChoices):
        MUTE = "mute", "Mute (cannot chat)"
        BAN = "ban", "Ban (cannot start, join or play matches)"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sanctions"
    )
    kind = models.CharField(max_length=8, choices=Kind.choices)
    reason = models.CharField(max_length=500)
    starts = models.DateTimeField(default=timezone.now)
    expires = models.DateTimeField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    report = models.ForeignKey(
        Report, null=True, blank=True, on_delete=models.SET_NULL, related_name="sanctions"
    )

    class Meta:
        indexes = [models.Index(fields=["user", "kind", "expires"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} of {self.user_id} until {self.expires:%Y-%m-%d %H:%M}"
