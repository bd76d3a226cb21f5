from django.apps import AppConfig


class BaniraConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "banira"
    verbose_name = "BaniraCards"
