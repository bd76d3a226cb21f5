from django.apps import AppConfig


class ProgressionConfig(AppConfig):
    name = "progression"
    verbose_name = "Progression"

    def ready(self) -> None:
        from games.signals import match_finished
        from progression.receivers import on_match_finished

        match_finished.connect(on_match_finished, dispatch_uid="progression.match_finished")
