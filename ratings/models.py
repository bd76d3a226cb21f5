"""Ratings per game and player, the matches they were computed from, and their history.

Invariants:
- One `Rating` per (user, game). Its `system` is the game's rating system (ratings.systems):
  Glicko-2 for the two-player games, OpenSkill (Plackett-Luce) for Shield. `rating` and
  `deviation` are on one scale for both (a new player is 1500 ± 350 in Glicko-2,
  1500 ± 500 in OpenSkill), so one chart can hold every game.
- One `RatedMatch` per match ever rated: the idempotency key. Rating a match whose row
  exists changes nothing (ratings.services.match_rate).
- One `RatingChange` per (match, user): the before and after of that player in that match.
  It is the history behind the player page's chart, and never edited.
- Only ratings.services writes here.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class RatingSystem(models.TextChoices):
    GLICKO2 = "glicko2", "Glicko-2"
    OPENSKILL = "openskill", "OpenSkill (Plackett-Luce)"


class Rating(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    game = models.SlugField(max_length=32)
    system = models.CharField(max_length=16, choices=RatingSystem.choices)
    rating = models.FloatField()
    deviation = models.FloatField(help_text="Glicko-2 RD, or OpenSkill sigma (same scale).")
    volatility = models.FloatField(default=0.0, help_text="Glicko-2 only; 0 for OpenSkill.")
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    last_played = models.DateTimeField(null=True, blank=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "-rating"]
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="ratings_one_per_user_and_game")
        ]
        indexes = [models.Index(fields=["game", "-rating"], name="ratings_board")]

    def __str__(self) -> str:
        return f"{self.user} · {self.game} {self.rating:.0f} ± {self.deviation:.0f}"


class RatedMatch(models.Model):
    """A match whose result has moved ratings: at most one row per match, ever."""

    match = models.OneToOneField(
        "games.Match", on_delete=models.CASCADE, related_name="rated_match"
    )
    game = models.SlugField(max_length=32)
    system = models.CharField(max_length=16, choices=RatingSystem.choices)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]
        verbose_name_plural = "rated matches"

    def __str__(self) -> str:
        return f"Rated {self.match}"


class RatingChange(models.Model):
    """One player's rating before and after one rated match."""

    rated_match = models.ForeignKey(RatedMatch, on_delete=models.CASCADE, related_name="changes")
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    game = models.SlugField(max_length=32)
    place = models.PositiveSmallIntegerField(help_text="1 = first; tied seats share a place.")
    seats = models.PositiveSmallIntegerField(help_text="How many players the match had.")
    opponent_ids = models.JSONField(default=list, help_text="User ids of the other players.")
    rating_before = models.FloatField()
    deviation_before = models.FloatField()
    rating_after = models.FloatField()
    deviation_after = models.FloatField()
    played = models.DateTimeField(help_text="When the match finished.")

    class Meta:
        ordering = ["played", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="ratings_one_change_per_player")
        ]
        indexes = [models.Index(fields=["user", "game", "played"], name="ratings_history")]

    def __str__(self) -> str:
        return f"{self.user} · {self.match}: {self.rating_before:.0f} → {self.rating_after:.0f}"

    @property
    def delta(self) -> float:
        return self.rating_after - self.rating_before
