from django.apps import AppConfig


class BotapiConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "botapi"
    verbose_name = "Bot API"
