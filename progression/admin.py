"""Progression in the Django admin: cosmetics with previews, quest templates and
achievements (their condition is parsed on save: a bad one is a form error, nothing
saved), seasons with their tiers inline, level rewards, players' progress with an action to
grant a reward, what each player owns (with an action to revoke an item, for a reason),
and a read-only coin ledger with the economy view (earned/spent per day).

Writes that move rewards go through progression.services; the admin edits content only.
Every grant and revoke writes an audit row (Django's LogEntry on the player's progress row:
who, when, what, why), shown in that row's history (docs/operations-admin.md).
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.files.uploadedfile import UploadedFile
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join

from progression import conditions, cosmetic_art, selectors, services
from progression.errors import ProgressionError
from progression.models import (
    Achievement,
    AchievementProgress,
    CoinEntry,
    Cosmetic,
    DailyQuest,
    LevelReward,
    MatchCredit,
    Ownership,
    PlayerProgress,
    QuestTemplate,
    Season,
    SeasonTier,
    validate_asset,
)


def _preview(cosmetic: Cosmetic | None, size: int = 56) -> str:
    if cosmetic is None:
        return "—"
    if cosmetic.asset:
        return format_html(
            '<img src="{}" alt="" style="height:{}px;border-radius:6px;'
            'box-shadow:0 2px 6px #0006;vertical-align:middle">',
            cosmetic.asset_url,
            size,
        )
    return format_html(
        '<span style="display:inline-block;width:{}px;height:{}px;border-radius:8px;'
        "background:var(--cos-table);box-shadow:inset 0 0 0 2px var(--cos-accent, #888);"
        'vertical-align:middle;{}"></span>',
        int(size * 1.4),
        size,
        cosmetic.css,
    )


class ArtInput(forms.ClearableFileInput):
    """A file to upload, or the path of a static file shipped with the site (the way every
    cosmetic was given art before uploads), typed in a text box of the same name."""

    def value_from_datadict(self, data, files, name):
        upload = super().value_from_datadict(data, files, name)
        if upload in (None, False) and (data.get(name) or "").strip():
            return data.get(name).strip()
        return upload

    def render(self, name, value, attrs=None, renderer=None):
        typed = value.name if value and cosmetic_art.is_static(value.name) else ""
        return format_html(
            '{}<p>or the path of a static file: <input type="text" name="{}" value="{}" '
            'size="40" placeholder="img/cosmetics/back-ember.svg"></p>',
            super().render(name, value, attrs, renderer),
            name,
            typed,
        )


class ArtFormField(forms.FileField):
    widget = ArtInput

    def clean(self, data, initial=None):
        if isinstance(data, str):
            validate_asset(data)
            return data
        return super().clean(data, initial)


class CosmeticForm(forms.ModelForm):
    """A new upload is checked and made safe (`cosmetic_art.art_clean`) before it is stored:
    a bad file is a form error and nothing is saved. A typed static path is checked as
    before (`validate_asset`)."""

    asset = ArtFormField(required=False, help_text=Cosmetic._meta.get_field("asset").help_text)

    class Meta:
        model = Cosmetic
        fields = (
            "kind",
            "name",
            "slug",
            "rarity",
            "description",
            "asset",
            "css",
            "is_starter",
            "is_active",
        )

    def clean_asset(self):
        asset = self.cleaned_data.get("asset")
        if asset and isinstance(asset, UploadedFile):
            return cosmetic_art.art_clean(asset)
        return asset


@admin.register(Cosmetic)
class CosmeticAdmin(admin.ModelAdmin):
    form = CosmeticForm
    list_display = ("preview", "name", "kind", "rarity", "is_starter", "is_active")
    list_filter = ("kind", "rarity", "is_active")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    readonly_fields = ("large_preview",)
    fields = (
        "kind",
        "name",
        "slug",
        "rarity",
        "description",
        "asset",
        "css",
        "large_preview",
        "is_starter",
        "is_active",
    )

    @admin.display(description="Preview")
    def preview(self, cosmetic: Cosmetic) -> str:
        return _preview(cosmetic, 40)

    @admin.display(description="Preview")
    def large_preview(self, cosmetic: Cosmetic) -> str:
        return _preview(cosmetic, 120) if cosmetic.pk else "Save to see the preview."


class ConditionHelpMixin:
    """Shows how the condition parses, so an admin sees what will be counted."""

    @admin.display(description="Parsed condition")
    def parsed_condition(self, row: QuestTemplate | Achievement) -> str:
        try:
            parsed = conditions.parse(row.condition)
        except conditions.ConditionError as error:
            return error.message
        return format_html("<code>{}</code>", parsed.to_json())


@admin.register(QuestTemplate)
class QuestTemplateAdmin(ConditionHelpMixin, admin.ModelAdmin):
    list_display = ("name", "condition", "target", "reward", "is_active")
    list_filter = ("is_active",)
    search_fields = ("name", "condition")
    readonly_fields = ("parsed_condition",)
    fields = (
        "name",
        "description",
        "condition",
        "parsed_condition",
        "target",
        "xp",
        "coins",
        "season_xp",
        "cosmetic",
        "shards",
        "arcana_card",
        "is_active",
    )

    @admin.display(description="Reward")
    def reward(self, template: QuestTemplate) -> str:
        return template.reward_text()


@admin.register(Achievement)
class AchievementAdmin(ConditionHelpMixin, admin.ModelAdmin):
    list_display = ("icon", "name", "condition", "target", "is_active")
    search_fields = ("name", "slug", "condition")
    prepopulated_fields = {"slug": ("name",)}
    readonly_fields = ("parsed_condition",)


class SeasonTierInline(admin.TabularInline):
    model = SeasonTier
    extra = 0
    fields = (
        "number",
        "free_coins",
        "free_cosmetic",
        "free_preview",
        "premium_coins",
        "premium_cosmetic",
        "premium_preview",
        "free_shards",
        "free_card",
        "premium_shards",
        "premium_card",
    )
    readonly_fields = ("free_preview", "premium_preview")

    @admin.display(description="")
    def free_preview(self, tier: SeasonTier) -> str:
        return _preview(tier.free_cosmetic, 36) if tier.pk else ""

    @admin.display(description="")
    def premium_preview(self, tier: SeasonTier) -> str:
        return _preview(tier.premium_cosmetic, 36) if tier.pk else ""


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ("name", "starts", "ends", "status", "xp_per_tier", "premium_price", "tiers")
    list_filter = ("status",)
    inlines = [SeasonTierInline]

    @admin.display(description="Tiers")
    def tiers(self, season: Season) -> int:
        return season.tiers.count()


@admin.register(LevelReward)
class LevelRewardAdmin(admin.ModelAdmin):
    list_display = ("level", "coins", "season_xp", "cosmetic", "preview")
    fields = ("level", "coins", "season_xp", "cosmetic", "shards", "arcana_card")

    @admin.display(description="Preview")
    def preview(self, reward: LevelReward) -> str:
        return _preview(reward.cosmetic, 36)


class GrantForm(forms.Form):
    xp = forms.IntegerField(min_value=0, initial=0, label="XP")
    coins = forms.IntegerField(min_value=0, initial=0)
    season_xp = forms.IntegerField(min_value=0, initial=0, label="Season XP")
    cosmetic = forms.ModelChoiceField(Cosmetic.objects.filter(is_active=True), required=False)
    note = forms.CharField(max_length=80, required=False, initial="Gift from the Cardhall team")


@admin.register(PlayerProgress)
class PlayerProgressAdmin(admin.ModelAdmin):
    list_display = ("user", "level", "xp", "coins", "time_zone")
    search_fields = ("user__username",)
    readonly_fields = ("user", "xp", "level", "coins", "reroll_day", "owned_items")
    fields = (
        "user",
        "level",
        "xp",
        "coins",
        "time_zone",
        "reroll_day",
        "card_back",
        "board_theme",
        "avatar_frame",
        "owned_items",
    )
    actions = ["grant_reward"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a player's row is made by their first match or page

    @admin.display(description="Owns")
    def owned_items(self, row: PlayerProgress) -> str:
        owned = Ownership.objects.filter(user_id=row.user_id).select_related("cosmetic")
        items = format_html_join(
            "",
            "<li>{} {} <small>({}, {})</small></li>",
            (
                (
                    _preview(own.cosmetic, 24),
                    own.cosmetic.name,
                    own.source or "no source",
                    own.created.date(),
                )
                for own in owned.order_by("cosmetic__kind", "cosmetic__name")
            ),
        )
        url = reverse("admin:progression_ownership_changelist") + f"?user__id__exact={row.user_id}"
        return format_html(
            '<ul style="margin:0;padding-left:1em">{}</ul><a href="{}">See or revoke them</a>',
            items or format_html("<li>{}</li>", "No items beyond the starter ones."),
            url,
        )

    @admin.action(description="Grant a reward to the selected players")
    def grant_reward(self, request: HttpRequest, queryset) -> HttpResponse | None:
        form = GrantForm(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            data = form.cleaned_data
            granted = 0
            for row in queryset.select_related("user"):
                try:
                    services.reward_grant(user=row.user, **data)
                except ProgressionError as error:
                    self.message_user(request, error.message, messages.ERROR)
                    return None
                self.log_change(request, row, _grant_text(data))
                granted += 1
            self.message_user(request, f"Granted to {granted} player(s).", messages.SUCCESS)
            return None
        return render(
            request,
            "admin/progression/grant.html",
            {
                **self.admin_site.each_context(request),
                "title": "Grant a reward",
                "form": form,
                "players": queryset,
                "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
                "opts": self.model._meta,
            },
        )


def _grant_text(data: dict) -> str:
    parts = [f"{data[key]} {label}" for key, label in GRANT_LABELS if data.get(key)]
    if data.get("cosmetic") is not None:
        parts.append(f"“{data['cosmetic'].name}”")
    return f"Granted {', '.join(parts)}. Note: {data.get('note') or 'none'}"


GRANT_LABELS = (("xp", "XP"), ("coins", "coins"), ("season_xp", "season XP"))


class RevokeForm(forms.Form):
    reason = forms.CharField(
        max_length=200,
        widget=forms.Textarea(attrs={"rows": 2, "cols": 60}),
        help_text="Required: kept in the audit log of each player.",
    )

    def clean_reason(self) -> str:
        reason = " ".join(self.cleaned_data["reason"].split())
        if not reason:
            raise forms.ValidationError("Give a reason for taking the item back.")
        return reason


@admin.register(Ownership)
class OwnershipAdmin(admin.ModelAdmin):
    """What players own. Items are granted from Player progress ("Grant a reward", or the
    game's own rewards) and taken back here with "Revoke", for a reason, through
    `progression.services.cosmetic_revoke`; rows are never edited or deleted directly."""

    list_display = ("user", "preview", "cosmetic", "kind", "source", "created")
    list_filter = ("cosmetic__kind", "cosmetic__rarity")
    search_fields = ("user__username", "cosmetic__name", "cosmetic__slug")
    list_select_related = ("user", "cosmetic")
    actions = ["revoke"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_revoke_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("progression.delete_ownership")

    @admin.display(description="Preview")
    def preview(self, row: Ownership) -> str:
        return _preview(row.cosmetic, 32)

    @admin.display(description="Kind", ordering="cosmetic__kind")
    def kind(self, row: Ownership) -> str:
        return row.cosmetic.get_kind_display()

    @admin.action(description="Revoke the selected items…", permissions=["revoke"])
    def revoke(self, request: HttpRequest, queryset) -> HttpResponse | None:
        rows = list(queryset.select_related("user", "cosmetic").order_by("user_id", "pk"))
        form = RevokeForm(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            reason, revoked = form.cleaned_data["reason"], 0
            for row in rows:
                try:
                    owned = services.cosmetic_revoke(user=row.user, cosmetic_id=row.cosmetic_id)
                except ProgressionError as error:
                    self.message_user(request, f"{row}: {error.message}", messages.ERROR)
                    continue
                if owned is None:
                    continue  # already revoked (a second click, another admin)
                progress = PlayerProgress.objects.get(user=row.user)
                text = f"Revoked “{row.cosmetic.name}” (from: {row.source or 'no source'})."
                self.log_change(request, progress, f"{text} Reason: {reason}")
                revoked += 1
            self.message_user(request, f"Revoked {revoked} item(s).", messages.SUCCESS)
            return None
        return render(
            request,
            "admin/progression/revoke.html",
            {
                **self.admin_site.each_context(request),
                "title": "Revoke items",
                "form": form,
                "rows": rows,
                "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
                "opts": self.model._meta,
            },
        )


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


@admin.register(CoinEntry)
class CoinEntryAdmin(ReadOnlyAdmin):
    """The ledger, read-only; its changelist links to the economy view."""

    list_display = ("created", "user", "amount", "reason", "note")
    list_filter = ("reason",)
    search_fields = ("user__username", "note")
    date_hierarchy = "created"
    change_list_template = "admin/progression/coinentry_changelist.html"

    def get_urls(self):
        view = self.admin_site.admin_view(self.economy_view)
        return [path("economy/", view, name="progression_economy"), *super().get_urls()]

    def economy_view(self, request: HttpRequest) -> HttpResponse:
        return render(
            request,
            "admin/progression/economy.html",
            {
                **self.admin_site.each_context(request),
                "title": "Economy: coins earned and spent per day",
                "days": selectors.economy_by_day(days=60),
                "by_reason": selectors.economy_by_reason(),
                "opts": self.model._meta,
            },
        )


@admin.register(MatchCredit)
class MatchCreditAdmin(ReadOnlyAdmin):
    list_display = ("created", "user", "match", "xp", "coins", "season_xp", "level_after")
    search_fields = ("user__username",)


@admin.register(DailyQuest)
class DailyQuestAdmin(ReadOnlyAdmin):
    list_display = ("day", "user", "template", "progress", "target", "completed")
    list_filter = ("day",)
    search_fields = ("user__username",)


@admin.register(AchievementProgress)
class AchievementProgressAdmin(ReadOnlyAdmin):
    list_display = ("user", "achievement", "progress", "unlocked")
    search_fields = ("user__username",)
