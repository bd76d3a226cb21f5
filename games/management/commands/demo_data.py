"""Demo players and matches so a fresh `make run` has something to look at. Idempotent."""

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.test.utils import override_settings

from accounts.services import profile_ensure
from games import services
from games.models import Match
from progression.services import demo as progression_demo
from ratings import demo as ratings_demo

DEMO_PASSWORD = "cardhall-demo"
PLAYERS = [("alice", "Alice the Bold"), ("bob", "Bob Barker"), ("carol", "Carol")]


class Command(BaseCommand):
    help = "Create demo players (password: cardhall-demo), an admin (admin/admin) and matches."

    def handle(self, *args, **options):
        User = get_user_model()
        admin, created = User.objects.get_or_create(
            username="admin",
            defaults={"email": "admin@cardhall.example", "is_staff": True, "is_superuser": True},
        )
        if created:
            admin.set_password("admin")
            admin.save()
        profile_ensure(user=admin)
        users = {}
        for username, display in PLAYERS:
            user, created = User.objects.get_or_create(
                username=username, defaults={"email": f"{username}@cardhall.example"}
            )
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save()
            profile = profile_ensure(user=user)
            if not profile.display_name:
                profile.display_name = display
                profile.save(update_fields=["display_name"])
            users[username] = user
        call_command("load_banira_default_deck")  # BaniraCards' "Classic" deck list
        progression_demo.demo_content_load()  # cosmetics, quests, achievements, a season
        if Match.objects.exists():
            self.stdout.write("Demo matches already exist.")
            return
        alice, bob, carol = users["alice"], users["bob"], users["carol"]
        ai_match = services.match_create(creator=alice, game_slug="dogblade", opponent="ai")
        services.seat_set_autoplay(match_id=ai_match.pk, user=alice, is_enabled=True)
        services.match_create(
            creator=alice, game_slug="dogblade", opponent="player", invitee_username="bob"
        )
        live = services.match_create(
            creator=bob, game_slug="dogblade", opponent="player", invitee_username="carol"
        )
        services.match_join(match_id=live.pk, user=carol)
        services.match_create(creator=carol, game_slug="dogblade", opponent="open")
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
