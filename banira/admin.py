"""The card pool in the Django admin: card definitions, deck lists with their ordered
entries, and an action that checks lists with the engine (validity and a greedy-bot
score over simulated runs, as a balancing aid). The weekly challenge's weeks are read-only
here: they are made by banira.services, and their seeds are shown only once revealed. Its
settings (runs per week, the weekly deck), the decks scheduled for coming weeks and the
prize tiers are edited here; the prizes granted are read-only. Every add, change and delete
is in Django's LogEntry history (docs/operations-admin.md)."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError

from banira import services
from banira.models import (
    CardDefinition,
    ChallengeRun,
    DeckEntry,
    DeckList,
    PracticeRun,
    PrizeAward,
    PrizeTier,
    WeeklyChallenge,
    WeeklyDeckSchedule,
    WeeklySettings,
    engine_deck,
    engine_deck_problem,
)


@admin.register(CardDefinition)
class CardDefinitionAdmin(admin.ModelAdmin):
    list_display = (
        "card_id",
        "name",
        "element",
        "type",
        "rarity",
        "points",
        "stamina",
        "draws",
        "stat_total",
    )
    list_filter = ("element", "rarity", "type")
    search_fields = ("card_id", "name")
    ordering = ("element", "card_id")


class DeckEntryFormSet(forms.BaseInlineFormSet):
    """The entries as edited are the deck the engine must accept (exactly 50 cards...)."""

    def clean(self) -> None:
        super().clean()
        if any(self.errors):
            return
        pairs = []
        for form in sorted(self.forms, key=lambda f: f.cleaned_data.get("position") or 0):
            data = form.cleaned_data
            if not data or data.get("DELETE") or data.get("card") is None:
                continue
            pairs.append((data["card"], data.get("count") or 1))
        problem = engine_deck_problem(engine_deck(pairs))
        if problem:
            raise ValidationError(problem)


class DeckEntryInline(admin.TabularInline):
    model = DeckEntry
    formset = DeckEntryFormSet
    fields = ("position", "card", "count")
    autocomplete_fields = ("card",)
    extra = 0


class DeckListForm(forms.ModelForm):
    class Meta:
        model = DeckList
        fields = ("name", "slug", "description", "is_active")

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.instance.entries_checked_elsewhere = True  # DeckEntryFormSet checks the edit


@admin.register(DeckList)
class DeckListAdmin(admin.ModelAdmin):
    form = DeckListForm
    list_display = ("name", "slug", "is_active", "card_count", "updated")
    list_filter = ("is_active",)
    search_fields = ("name", "slug", "description")
    prepopulated_fields = {"slug": ("name",)}
    inlines = [DeckEntryInline]
    actions = ["check_with_engine"]

    @admin.action(description="Check with the engine (validity and greedy-bot mean score)")
    def check_with_engine(self, request, queryset) -> None:
        for deck_list in queryset:
            check = services.deck_list_check(deck_list=deck_list, runs=services.CHECK_RUNS)
            level = messages.SUCCESS if check.is_valid else messages.ERROR
            self.message_user(request, check.summary(), level)


@admin.register(PracticeRun)
class PracticeRunAdmin(admin.ModelAdmin):
    list_display = ("match", "user", "deck_name", "created")
    search_fields = ("user__username", "deck_name")
    readonly_fields = ("match", "user", "deck_list", "deck_name", "created")

    def has_add_permission(self, request) -> bool:
        return False  # a run is started by its player (services.run_start_practice)


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(WeeklyChallenge)
class WeeklyChallengeAdmin(ReadOnlyAdmin):
    list_display = ("week_start", "deck_name", "runs_per_week", "is_revealed", "prizes_awarded")
    list_filter = ("is_revealed",)
    fields = (
        "week_start",
        "deck_list",
        "deck_name",
        "runs_per_week",
        "is_revealed",
        "prizes_awarded",
        "seeds",
        "created",
    )
    readonly_fields = fields

    @admin.display(description="seeds (hex)")
    def seeds(self, challenge: WeeklyChallenge) -> str:
        if not challenge.is_revealed:
            return "Secret until the week ends."
        return " · ".join(challenge.seed_for(k).hex() for k in (1, 2, 3))


@admin.register(ChallengeRun)
class ChallengeRunAdmin(ReadOnlyAdmin):
    list_display = ("challenge", "user", "index", "match", "created")
    list_filter = ("challenge",)
    search_fields = ("user__username",)
    fields = ("challenge", "user", "index", "match", "created")
    readonly_fields = fields


@admin.register(WeeklySettings)
class WeeklySettingsAdmin(admin.ModelAdmin):
    """One row: the runs per week and the default weekly deck, for weeks made from now on."""

    list_display = ("__str__", "runs_per_week", "deck_list")
    fields = ("runs_per_week", "deck_list")

    def has_add_permission(self, request) -> bool:
        return not WeeklySettings.objects.exists()

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def changelist_view(self, request, extra_context=None):
        services.weekly_settings()  # the one row exists before anyone looks for it
        return super().changelist_view(request, extra_context)


@admin.register(WeeklyDeckSchedule)
class WeeklyDeckScheduleAdmin(admin.ModelAdmin):
    """The deck of a coming week (a Monday), frozen into that week when it starts."""

    list_display = ("week_start", "deck_list", "is_started")
    ordering = ("-week_start",)

    @admin.display(boolean=True, description="started")
    def is_started(self, row: WeeklyDeckSchedule) -> bool:
        return WeeklyChallenge.objects.filter(week_start=row.week_start).exists()

    def get_readonly_fields(self, request, obj=None):
        # A week that has started has its deck frozen: changing the schedule would mislead.
        return ("week_start", "deck_list") if obj and self.is_started(obj) else ()


@admin.register(PrizeTier)
class PrizeTierAdmin(admin.ModelAdmin):
    list_display = ("name", "kind", "rule", "prize", "is_active")
    list_filter = ("kind", "is_active")
    fields = ("name", "kind", "top_n", "min_score", "coins", "cosmetic", "is_active")


@admin.register(PrizeAward)
class PrizeAwardAdmin(ReadOnlyAdmin):
    list_display = ("challenge", "tier_name", "user", "rank", "score", "coins", "cosmetic")
    list_filter = ("challenge", "tier")
    search_fields = ("user__username",)
