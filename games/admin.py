from django.contrib import admin

from games.models import Match, Move, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = (
        "index",
        "kind",
        "user",
        "ai_level",
        "joined",
        "resigned",
        "timed_out",
        "autoplay",
        "deadline",
    )
    readonly_fields = fields
    can_delete = False


class MoveInline(admin.TabularInline):
    model = Move
    extra = 0
    fields = ("ply", "seat", "payload", "user", "created")
    readonly_fields = fields
    can_delete = False
    ordering = ("ply",)


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    """Read-only: a match changes only through games.services (the move log is append-only)."""

    list_display = ("id", "game", "status", "ply", "created", "updated")
    list_filter = ("game", "status")
    search_fields = ("id", "seats__user__username")
    readonly_fields = (
        "game",
        "options",
        "size",
        "status",
        "seed_commitment",
        "ply",
        "to_act",
        "created_by",
        "created",
        "updated",
        "started",
        "finished",
        "outcome",
    )
    exclude = ("seed",)  # secret until the match ends; never shown, not even to staff
    inlines = [SeatInline, MoveInline]

    def has_add_permission(self, request):
        return False
