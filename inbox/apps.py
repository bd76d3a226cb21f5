from django.apps import AppConfig


class InboxConfig(AppConfig):
    """Notifications: the notification centre, reminders, email and the daily digest."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "inbox"
    verbose_name = "Notifications"

    def ready(self) -> None:
        # The inbox sits above `games`, which imports nothing of it: a seat's turn ending
        # settles its notices through games.effects' "turn_ended" hook; the notices and
        # reminders that follow a change are sent by task name (docs/architecture.md).
        from games import effects
        from inbox import services

        effects.hook_register("turn_ended", "inbox.turn_notices", services.turn_ended)
