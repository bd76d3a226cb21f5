"""Progression: XP and levels, coins, daily quests, battle-pass seasons, cosmetics and
achievements. Every write goes through progression.services; nothing here has logic
beyond validation of what an admin types (a condition that must parse, CSS that must be
plain custom properties).

Exactly-once is held by unique constraints that back the services' row locks:
MatchCredit (match, user) for everything one finished match earns, TierClaim (user, tier,
track) for pass rewards, Ownership (user, cosmetic), DailyQuest (user, day, slot).
"""

from __future__ import annotations

import re
import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

from progression import conditions, cosmetic_art

TIME_ZONES = sorted(zoneinfo.available_timezones())


def validate_condition(text: str) -> None:
    try:
        conditions.parse(text)
    except conditions.ConditionError as error:
        raise ValidationError(error.message) from None


def validate_time_zone(name: str) -> None:
    if name not in zoneinfo.available_timezones():
        raise ValidationError(f"“{name}” is not a time zone I know, e.g. Europe/Paris or UTC.")


_CSS_DECLARATION = re.compile(r"^\s*--[a-z0-9-]+\s*:\s*[#(),.%\sa-zA-Z0-9-]+$")


def validate_theme_css(text: str) -> None:
    """Only `--name: value` custom properties, no url(), braces or angle brackets: the text
    is written into a page's <style>, so it must not be able to close it or load anything."""
    for declaration in filter(str.strip, text.split(";")):
        if not _CSS_DECLARATION.match(declaration) or "url" in declaration.lower():
            raise ValidationError(
                f"“{declaration.strip()}” is not a plain custom property like "
                "“--table: #1d3b2a”: write only --name: value; pairs (colours, gradients)."
            )


_ASSET = re.compile(r"^[a-z0-9][a-z0-9/_.-]*\.svg$")


def validate_asset(path: str) -> None:
    """A static SVG path like img/cosmetics/back-ember.svg (written into a CSS url())."""
    if ".." in path or not _ASSET.match(path):
        raise ValidationError(
            "Give the path of a static SVG file, e.g. img/cosmetics/back-ember.svg "
            "(lower-case letters, digits, / _ . - only)."
        )


class Rarity(models.TextChoices):
    COMMON = "common", "Common"
    RARE = "rare", "Rare"
    EPIC = "epic", "Epic"
    LEGENDARY = "legendary", "Legendary"


class Cosmetic(models.Model):
    """A card back, board theme or avatar frame. Cosmetic only: nothing here changes play."""

    class Kind(models.TextChoices):
        CARD_BACK = "card_back", "Card back"
        BOARD_THEME = "board_theme", "Board theme"
        AVATAR_FRAME = "avatar_frame", "Avatar frame"

    kind = models.CharField(max_length=16, choices=Kind.choices)
    slug = models.SlugField(max_length=48, unique=True)
    name = models.CharField(max_length=80)
    rarity = models.CharField(max_length=16, choices=Rarity.choices, default=Rarity.COMMON)
    description = models.CharField(max_length=200, blank=True)
    # The card back or frame, or a theme's preview swatch: an uploaded PNG or sanitized SVG
    # on the default storage (progression.cosmetic_art), or the path of a static file shipped
    # with the site (img/cosmetics/back-ember.svg), as every cosmetic had before uploads.
    asset = cosmetic_art.ArtField(
        upload_to=cosmetic_art.upload_to,
        max_length=200,
        blank=True,
        help_text="A PNG, or an SVG (sanitized on upload), at most 512 KB.",
    )
    css = models.TextField(
        blank=True,
        validators=[validate_theme_css],
        help_text="Board themes: custom properties, e.g. --table: #17324a; --table-2: #0b1a2a;",
    )
    is_starter = models.BooleanField(default=False, help_text="Owned by every player.")
    is_active = models.BooleanField(default=True)

    class Meta:
        ordering = ["kind", "name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_kind_display()})"

    @property
    def asset_url(self) -> str:
        return self.asset.url if self.asset else ""

    def clean(self) -> None:
        if self.kind in (self.Kind.CARD_BACK, self.Kind.AVATAR_FRAME) and not self.asset:
            raise ValidationError(
                {"asset": "Card backs and frames need an SVG asset or a PNG: upload one."}
            )
        if self.kind == self.Kind.BOARD_THEME and not self.css:
            raise ValidationError({"css": "A board theme needs its custom properties."})


class Reward(models.Model):
    """What a level, quest, achievement or pass tier gives (any mix; all optional)."""

    xp = models.PositiveIntegerField(default=0)
    coins = models.PositiveIntegerField(default=0)
    season_xp = models.PositiveIntegerField(default=0)
    cosmetic = models.ForeignKey(
        Cosmetic, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Grimhand Arcana (arcana/): shards to upgrade cards with, and one ability card.
    shards = models.PositiveIntegerField("Arcana shards", default=0, blank=True)
    arcana_card = models.ForeignKey(
        "arcana.ArcanaCard", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        abstract = True

    def clean(self) -> None:
        self.shards = self.shards or 0  # an emptied box means none

    def reward_text(self) -> str:
        parts = [
            f"{self.xp} XP" if self.xp else "",
            f"{self.coins} coins" if self.coins else "",
            f"{self.season_xp} season XP" if self.season_xp else "",
            self.cosmetic.name if self.cosmetic is not None else "",
            f"{self.shards} Arcana shards" if self.shards else "",
            f"Arcana card {self.arcana_card.name}" if self.arcana_card is not None else "",
        ]
        return ", ".join(part for part in parts if part) or "nothing"


class PlayerProgress(models.Model):
    """One row per player: XP, coins, time zone, what is equipped. Its row lock serialises
    every write about that player (match credit, quests, claims, purchases)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="progress"
    )
    xp = models.PositiveIntegerField(default=0)
    level = models.PositiveIntegerField(default=1)  # kept equal to levels.level_for(xp)
    coins = models.PositiveIntegerField(default=0)
    time_zone = models.CharField(max_length=64, default="UTC", validators=[validate_time_zone])
    reroll_day = models.DateField(null=True, blank=True)  # the local day of the last reroll
    card_back = models.ForeignKey(
        Cosmetic, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    board_theme = models.ForeignKey(
        Cosmetic, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    avatar_frame = models.ForeignKey(
        Cosmetic, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        verbose_name_plural = "player progress"

    def __str__(self) -> str:
        return f"{self.user} · level {self.level}"


class LevelReward(Reward):
    """The reward for reaching `level`. Levels without a row give the default coins
    (progression.levels.default_level_coins)."""

    level = models.PositiveIntegerField(unique=True)

    class Meta:
        ordering = ["level"]

    def __str__(self) -> str:
        return f"Level {self.level}"


class CoinEntry(models.Model):
    """The coin ledger: every coin earned (+) or spent (−), for the economy view."""

    class Reason(models.TextChoices):
        MATCH = "match", "Match"
        QUEST = "quest", "Quest"
        LEVEL = "level", "Level up"
        ACHIEVEMENT = "achievement", "Achievement"
        TIER = "tier", "Pass tier"
        PREMIUM = "premium", "Premium pass"
        GRANT = "grant", "Admin grant"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    amount = models.IntegerField()
    reason = models.CharField(max_length=16, choices=Reason.choices)
    note = models.CharField(max_length=200, blank=True)
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created"]
        verbose_name_plural = "coin entries"

    def __str__(self) -> str:
        return f"{self.user} {self.amount:+d} ({self.reason})"


class MatchCredit(models.Model):
    """What one finished match earned one player. Unique (match, user): the exactly-once
    guard of match processing; also what the match-end panel shows."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    xp = models.PositiveIntegerField(default=0)  # everything this match gave, quests included
    coins = models.PositiveIntegerField(default=0)
    season_xp = models.PositiveIntegerField(default=0)
    level_before = models.PositiveIntegerField(default=1)
    level_after = models.PositiveIntegerField(default=1)
    xp_after = models.PositiveIntegerField(default=0)
    lines = models.JSONField(default=list, blank=True)  # ["Win: +100 XP", "Quest …", …]
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="credit_once_per_match")
        ]

    def __str__(self) -> str:
        return f"{self.user} · match {self.match_id} · +{self.xp} XP"


class QuestTemplate(Reward):
    name = models.CharField(max_length=80)
    description = models.CharField(max_length=200, help_text="What the player reads.")
    condition = models.CharField(
        max_length=200,
        validators=[validate_condition],
        help_text="e.g. “win”, “event blocked sum amount in grimhand”, "
        "“event played where slot = flex in banira” (see docs/progression.md).",
    )
    target = models.PositiveIntegerField(default=1)
    is_active = models.BooleanField(default=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def parsed(self) -> conditions.Condition:
        return conditions.parse(self.condition)


class DailyQuest(models.Model):
    """One of a player's three quests of one local day. The reward is given when progress
    reaches the target (completed is set in the same write)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="daily_quests"
    )
    day = models.DateField()  # in the player's time zone
    slot = models.PositiveSmallIntegerField()
    template = models.ForeignKey(QuestTemplate, on_delete=models.CASCADE, related_name="+")
    progress = models.PositiveIntegerField(default=0)
    target = models.PositiveIntegerField()  # copied: an admin edit does not move a live quest
    completed = models.DateTimeField(null=True, blank=True)
    is_rerolled = models.BooleanField(default=False)  # this slot was drawn by a reroll

    class Meta:
        ordering = ["day", "slot"]
        constraints = [
            models.UniqueConstraint(fields=["user", "day", "slot"], name="quest_one_per_slot")
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.day} #{self.slot}: {self.template}"

    @property
    def is_completed(self) -> bool:
        return self.completed is not None

    @property
    def percent(self) -> int:
        return min(100, round(100 * self.progress / self.target)) if self.target else 100


class Season(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Open"
        CLOSED = "closed", "Closed"

    name = models.CharField(max_length=80)
    starts = models.DateTimeField()
    ends = models.DateTimeField()
    xp_per_tier = models.PositiveIntegerField(default=500)
    premium_price = models.PositiveIntegerField(default=600, help_text="In coins.")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)

    class Meta:
        ordering = ["-starts"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        if self.starts and self.ends and self.ends <= self.starts:
            raise ValidationError({"ends": "A season ends after it starts."})
        if self.xp_per_tier == 0:
            raise ValidationError({"xp_per_tier": "A tier needs at least 1 XP."})


TIER_REWARD_FIELDS = ("coins", "cosmetic_id", "shards", "card_id")


class SeasonTier(models.Model):
    """Tier `number` (1-based) of a season, reached at number × xp_per_tier season XP."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="tiers")
    number = models.PositiveIntegerField()
    free_coins = models.PositiveIntegerField(default=0)
    free_cosmetic = models.ForeignKey(
        Cosmetic, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    premium_coins = models.PositiveIntegerField(default=0)
    premium_cosmetic = models.ForeignKey(
        Cosmetic, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Grimhand Arcana (arcana/): shards and an ability card on either track.
    free_shards = models.PositiveIntegerField(default=0, blank=True)
    free_card = models.ForeignKey(
        "arcana.ArcanaCard", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    premium_shards = models.PositiveIntegerField(default=0, blank=True)
    premium_card = models.ForeignKey(
        "arcana.ArcanaCard", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["season", "number"]
        constraints = [
            models.UniqueConstraint(fields=["season", "number"], name="tier_unique_number")
        ]

    def __str__(self) -> str:
        return f"{self.season} · tier {self.number}"

    def clean(self) -> None:
        self.free_shards = self.free_shards or 0  # an emptied box means none
        self.premium_shards = self.premium_shards or 0

    @property
    def xp_needed(self) -> int:
        return self.number * self.season.xp_per_tier

    def gives(self, track: str) -> bool:
        """Whether this tier has anything on `track` ("free" or "premium")."""
        return any(getattr(self, f"{track}_{kind}") for kind in TIER_REWARD_FIELDS)


class SeasonProgress(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="players")
    xp = models.PositiveIntegerField(default=0)
    has_premium = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "season"], name="season_progress_once")
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.season}"


class TierClaim(models.Model):
    class Track(models.TextChoices):
        FREE = "free", "Free"
        PREMIUM = "premium", "Premium"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    tier = models.ForeignKey(SeasonTier, on_delete=models.CASCADE, related_name="claims")
    track = models.CharField(max_length=8, choices=Track.choices)
    is_automatic = models.BooleanField(default=False)  # granted at the season's close
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "tier", "track"], name="tier_claim_once")
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.tier} · {self.track}"


class Ownership(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="cosmetics"
    )
    cosmetic = models.ForeignKey(Cosmetic, on_delete=models.CASCADE, related_name="owners")
    source = models.CharField(max_length=80, blank=True)  # "Level 3", "Quest: …", "Season 1"
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "cosmetic"], name="own_once")]

    def __str__(self) -> str:
        return f"{self.user} owns {self.cosmetic}"


class Achievement(Reward):
    slug = models.SlugField(max_length=48, unique=True)
    name = models.CharField(max_length=80)
    description = models.CharField(max_length=200)
    condition = models.CharField(max_length=200, validators=[validate_condition])
    target = models.PositiveIntegerField(default=1)
    icon = models.CharField(max_length=8, default="★", help_text="A character or emoji.")
    is_active = models.BooleanField(default=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def parsed(self) -> conditions.Condition:
        return conditions.parse(self.condition)


class AchievementProgress(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="achievements"
    )
    achievement = models.ForeignKey(Achievement, on_delete=models.CASCADE, related_name="+")
    progress = models.PositiveIntegerField(default=0)
    unlocked = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "achievement"], name="achievement_once")
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.achievement}"
