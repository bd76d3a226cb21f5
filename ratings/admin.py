"""Ratings in the admin, read-only: they are written by ratings.services from match
results alone, so an edit here would only make them disagree with their history."""

from __future__ import annotations

from django.contrib import admin

from ratings.models import RatedMatch, Rating, RatingChange


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ("user", "game", "system", "shown", "games", "wins", "last_played")
    list_filter = ("game", "system")
    search_fields = ("user__username", "user__profile__display_name")
    list_select_related = ("user",)
    ordering = ("game", "-rating")

    @admin.display(description="rating", ordering="rating")
    def shown(self, rating: Rating) -> str:
        return f"{rating.rating:.0f} ± {rating.deviation:.0f}"


class RatingChangeInline(admin.TabularInline):
    model = RatingChange
    fields = ("user", "place", "rating_before", "rating_after", "deviation_after")
    readonly_fields = fields
    can_delete = False
    extra = 0
    max_num = 0


@admin.register(RatedMatch)
class RatedMatchAdmin(ReadOnlyAdmin):
    list_display = ("match", "game", "system", "created")
    list_filter = ("game", "system")
    search_fields = ("match__id",)
    inlines = [RatingChangeInline]


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ("user", "game", "match", "place", "seats", "before", "after", "played")
    list_filter = ("game",)
    search_fields = ("user__username",)
    list_select_related = ("user", "match")
    date_hierarchy = "played"

    @admin.display(description="before")
    def before(self, change: RatingChange) -> str:
        return f"{change.rating_before:.0f} ± {change.deviation_before:.0f}"

    @admin.display(description="after")
    def after(self, change: RatingChange) -> str:
        return f"{change.rating_after:.0f} ± {change.deviation_after:.0f} ({change.delta:+.0f})"
