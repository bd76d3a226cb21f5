from django.apps import AppConfig


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"
    verbose_name = "Ratings and leaderboards"

    def ready(self) -> None:
        # games.services sends match_finished inside the transaction that records a result;
        # rating it there means a result and its rating change commit (or fail) together.
        from games.signals import match_finished
        from ratings.receivers import rate_finished_match

        match_finished.connect(rate_finished_match, dispatch_uid="ratings.rate_finished_match")
