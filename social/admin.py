"""Read-mostly admin lists of follows, blocks and online consents (players make them)."""

from django.contrib import admin

from social.models import Block, Follow, Visibility


@admin.register(Block)
class BlockAdmin(admin.ModelAdmin):
    list_display = ("created", "blocker", "blocked")
    search_fields = ("blocker__username", "blocked__username")
    raw_id_fields = ("blocker", "blocked")
    date_hierarchy = "created"


@admin.register(Follow)
class FollowAdmin(admin.ModelAdmin):
    list_display = ("created", "follower", "followed")
    search_fields = ("follower__username", "followed__username")
    raw_id_fields = ("follower", "followed")


@admin.register(Visibility)
class VisibilityAdmin(admin.ModelAdmin):
    list_display = ("user", "shows_online", "updated")
    search_fields = ("user__username",)
    raw_id_fields = ("user",)
