from django.contrib import admin

from inbox.models import Notification, NotificationSettings, PushSubscription


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = (
        "created",
        "user",
        "kind",
        "text",
        "in_app",
        "read_at",
        "emailed_at",
        "pushed_at",
    )
    list_filter = ("kind", "in_app")
    search_fields = ("user__username", "key", "text")
    raw_id_fields = ("user", "match")
    date_hierarchy = "created"


@admin.register(NotificationSettings)
class NotificationSettingsAdmin(admin.ModelAdmin):
    list_display = ("user", "in_app", "email", "push", "digest", "digest_hour")
    search_fields = ("user__username",)
    raw_id_fields = ("user",)


@admin.register(PushSubscription)
class PushSubscriptionAdmin(admin.ModelAdmin):
    """The browsers players turned Web Push on for; deleting one stops pushes to it."""

    list_display = ("created", "user", "device", "last_sent")
    search_fields = ("user__username", "device")
    raw_id_fields = ("user",)
    readonly_fields = ("endpoint", "p256dh", "auth", "created", "last_sent")
