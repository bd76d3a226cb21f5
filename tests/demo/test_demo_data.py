"""`manage.py demo_data`: the one entry point that seeds every app, in order, once."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from accounts.demo import DEMO_PASSWORD, DEMO_PLAYERS
from banira.models import DeckEntry, DeckList
from games.models import Match, Seat
from progression.models import Achievement, Cosmetic, QuestTemplate, Season
from progression.services import demo as progression_demo
from ratings import demo as ratings_demo
from ratings.models import RatedMatch, Rating

pytestmark = pytest.mark.django_db


def _demo_data() -> str:
    out = StringIO()
    call_command("demo_data", stdout=out)
    return out.getvalue()


def _counts() -> dict[str, int]:
    models = (get_user_model(), Match, Seat, RatedMatch, Rating, DeckList, DeckEntry, Season)
    return {model.__name__: model.objects.count() for model in models}


@pytest.fixture
def short_schedule(monkeypatch):
    """The ratings demo's schedule cut to one match of each kind (demo_data plays a
    quarter of the configured schedule, at least one of each)."""
    duels = {"dogblade": 1, "grimhand": 1, "haymaker": 1}
    monkeypatch.setattr(ratings_demo, "DUELS_PER_GAME", duels)
    monkeypatch.setattr(ratings_demo, "SHIELD_TABLES", 1)


def test_it_seeds_every_app_and_a_second_run_changes_nothing(short_schedule):
    out = _demo_data()
    assert "Demo data ready" in out and "4 rated demo matches played" in out

    users = get_user_model().objects
    admin = users.get(username="admin")
    assert admin.is_superuser and admin.check_password("admin")
    for username, display, can_log_in in DEMO_PLAYERS:
        player = users.get(username=username)
        assert player.profile.display_name == display
        assert player.check_password(DEMO_PASSWORD) is can_log_in
        assert player.has_usable_password() is can_log_in

    classic = DeckList.objects.get(slug="classic")  # banira
    assert classic.is_active and classic.entries.count() == 50
    assert Season.objects.filter(status="open").count() == 1  # progression
    assert QuestTemplate.objects.count() == len(progression_demo.QUESTS)
    assert Achievement.objects.count() == len(progression_demo.ACHIEVEMENTS)
    assert Cosmetic.objects.count() == len(progression_demo.COSMETICS)

    demo_tables = Match.objects.filter(game="dogblade", rated_match__isnull=True)  # games
    statuses = list(demo_tables.values_list("status", flat=True))
    assert len(statuses) == 4  # alice v the AI, her invitation, bob v carol, an open table
    assert statuses.count(Match.Status.WAITING) == 2  # alice's invitation, carol's open table
    assert Match.Status.ACTIVE in statuses  # bob and carol's live match
    assert RatedMatch.objects.count() == 4  # ratings: one of each duel and a Shield table
    assert {rating.game for rating in Rating.objects.all()} == {
        "dogblade",
        "grimhand",
        "haymaker",
        "shield",
    }

    before = _counts()
    assert "Demo matches already exist." in _demo_data()
    assert _counts() == before
