from django.apps import AppConfig


class SocialConfig(AppConfig):
    """Friends (follows), who is online, challenges and blocking (docs/social.md)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "social"
    verbose_name = "Friends and blocking"

    def ready(self) -> None:
        from games import admission
        from social import selectors

        admission.register(selectors.block_refusal)
