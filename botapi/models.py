"""Personal API tokens and bot accounts.

A token is stored as the SHA-256 of its text, never the text: it is shown once, when made.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ApiToken(models.Model):
    class Scope(models.TextChoices):
        PLAY = "play", "Play: create, join and play matches"
        READ = "read", "Read: games, matches, exports and streams"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=60)
    scopes = models.JSONField(default=list)  # a list of Scope values
    digest = models.CharField(max_length=64, unique=True)  # sha256 of the token, hex
    prefix = models.CharField(max_length=12)  # the token's first characters, to tell it apart
    created = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True)
    revoked = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def is_active(self) -> bool:
        return self.revoked is None

    def has_scope(self, scope: str) -> bool:
        return scope in self.scopes


class BotAccount(models.Model):
    """An account marked as a bot: labelled wherever players are listed, and kept out of
    rated quick pairing unless `joins_rated_pools`."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bot_account"
    )
    joins_rated_pools = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"bot {self.user_id}"


class TokenMatch(models.Model):
    """A match this token opened or joined through the API: its per-token cap of matches
    waiting or in play (botapi.limits.check_matches)."""

    token = models.ForeignKey(ApiToken, on_delete=models.CASCADE, related_name="matches")
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["token", "match"], name="token_match_once"),
        ]

    def __str__(self) -> str:
        return f"token {self.token_id} match {self.match_id}"
