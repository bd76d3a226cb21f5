"""Rate every finished rated match that has no rating yet, oldest result first.

For a match whose rating failed when it finished (logged by games.effects), or for
matches that finished before the ratings app existed. Safe to run any number of times:
a match already rated is skipped by ratings.services.match_rate.
"""

from django.core.management.base import BaseCommand

from games.models import Match
from ratings import services, systems


class Command(BaseCommand):
    help = "Rate finished rated matches that have no rating yet (oldest first)."

    def handle(self, *args, **options) -> None:
        pending = (
            Match.objects.filter(
                status=Match.Status.FINISHED,
                game__in=list(systems.GAME_SYSTEMS),
                rated_match__isnull=True,
            )
            .order_by("finished", "pk")
            .values_list("pk", flat=True)
        )
        rated = sum(services.match_rate(match_id=pk) is not None for pk in pending.iterator())
        self.stdout.write(f"Rated {rated} match(es).")
