"""Follows (friends), blocks and each player's consent to be shown online.

A follow is one way (I follow you); "friends" are the players I follow. A block is one
way too, but what it closes works both ways: neither player can invite, challenge, join
or be quick-paired with the other (games.admission, registered in SocialConfig.ready).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Follow(models.Model):
    follower = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follows"
    )
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
            models.CheckConstraint(
                condition=~models.Q(follower=models.F("followed")), name="follow_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.follower} follows {self.followed}"


class Block(models.Model):
    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocked_by"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="block_once"),
            models.CheckConstraint(
                condition=~models.Q(blocker=models.F("blocked")), name="block_not_self"
            ),
        ]
        indexes = [models.Index(fields=["blocked", "blocker"], name="block_reverse")]

    def __str__(self) -> str:
        return f"{self.blocker} blocks {self.blocked}"


class Visibility(models.Model):
    """A player's consent to show others that they are online (off until they say so)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="visibility"
    )
    shows_online = models.BooleanField(default=False)
    updated = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.user} · online shown: {self.shows_online}"
