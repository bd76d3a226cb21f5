from django.apps import AppConfig


class ProgressionConfig(AppConfig):
    name = "progression"
    verbose_name = "Progression"

    def ready(self) -> None:
        # Progression sits above `games`, which imports nothing of it (docs/architecture.md,
        # "Between apps"): a result is credited through games.effects' "progression.credit"
        # slot; the level bar that follows a finished board and the looks loaded with a
        # board's players are handed to games.rendering and games.selectors.
        from games import effects, rendering, selectors
        from progression import fragments
        from progression.selectors import SEAT_LOOKS
        from progression.services import matches

        effects.hook_register("match_finished", "progression.credit", matches.match_result_record)
        rendering.after_result_register("progression.level_bar", fragments.level_bar_oob_html)
        selectors.player_details_register(*SEAT_LOOKS)
