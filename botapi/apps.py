from django.apps import AppConfig


class BotapiConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "botapi"
    verbose_name = "Bot API"

    def ready(self) -> None:
        # Bots stay out of rated quick pairing unless their owner lets them in.
        from botapi.selectors import bot_pool_refusal
        from games.services import pairing

        if bot_pool_refusal not in pairing.POOL_CHECKS:
            pairing.POOL_CHECKS.append(bot_pool_refusal)
