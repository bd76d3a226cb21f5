"""Notifications and each player's choice of channels.

A Notification row is also the ledger that keeps every reminder to at most once: its `key`
is unique per user (`turn:<seat>:<turn started>`, `late:<seat>:<deadline>`, …), so a task
that runs twice, or two workers at once, create it once and send it once. Rows that
were only recorded (the player was looking at the match, or switched every channel off)
have `in_app` false and never show.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Notification(models.Model):
    class Kind(models.TextChoices):
        TURN = "turn", "Your turn"
        LATE = "late", "Running late"
        INVITE = "invite", "Invitation"
        REMATCH = "rematch", "Rematch offered"
        PAUSE = "pause", "Pause requested"
        FINISHED = "finished", "Match finished"
        DIGEST = "digest", "Daily digest"  # email only: the row is the once-a-day ledger

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=16, choices=Kind.choices)
    match = models.ForeignKey(
        "games.Match", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    text = models.CharField(max_length=200)
    url = models.CharField(max_length=200, blank=True)
    key = models.CharField(max_length=120)  # the dedup key: one notification per (user, key)
    created = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)
    in_app = models.BooleanField(default=True)  # shown in the centre and pushed live
    by_email = models.BooleanField(default=False)  # an email is due
    emailed_at = models.DateTimeField(null=True, blank=True)  # set when the email was sent
    by_push = models.BooleanField(default=False)  # a Web Push to the player's devices is due
    pushed_at = models.DateTimeField(null=True, blank=True)  # set when the push was claimed

    class Meta:
        ordering = ["-created", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="notification_unique_key"),
        ]
        indexes = [
            models.Index(fields=["user", "in_app", "read_at"], name="notification_unread"),
            models.Index(fields=["user", "-created"], name="notification_recent"),
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.kind} · {self.key}"

    @property
    def is_read(self) -> bool:
        return self.read_at is not None


EMAILED_KINDS = ("turn", "late", "invite", "rematch")  # the kinds an email can be sent for
# The kinds a Web Push can be sent for: the same, chosen with the same per-kind list.
PUSHED_KINDS = EMAILED_KINDS


def default_email_kinds() -> list[str]:
    return list(EMAILED_KINDS)


# The kinds the notification centre can show (the daily digest is email only), in its order.
CENTRE_KINDS = ("turn", "late", "invite", "rematch", "pause", "finished")


def default_centre_kinds() -> list[str]:
    return list(CENTRE_KINDS)


class NotificationSettings(models.Model):
    """Which channels a player wants; created lazily with everything but the digest on."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_settings"
    )
    in_app = models.BooleanField("In the notification centre", default=True)
    # Which kinds the centre shows when it is on (of CENTRE_KINDS; all of them by default).
    # An unticked kind is still recorded (and emailed or pushed if chosen), never shown.
    centre_kinds = models.JSONField(
        "Show these in the centre", default=default_centre_kinds, blank=True
    )
    email = models.BooleanField("By email", default=True)
    # Which kinds go by email when email is on (of EMAILED_KINDS; all of them by default).
    email_kinds = models.JSONField("Email these", default=default_email_kinds, blank=True)
    digest = models.BooleanField("Daily digest by email", default=False)
    digest_hour = models.PositiveSmallIntegerField("Digest hour (local)", default=8)
    # Web Push to the devices the player subscribed (PushSubscription); off until they opt
    # in on the settings page. The kinds pushed are `email_kinds`: one per-kind choice.
    push = models.BooleanField("Push to my devices", default=False)

    class Meta:
        verbose_name_plural = "notification settings"

    def __str__(self) -> str:
        return f"notification settings of {self.user}"


class PushSubscription(models.Model):
    """One browser (device) that accepted Web Push for a player: the push service's endpoint
    and the keys the payload is encrypted with (RFC 8291). The endpoint names the browser,
    so it is unique: subscribing again from a browser someone else used moves it over."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=100)  # the browser's P-256 public key, base64url
    auth = models.CharField(max_length=40)  # the 16-byte auth secret, base64url
    device = models.CharField(max_length=120, blank=True)  # the user agent, to tell them apart
    created = models.DateTimeField(auto_now_add=True)
    last_sent = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return f"push subscription of {self.user} · {self.device or self.endpoint[:40]}"
