"""`manage.py demo_data`: everything a fresh `make run` shows, seeded app by app. Idempotent.

In order: the admin and the demo players (accounts), BaniraCards' Classic deck list
(banira), cosmetics, quests, achievements and a season (progression), a few Dog Blade
tables (games), then weeks of rated matches between the demo players (ratings). Each step
is its app's own service; this command only calls them and says what it did.
"""

from typing import Any

from django.core.management.base import BaseCommand
from django.test.utils import override_settings

from accounts import demo as accounts_demo
from banira.services import deck_list_load_default
from games import demo as games_demo
from progression.services import demo as progression_demo
from ratings import demo as ratings_demo


class Command(BaseCommand):
    help = "Create demo players (password: cardhall-demo), an admin (admin/admin) and matches."

    def handle(self, *args: Any, **options: Any) -> None:
        accounts_demo.demo_admin_ensure()
        players = accounts_demo.demo_players_ensure()
        classic, changed = deck_list_load_default()
        self.stdout.write(
            f"BaniraCards: “{classic.name}” holds {classic.card_count} cards "
            f"({changed} card definitions created or updated)."
        )
        season = progression_demo.demo_content_load()
        self.stdout.write(f"Progression: cosmetics, quests, achievements; “{season.name}”.")
        if not games_demo.demo_matches_create(players=players):
            self.stdout.write("Demo matches already exist.")
            return
        # Weeks of rated play between demo players, for the leaderboards and rating charts
        # (their invitation and turn emails would only flood the console: not sent).
        with override_settings(EMAIL_BACKEND="django.core.mail.backends.dummy.EmailBackend"):
            rated = ratings_demo.populate(scale=0.25)
        self.stdout.write(f"{rated} rated demo matches played.")
        self.stdout.write(
            self.style.SUCCESS(
                "Demo data ready: players alice, bob, carol (password cardhall-demo); admin/admin."
            )
        )
