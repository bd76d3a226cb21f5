from django.apps import AppConfig


class CommunityConfig(AppConfig):
    name = "community"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from community import admission

        admission.register_checks()
