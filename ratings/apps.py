from django.apps import AppConfig


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"
    verbose_name = "Ratings and leaderboards"

    def ready(self) -> None:
        # Ratings sit above `games`, which imports nothing of them (docs/architecture.md,
        # "Between apps"): a result is rated through games.effects' "ratings.rate" slot,
        # quick pairing reads a player's rating, and the lobby asks whether a table can be
        # rated, each through what games hands out to register with.
        from games import effects
        from games.selectors import lobby
        from games.services import pairing
        from ratings import selectors, services, systems

        effects.hook_register("match_finished", "ratings.rate", services.match_finished_rate)
        lobby.rateable_register(systems.rates)
        pairing.rating_source_register(selectors.rating_value)
