from django.contrib import admin

from inbox.models import Notification, NotificationSettings


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    list_display = ("created", "user", "kind", "text", "in_app", "read_at", "emailed_at")
    list_filter = ("kind", "in_app")
    search_fields = ("user__username", "key", "text")
    raw_id_fields = ("user", "match")
    date_hierarchy = "created"


@admin.register(NotificationSettings)
class NotificationSettingsAdmin(admin.ModelAdmin):
    list_display = ("user", "in_app", "email", "digest", "digest_hour")
    search_fields = ("user__username",)
    raw_id_fields = ("user",)
