"""Grimhand Arcana's cards as data, players' collections and decks.

Invariants:
- An `ArcanaCard` is one ability card design in the engine's own schema (CardDef). The
  engine is its judge: `clean()` runs the engine's `validate_card` and reports its message
  word for word, so nothing the admin saves can surprise a match. Enabled cards are the
  pool a new match copies into its options (arcana.services.match_options); a running match
  never reads this table again.
- `art_svg` only ever holds the output of arcana.svg.svg_clean (cleaned in `clean()`).
- An `OwnedCard` (user, card) is unique; `level` is 1..MAX_LEVEL, `copies` at least 1. A
  player's shards live on their `Collector` row, whose lock serialises every write about
  that player's collection (grants, upgrades, the starter set).
- An `ArcanaDeck` is a named list of card ids; it is checked (ownership, then the engine's
  check_deck) by the services that write it, and again when a match is created from it.
- Every card or shard a player gets is a `CardGrant` line (a level, a quest, the pass, the
  starter set, an upgrade's cost as negative shards): the ledger of the collection.
- The PvE path (arcana.path): a `PathStageRecord` (user, stage) is unique, `cleared` set
  once, at the first win (the reward is given then); a `PathFight` ties one match to the
  player and the stage, `settled` set once. Both are written by arcana.pve only.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from arcana.engine import card_problem, effect_choices
from arcana.svg import UnsafeSvg, svg_clean
from progression.models import validate_asset

MAX_LEVEL = 3
MAX_COST = 3


class Slot(models.TextChoices):
    ATTACK = "attack", "Attack"
    DEFENSE = "defense", "Defense"
    LUCKY = "lucky", "Lucky"
    SPELL = "spell", "Spell"


class Rarity(models.TextChoices):
    COMMON = "common", "Common"
    RARE = "rare", "Rare"
    EPIC = "epic", "Epic"
    LEGENDARY = "legendary", "Legendary"


class ArcanaCard(models.Model):
    card_id = models.SlugField(
        "card id",
        max_length=40,
        unique=True,
        help_text="How moves, decks and logs name the card, e.g. scrying_orb. Never reuse one.",
    )
    name = models.CharField(max_length=40)
    slot = models.CharField(max_length=8, choices=Slot.choices)
    value = models.SmallIntegerField(default=0)
    cost = models.PositiveSmallIntegerField(
        default=1, validators=[MaxValueValidator(MAX_COST)], help_text="Energy, 0 to 3."
    )
    effect = models.CharField(max_length=32, choices=effect_choices)
    params = models.JSONField(
        default=dict,
        blank=True,
        help_text='The effect\'s parameters as a JSON object, e.g. {"turns": 2, "amount": 3}.',
    )
    rarity = models.CharField(max_length=10, choices=Rarity.choices, default=Rarity.COMMON)
    text = models.CharField(
        max_length=200,
        blank=True,
        help_text="The one line a player reads. Empty: the engine's text for the effect.",
    )
    flavour = models.CharField(max_length=200, blank=True)
    art = models.CharField(
        "shipped art",
        max_length=200,
        blank=True,
        validators=[validate_asset],
        help_text="A static SVG shipped with the site, e.g. img/arcana/scrying_orb.svg.",
    )
    art_svg = models.TextField(
        "SVG art",
        blank=True,
        help_text="Inline SVG (cleaned on save: scripts, handlers and outside links go).",
    )
    is_enabled = models.BooleanField(
        "enabled", default=True, help_text="Only enabled cards go into new matches' pools."
    )
    season = models.ForeignKey(
        "progression.Season",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="arcana_cards",
        help_text="The season the card came with (empty: part of the base set).",
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["slot", "cost", "name"]

    def __str__(self) -> str:
        return f"{self.name} ({self.card_id})"

    def to_engine_card(self) -> dict[str, Any]:
        """The card as the engine's validate_card reads it (CardDef.to_json's shape)."""
        card: dict[str, Any] = {
            "id": self.card_id,
            "name": self.name,
            "slot": self.slot,
            "value": self.value,
            "cost": self.cost,
            "effect": self.effect,
            "params": dict(self.params) if isinstance(self.params, dict) else self.params,
            "rarity": self.rarity,
        }
        if self.text:
            card["text"] = self.text
        return card

    def clean(self) -> None:
        if self.name and not self.name.strip():
            raise ValidationError({"name": "A card needs a name players can read."})
        if not isinstance(self.params, dict):
            raise ValidationError({"params": 'Parameters are a JSON object, like {"turns": 2}.'})
        if self.art_svg:
            try:
                self.art_svg = svg_clean(self.art_svg)
            except UnsafeSvg as error:
                raise ValidationError({"art_svg": error.message}) from None
        problem = card_problem(self.to_engine_card())
        if problem:
            raise ValidationError(f"The engine refuses this card: {problem}")


class Collector(models.Model):
    """A player's side of Arcana: their shards, and whether they got the starter set. Its
    row lock serialises every write about their collection."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="arcana"
    )
    shards = models.PositiveIntegerField(default=0)
    has_starter = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"{self.user} · {self.shards} shards"


class OwnedCard(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="arcana_cards"
    )
    card = models.ForeignKey(ArcanaCard, on_delete=models.CASCADE, related_name="owners")
    level = models.PositiveSmallIntegerField(
        default=1, validators=[MinValueValidator(1), MaxValueValidator(MAX_LEVEL)]
    )
    copies = models.PositiveSmallIntegerField(default=1, validators=[MinValueValidator(1)])
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["card__slot", "card__name"]
        constraints = [
            models.UniqueConstraint(fields=["user", "card"], name="arcana_own_card_once"),
            models.CheckConstraint(
                condition=models.Q(level__gte=1, level__lte=MAX_LEVEL), name="arcana_level_1_to_3"
            ),
            models.CheckConstraint(condition=models.Q(copies__gte=1), name="arcana_copies_1_up"),
        ]

    def __str__(self) -> str:
        return f"{self.user} owns {self.copies} × {self.card.name} (level {self.level})"


class CardGrant(models.Model):
    """One line of a collection's ledger: cards or shards given (or shards spent)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    card = models.ForeignKey(
        ArcanaCard, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    shards = models.IntegerField(default=0)
    source = models.CharField(max_length=120)
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        what = self.card.name if self.card is not None else f"{self.shards:+d} shards"
        return f"{self.user}: {what} ({self.source})"


class ArcanaDeck(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="arcana_decks"
    )
    name = models.CharField(max_length=40)
    card_ids = models.JSONField(default=list)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["owner", "name"], name="arcana_deck_name_once")
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.owner})"


class PathStageRecord(models.Model):
    """A player's record on one stage of the PvE path (arcana.path): fights lost and won,
    and when it was first cleared. Written by arcana.pve only, under the player's
    PlayerProgress lock."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="arcana_path"
    )
    stage = models.SlugField(max_length=40)  # an arcana.path.Stage key
    attempts = models.PositiveIntegerField(default=0)  # fights finished without a win
    wins = models.PositiveIntegerField(default=0)
    cleared = models.DateTimeField(null=True, blank=True)  # the first win: rewards given then

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "stage"], name="arcana_path_stage_once")
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.stage} · {'cleared' if self.cleared else 'open'}"


class PathFight(models.Model):
    """One match of the path: which player fought which stage, and, once settled, how it
    went (settled exactly once: arcana.pve.fight_settle)."""

    class Result(models.TextChoices):
        PENDING = "", "In play"
        WON = "won", "Won"
        LOST = "lost", "Lost"

    match = models.OneToOneField(
        "games.Match", on_delete=models.CASCADE, related_name="arcana_fight"
    )
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    stage = models.SlugField(max_length=40)
    deck_name = models.CharField(max_length=40, blank=True)
    result = models.CharField(max_length=4, choices=Result.choices, blank=True)
    lines = models.JSONField(default=list, blank=True)  # the rewards, as the player reads them
    settled = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return f"{self.user} vs {self.stage} ({self.result or 'in play'})"

    @property
    def stage_title(self) -> str:
        from arcana.path import stage_get

        stage = stage_get(self.stage)
        return stage.title if stage else self.stage
