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
    cards = models.ManyToManyField(CardDefinition, through="DeckEntry", related_name="deck_lists")
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

    RUNS_PER_WEEK = 3

    week_start = models.DateField(unique=True, help_text="The Monday (UTC) the week starts on.")
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
