"""The BaniraCards card pool as data, and the site's record of practice runs.

Invariants:
- A `CardDefinition` is one card design; its choices and limits come from the engine's
  constants (games/engine/banira/cards.py), so nothing the admin saves can surprise it.
- A `DeckList` holds its cards through ordered `DeckEntry` rows, each with a `count` of
  copies. `to_engine_deck()` spells it as the engine's plain list of card dicts: copies of
  one card get their own ids ("aq1", "aq1#2", ...), as the engine requires unique ids.
- The engine is the judge of a deck list: `DeckList.clean()` and the admin's inline both
  call `engine_deck_problem`, which runs the engine's own `parse_deck` and reports its
  `InvalidOptions` message word for word (e.g. not exactly 50 cards).
- A run copies the deck into its match options when it starts (banira/services.py), so
  editing a list later never changes an old run or its replay.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from games.engine.banira.cards import (
    DECK_SIZE,
    ELEMENTS,
    ID_LENGTH,
    NAME_LENGTH,
    RARITIES,
    STAT_LIMIT,
    TYPES,
    parse_deck,
)
from games.engine.core import InvalidOptions

COPY_SUFFIX_ROOM = 4  # "#2".."#50": a copy's id must still fit the engine's id length
STAT_VALIDATORS = [MinValueValidator(-STAT_LIMIT), MaxValueValidator(STAT_LIMIT)]


def _choices(values: Iterable[str]) -> list[tuple[str, str]]:
    return [(value, value.capitalize()) for value in values]


class CardDefinition(models.Model):
    card_id = models.SlugField(
        "card id",
        max_length=ID_LENGTH - COPY_SUFFIX_ROOM,
        unique=True,
        help_text="How moves and logs name the card (copies get “#2”, “#3”… added).",
    )
    name = models.CharField(max_length=NAME_LENGTH)
    element = models.CharField(max_length=16, choices=_choices(ELEMENTS))
    type = models.CharField(max_length=8, choices=_choices(TYPES))
    rarity = models.CharField(max_length=8, choices=_choices(RARITIES))
    points = models.SmallIntegerField(validators=STAT_VALIDATORS)
    stamina = models.SmallIntegerField(validators=STAT_VALIDATORS)
    draws = models.SmallIntegerField(validators=STAT_VALIDATORS)

    class Meta:
        ordering = ["element", "card_id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.card_id})"

    @property
    def stat_total(self) -> int:
        return self.points + self.stamina + self.draws

    def clean(self) -> None:
        if self.name and not self.name.strip():
            raise ValidationError({"name": "A card needs a name players can read."})

    def to_engine_card(self, card_id: str | None = None) -> dict[str, Any]:
        return {
            "id": card_id or self.card_id,
            "name": self.name,
            "element": self.element,
            "type": self.type,
            "rarity": self.rarity,
            "points": self.points,
            "stamina": self.stamina,
            "draws": self.draws,
        }


def engine_deck(entries: Iterable[tuple[CardDefinition, int]]) -> list[dict[str, Any]]:
    """The engine's deck list from (card, copies) pairs, in order; copies get "#n" ids."""
    seen: Counter[str] = Counter()
    deck = []
    for card, count in entries:
        for _ in range(count):
            seen[card.card_id] += 1
            copy = seen[card.card_id]
            deck.append(
                card.to_engine_card(card.card_id if copy == 1 else f"{card.card_id}#{copy}")
            )
    return deck


def engine_deck_problem(deck: list[dict[str, Any]]) -> str | None:
    """The engine's own objection to a deck list (its InvalidOptions message), or None."""
    try:
        parse_deck(deck)
    except InvalidOptions as error:
        return error.message
    return None


class DeckList(models.Model):
    name = models.CharField(max_length=80)
    slug = models.SlugField(max_length=80, unique=True)
    description = models.TextField(blank=True)
    is_active = models.BooleanField(
        "active for practice",
        default=False,
        help_text="Active lists are offered for practice runs on the BaniraCards page.",
    )
    cards: models.ManyToManyField[CardDefinition, DeckEntry] = models.ManyToManyField(
        CardDefinition, through="DeckEntry", related_name="deck_lists"
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-is_active", "name"]

    def __str__(self) -> str:
        return self.name

    def entry_pairs(self) -> list[tuple[CardDefinition, int]]:
        entries = self.entries.select_related("card").order_by("position", "pk")
        return [(entry.card, entry.count) for entry in entries]

    def to_engine_deck(self) -> list[dict[str, Any]]:
        """The list as the engine receives it: a plain list of 50 card dicts."""
        return engine_deck(self.entry_pairs())

    @property
    def card_count(self) -> int:
        return sum(count for _, count in self.entry_pairs())

    def clean(self) -> None:
        # The admin checks the entries being edited in its inline instead (banira/admin.py):
        # the saved ones are about to be replaced.
        if self.pk is None or getattr(self, "entries_checked_elsewhere", False):
            return
        problem = engine_deck_problem(self.to_engine_deck())
        if problem:
            raise ValidationError(problem)


class DeckEntry(models.Model):
    deck_list = models.ForeignKey(DeckList, on_delete=models.CASCADE, related_name="entries")
    card = models.ForeignKey(CardDefinition, on_delete=models.PROTECT, related_name="entries")
    position = models.PositiveSmallIntegerField(default=0)
    count = models.PositiveSmallIntegerField(
        default=1, validators=[MinValueValidator(1), MaxValueValidator(DECK_SIZE)]
    )

    class Meta:
        ordering = ["position", "pk"]
        verbose_name_plural = "deck entries"
        constraints = [
            models.UniqueConstraint(fields=["deck_list", "card"], name="banira_one_entry_per_card")
        ]

    def __str__(self) -> str:
        return f"{self.count} × {self.card}"


class PracticeRun(models.Model):
    """A practice run: a match of BaniraCards on a fresh random seed, with the deck it used.

    The deck itself lives in the match options (the source of truth for the replay); the
    list here is only where it came from, and may since have changed or gone.
    """

    match = models.OneToOneField(
        "games.Match", on_delete=models.CASCADE, related_name="banira_practice"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="banira_practice_runs"
    )
    deck_list = models.ForeignKey(DeckList, null=True, blank=True, on_delete=models.SET_NULL)
    deck_name = models.CharField(max_length=80)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"Practice run #{self.match_id} ({self.deck_name})"


class WeeklyChallenge(models.Model):
    """One week of the weekly challenge: one deck list for everyone and three secret seeds.

    Invariants:
    - One row per ISO week (Monday 00:00 UTC to the next Monday), by `week_start`.
    - `deck` is the list's engine deck frozen when the week was created: editing the list
      mid-week changes nothing (`deck_list` only says where it came from).
    - Everyone's real run k of the week deals from `seed_k` (see `seed_for`). The seeds are
      secret until the week is over and `is_revealed` is set (banira.services.weekly_rollover);
      no page renders them before.
    """

    RUNS_PER_WEEK = 3  # the most a week can have: it has three seeds

    week_start = models.DateField(unique=True, help_text="The Monday (UTC) the week starts on.")
    # Copied from WeeklySettings when the week is made: an admin's change applies from the
    # next week, so everyone of one week has had the same number of runs.
    runs_per_week = models.PositiveSmallIntegerField(
        default=RUNS_PER_WEEK, validators=[MinValueValidator(1), MaxValueValidator(RUNS_PER_WEEK)]
    )
    # Set once the week's prizes are granted (banira.services.weekly_prizes_award): never twice.
    prizes_awarded = models.DateTimeField(null=True, blank=True, editable=False)
    deck_list = models.ForeignKey(DeckList, on_delete=models.PROTECT, related_name="weeks")
    deck_name = models.CharField(max_length=80)
    deck = models.JSONField(help_text="The engine deck, frozen when the week was created.")
    seed_1 = models.BinaryField(max_length=32, editable=False)  # secret until revealed
    seed_2 = models.BinaryField(max_length=32, editable=False)
    seed_3 = models.BinaryField(max_length=32, editable=False)
    is_revealed = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-week_start"]

    def __str__(self) -> str:
        return f"Weekly challenge of {self.week_start:%Y-%m-%d} ({self.deck_name})"

    @property
    def runs_text(self) -> str:
        """ "three runs": the week's runs per week, in words."""
        return {1: "one run", 2: "two runs"}.get(self.runs_per_week, "three runs")

    def seed_for(self, index: int) -> bytes:
        """The seed of every player's real run `index` (1..3) this week."""
        if index not in range(1, self.RUNS_PER_WEEK + 1):
            raise ValueError(f"A week has real runs 1 to {self.RUNS_PER_WEEK}, not {index}.")
        return bytes(getattr(self, f"seed_{index}"))


class ChallengeRun(models.Model):
    """A player's real run `index` (1..3) of a week: a match dealt from the week's seed."""

    challenge = models.ForeignKey(WeeklyChallenge, on_delete=models.PROTECT, related_name="runs")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="banira_weekly_runs"
    )
    index = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(WeeklyChallenge.RUNS_PER_WEEK)]
    )
    match = models.OneToOneField(
        "games.Match", on_delete=models.CASCADE, related_name="banira_weekly"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["challenge", "user", "index"]
        constraints = [
            models.UniqueConstraint(
                fields=["challenge", "user", "index"], name="banira_one_run_k_per_player_week"
            ),
            models.CheckConstraint(
                condition=models.Q(index__gte=1, index__lte=3), name="banira_run_index_1_to_3"
            ),
        ]

    def __str__(self) -> str:
        return f"Weekly run {self.index} of {self.user} ({self.challenge.week_start:%Y-%m-%d})"


class WeeklySettings(models.Model):
    """The weekly challenge's settings, edited in the admin: one row (pk 1), made on first
    need by `banira.services.weekly_settings`. They apply to weeks made after the change."""

    runs_per_week = models.PositiveSmallIntegerField(
        default=WeeklyChallenge.RUNS_PER_WEEK,
        validators=[MinValueValidator(1), MaxValueValidator(WeeklyChallenge.RUNS_PER_WEEK)],
        help_text="Real runs each player gets per week (1 to 3: a week has three seeds).",
    )
    deck_list = models.ForeignKey(
        DeckList,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name="weekly deck",
        help_text="The deck of weeks with none scheduled. Empty: the first active list by name.",
    )

    class Meta:
        verbose_name = verbose_name_plural = "weekly challenge settings"

    def __str__(self) -> str:
        return "Weekly challenge settings"


class WeeklyDeckSchedule(models.Model):
    """The deck of one coming week, chosen ahead. Frozen into the week when it starts."""

    week_start = models.DateField(unique=True, help_text="The Monday (UTC) of the week.")
    deck_list = models.ForeignKey(DeckList, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["week_start"]
        verbose_name = "scheduled weekly deck"

    def __str__(self) -> str:
        return f"{self.week_start:%Y-%m-%d}: {self.deck_list}"

    def clean(self) -> None:
        if self.week_start and self.week_start.weekday() != 0:
            raise ValidationError({"week_start": "A week starts on a Monday: pick a Monday."})
        if self.deck_list_id is not None:
            problem = engine_deck_problem(self.deck_list.to_engine_deck())
            if problem:
                raise ValidationError({"deck_list": f"This list cannot be played: {problem}"})


class PrizeTier(models.Model):
    """A prize every week gives when it ends (banira.services.weekly_prizes_award): to the
    top N of the week's leaderboard, to each player whose best run reached a score, or to
    every player who finished or gave up a real run. Coins, an item, or both."""

    class Kind(models.TextChoices):
        TOP = "top", "Top places"
        SCORE = "score", "Score threshold"
        PARTICIPATION = "participation", "Participation"

    name = models.CharField(max_length=80, help_text="What players read, e.g. “Podium”.")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    top_n = models.PositiveSmallIntegerField(
        "top N", null=True, blank=True, help_text="Top places: the first N of the week."
    )
    min_score = models.IntegerField(
        null=True, blank=True, help_text="Score threshold: a best run of at least this score."
    )
    coins = models.PositiveIntegerField(default=0)
    cosmetic = models.ForeignKey(
        "progression.Cosmetic", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    is_active = models.BooleanField(default=True)

    class Meta:
        ordering = ["kind", "top_n", "-min_score", "name"]

    def __str__(self) -> str:
        return self.name

    @property
    def rule(self) -> str:
        if self.kind == self.Kind.TOP:
            return f"Top {self.top_n}"
        if self.kind == self.Kind.SCORE:
            return f"Score {self.min_score} or more"
        return "Every player who finished or gave up a run"

    @property
    def prize(self) -> str:
        parts = [f"{self.coins} coins"] if self.coins else []
        if self.cosmetic is not None:
            parts.append(f"“{self.cosmetic.name}”")
        return " and ".join(parts)

    def clean(self) -> None:
        if self.kind == self.Kind.TOP and not self.top_n:
            raise ValidationError({"top_n": "Top places need N: how many places win."})
        if self.kind == self.Kind.SCORE and self.min_score is None:
            raise ValidationError({"min_score": "A score threshold needs the score to reach."})
        if not self.coins and self.cosmetic_id is None:
            raise ValidationError("A prize gives coins, an item, or both.")


class PrizeAward(models.Model):
    """One prize granted to one player for one week: the ledger that keeps it to once."""

    challenge = models.ForeignKey(WeeklyChallenge, on_delete=models.CASCADE, related_name="awards")
    tier = models.ForeignKey(PrizeTier, on_delete=models.PROTECT, related_name="awards")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    tier_name = models.CharField(max_length=80)  # as the tier was named that week
    rank = models.PositiveIntegerField(null=True, blank=True)
    score = models.IntegerField(null=True, blank=True)
    coins = models.PositiveIntegerField(default=0)
    cosmetic = models.ForeignKey(
        "progression.Cosmetic", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["challenge", "rank", "tier", "user"]
        constraints = [
            models.UniqueConstraint(
                fields=["challenge", "tier", "user"], name="banira_prize_once_per_week"
            )
        ]

    def __str__(self) -> str:
        return f"{self.tier_name} to {self.user} ({self.challenge.week_start:%Y-%m-%d})"
