from django.apps import AppConfig


class InboxConfig(AppConfig):
    """Notifications: the notification centre, reminders, email and the daily digest."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "inbox"
    verbose_name = "Notifications"
