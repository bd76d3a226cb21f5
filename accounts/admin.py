from django.contrib import admin

from accounts.models import Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["user", "display_name", "created"]
    list_select_related = ["user"]
    search_fields = ["user__username", "user__email", "display_name"]
    raw_id_fields = ["user"]
    readonly_fields = ["created"]
    ordering = ["-created"]
