"""Load the engine's default BaniraCards deck as the "Classic" deck list. Idempotent."""

from django.core.management.base import BaseCommand

from banira.services import deck_list_load_default


class Command(BaseCommand):
    help = "Load the default BaniraCards deck (50 cards) into the “Classic” deck list."

    def handle(self, *args, **options):
        classic, changed = deck_list_load_default()
        self.stdout.write(
            self.style.SUCCESS(
                f"BaniraCards: “{classic.name}” holds {classic.card_count} cards "
                f"({changed} card definitions created or updated)."
            )
        )
