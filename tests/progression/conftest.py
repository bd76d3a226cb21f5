"""Fixtures of the progression tests: finished matches, quest templates, a season."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from games import services as match_services
from games.engine import registry
from games.models import Match
from progression.models import QuestTemplate, Season, SeasonTier
from tests.conftest import EXAMPLE_DEAL


def play_out(match: Match) -> Match:
    """Play a match's human seats to the end with each seat's first legal move."""
    game = registry.get(match.game)
    from games import selectors

    for _ in range(500):
        match.refresh_from_db()
        if match.status != Match.Status.ACTIVE:
            return match
        seat_index = match.seats_to_act[0]
        seat = match.seats.get(index=seat_index)
        if seat.is_ai:  # on-commit hooks do not run in a test transaction: play it here
            match_services.automation_run(match_id=match.pk)
            continue
        state = selectors.match_position(match=match).state
        move = game.legal_moves(state, seat_index)[0]
        match_services.move_submit(match_id=match.pk, user=seat.user, ply=match.ply, move=move)
    raise AssertionError("the match did not end")


@pytest.fixture
def finished_match(make_match, alice, bob):
    """A Dog Blade match alice (seat 0) vs bob (seat 1) that bob wins in four moves."""

    def make() -> Match:
        return play_out(make_match(alice, bob, options=EXAMPLE_DEAL))

    return make


@pytest.fixture
def quest_templates(db):
    """Exactly three active templates, so every player gets all three."""
    return [
        QuestTemplate.objects.create(
            name="Play 2 matches",
            description="Finish two matches.",
            condition="finish",
            target=2,
            xp=40,
            coins=20,
            season_xp=40,
        ),
        QuestTemplate.objects.create(
            name="Win one",
            description="Win a match.",
            condition="win",
            target=1,
            xp=60,
            coins=30,
            season_xp=60,
        ),
        QuestTemplate.objects.create(
            name="Strike 100",
            description="Deal 100 damage in Dog Blade.",
            condition="event attack sum damage in dogblade",
            target=100,
            xp=50,
        ),
    ]


@pytest.fixture
def season(db):
    now = timezone.now()
    season = Season.objects.create(
        name="Season 1",
        starts=now - datetime.timedelta(days=1),
        ends=now + datetime.timedelta(days=29),
        xp_per_tier=100,
        premium_price=300,
    )
    for number in range(1, 6):
        SeasonTier.objects.create(
            season=season, number=number, free_coins=10 * number, premium_coins=50 * number
        )
    return season
