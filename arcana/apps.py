from django.apps import AppConfig


class ArcanaConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "arcana"
    verbose_name = "Grimhand Arcana"

    def ready(self) -> None:
        # Arcana sits above `games` and `progression`, which import nothing of it: it hands
        # them its hooks (docs/architecture.md, "Rules the tools enforce"). A PvE path fight
        # is settled in its match's result transaction; rewards of Arcana cards and shards
        # (a level, a quest, a pass tier) go to the player's collection.
        from arcana import pve, services, tables
        from games import decks, effects
        from progression.services import players

        effects.hook_register("match_finished", "arcana.pve", pve.fight_result_record)
        decks.source_register(tables.DECKS)
        players.collection_grant_register(services.collection_grant)
