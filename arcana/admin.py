"""Arcana in the Django admin: the ability cards (a rendered preview with the board's own
card partial, filters, SVG art uploaded or pasted and cleaned, and a "check with the
engine" action), players' collections, decks and the collection ledger (read-only).

The engine judges every card: the form runs the model's clean(), i.e. the engine's
validate_card, so invalid parameters are a form error and nothing is saved.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.template.loader import render_to_string

from arcana import checks
from arcana.models import ArcanaCard, ArcanaDeck, CardGrant, Collector, OwnedCard
from arcana.svg import MAX_SVG_CHARS
from arcana.templatetags.arcana import card_context


class ArcanaCardForm(forms.ModelForm):
    art_file = forms.FileField(
        label="Upload SVG art",
        required=False,
        help_text="An .svg file: it replaces the SVG art below (cleaned the same way).",
    )

    class Meta:
        model = ArcanaCard
        fields = (
            "card_id",
            "name",
            "slot",
            "value",
            "cost",
            "effect",
            "params",
            "rarity",
            "text",
            "flavour",
            "art",
            "art_svg",
            "art_file",
            "is_enabled",
            "season",
        )

    def clean_art_file(self):
        upload = self.cleaned_data.get("art_file")
        if not upload:
            return None
        if upload.size > MAX_SVG_CHARS * 4:
            raise forms.ValidationError("That file is too large for card art.")
        try:
            return upload.read().decode("utf-8")
        except UnicodeDecodeError:
            raise forms.ValidationError("An SVG file is UTF-8 text.") from None

    def _post_clean(self) -> None:
        if self.cleaned_data.get("art_file"):
            self.cleaned_data["art_svg"] = self.cleaned_data["art_file"]
        # The model's clean(): the SVG cleaner, then the engine.
        super()._post_clean()  # type: ignore[misc]  # django-stubs omit BaseModelForm._post_clean


@admin.register(ArcanaCard)
class ArcanaCardAdmin(admin.ModelAdmin):
    form = ArcanaCardForm
    list_display = (
        "small_preview",
        "card_id",
        "name",
        "slot",
        "value",
        "cost",
        "effect",
        "rarity",
        "is_enabled",
        "season",
    )
    list_display_links = ("card_id", "name")
    list_filter = ("is_enabled", "slot", "rarity", "effect", "season")
    search_fields = ("card_id", "name", "text", "flavour")
    readonly_fields = ("preview",)
    actions = ["check_with_engine"]

    def get_fields(self, request, obj=None):
        return ("preview", *ArcanaCardForm.Meta.fields)

    @admin.display(description="Preview")
    def preview(self, card: ArcanaCard) -> str:
        if card.pk is None:
            return "Save to see the card."
        return render_to_string("arcana/card.html", card_context(card))

    @admin.display(description="")
    def small_preview(self, card: ArcanaCard) -> str:
        return render_to_string("arcana/card.html", card_context(card, size="admin"))

    @admin.action(description="Check with the engine (AI matches: play rate, win-rate effect)")
    def check_with_engine(self, request, queryset) -> None:
        for card in queryset[: checks.MAX_CARDS]:
            check = checks.card_check(card=card)
            level = messages.SUCCESS if check.is_valid else messages.ERROR
            self.message_user(request, check.summary(), level)


@admin.register(Collector)
class CollectorAdmin(admin.ModelAdmin):
    list_display = ("user", "shards", "has_starter")
    search_fields = ("user__username",)
    readonly_fields = ("user", "shards", "has_starter")

    def has_add_permission(self, request) -> bool:
        return False  # shards come from progression (arcana.services.collection_grant)


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(OwnedCard)
class OwnedCardAdmin(ReadOnlyAdmin):
    list_display = ("user", "card", "level", "copies", "created")
    list_filter = ("level",)
    search_fields = ("user__username", "card__name")


@admin.register(ArcanaDeck)
class ArcanaDeckAdmin(ReadOnlyAdmin):
    list_display = ("name", "owner", "updated")
    search_fields = ("name", "owner__username")


@admin.register(CardGrant)
class CardGrantAdmin(ReadOnlyAdmin):
    list_display = ("created", "user", "card", "shards", "source")
    search_fields = ("user__username", "source")

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
