from django.apps import AppConfig


class ArcanaConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "arcana"
    verbose_name = "Grimhand Arcana"
