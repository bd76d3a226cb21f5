"""The pages: quests, season, collection, achievements, the header, the match-end panel;
bad input is a message and a redirect, nothing written."""

from __future__ import annotations

import pytest
from django.urls import reverse

from progression.levels import level_bar
from progression.models import MatchCredit, SeasonProgress, TierClaim
from progression.services.demo import demo_content_load


@pytest.fixture
def demo(db):
    return demo_content_load()


@pytest.mark.parametrize("name", ["home", "season", "collection", "achievements"])
def test_pages_load(client, alice, demo, name):
    client.force_login(alice)
    response = client.get(reverse(f"progression:{name}"))
    assert response.status_code == 200
    assert 'data-testid="header-level"' in response.content.decode()


def test_quest_page_draws_todays_quests_lazily(client, alice, demo):
    client.force_login(alice)
    page = client.get(reverse("progression:home")).content.decode()
    assert page.count('class="quest-card') == 3


def test_claiming_a_tier_not_reached_says_why(client, alice, demo):
    client.force_login(alice)
    tier = demo.tiers.get(number=1)
    response = client.post(
        reverse("progression:claim"), {"tier": tier.pk, "track": "free"}, follow=True
    )
    assert "Tier 1 needs 300 season XP; you have 0" in response.content.decode()
    assert not TierClaim.objects.exists()


def test_malformed_claim_is_a_message_not_a_500(client, alice, demo):
    client.force_login(alice)
    response = client.post(reverse("progression:claim"), {"tier": "x"})
    assert response.status_code == 400  # bad input (config.inputs): the site's 400 page
    assert "The reward tier must be a whole number" in response.content.decode()


def test_buying_premium_without_coins_says_why(client, alice, demo):
    client.force_login(alice)
    response = client.post(reverse("progression:premium"), {"season": demo.pk}, follow=True)
    assert "costs 500 coins; you have 0" in response.content.decode()
    assert not SeasonProgress.objects.filter(has_premium=True).exists()


def test_equipping_what_i_do_not_own_says_why(client, alice, demo):
    from progression.models import Cosmetic

    client.force_login(alice)
    ember = Cosmetic.objects.get(slug="back-ember")
    response = client.post(reverse("progression:equip"), {"cosmetic": ember.pk}, follow=True)
    assert "You don&#x27;t own “Ember” yet" in response.content.decode()


def test_match_end_panel_and_player_page(client, finished_match, bob, demo):
    match = finished_match()
    client.force_login(bob)
    page = client.get(match.get_absolute_url()).content.decode()
    assert 'data-testid="match-xp"' in page
    credit = MatchCredit.objects.get(match=match, user=bob)
    bar = level_bar(credit.xp_after)
    assert f"+{credit.xp} XP" in page  # the win, plus the quests and achievement it completed
    assert f"Level {bar.level}, {bar.percent}% to {bar.level + 1}" in page
    player = client.get(reverse("player", args=[bob.username])).content.decode()
    assert 'data-testid="player-progress"' in player
    assert "First blood" in player  # the Dog Blade first-win achievement
