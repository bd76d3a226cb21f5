from django.apps import AppConfig


class CommunityConfig(AppConfig):
    name = "community"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from community import admission, pushes
        from games import notifications

        admission.register_checks()
        notifications.reach_check_register(pushes.REACH, pushes.line_reaches)
        notifications.reach_check_register(pushes.REMOVED_REACH, pushes.removal_reaches)
