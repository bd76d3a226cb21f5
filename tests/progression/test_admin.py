"""The progression admin: every page loads, edits save, a bad condition saves nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse

from progression import services
from progression.models import (
    Achievement,
    CoinEntry,
    Cosmetic,
    LevelReward,
    PlayerProgress,
    QuestTemplate,
    Season,
)
from progression.services.demo import demo_content_load

MODELS = [
    "cosmetic",
    "questtemplate",
    "achievement",
    "season",
    "levelreward",
    "playerprogress",
    "coinentry",
    "matchcredit",
    "dailyquest",
    "achievementprogress",
]


@pytest.fixture
def content(db, alice, finished_match):
    demo_content_load()
    finished_match()  # credits, quest progress, the first-win achievement
    services.reward_grant(user=alice, coins=10)
    return alice


@pytest.mark.parametrize("model", MODELS)
def test_changelist_add_and_change_pages_load(admin_client, content, model):
    assert admin_client.get(reverse(f"admin:progression_{model}_changelist")).status_code == 200
    add = admin_client.get(reverse(f"admin:progression_{model}_add"))
    assert add.status_code in (200, 403)  # 403: ledgers and player rows are not added by hand
    from django.apps import apps

    row = apps.get_model("progression", model).objects.first()
    change = admin_client.get(reverse(f"admin:progression_{model}_change", args=[row.pk]))
    assert change.status_code == 200


def test_a_quest_whose_condition_does_not_parse_is_not_saved(admin_client, db):
    response = admin_client.post(
        reverse("admin:progression_questtemplate_add"),
        {
            "name": "Broken",
            "description": "x",
            "condition": "event blok in grimhand",
            "target": 1,
            "xp": 0,
            "coins": 0,
            "season_xp": 0,
            "is_active": "on",
        },
    )
    assert response.status_code == 200
    assert "There is no event “blok” in grimhand" in response.content.decode()
    assert not QuestTemplate.objects.exists()


def test_a_good_quest_saves(admin_client, db):
    response = admin_client.post(
        reverse("admin:progression_questtemplate_add"),
        {
            "name": "Flex",
            "description": "Cover the Flex slot.",
            "condition": "event played where slot = flex in banira",
            "target": 1,
            "xp": 50,
            "coins": 10,
            "season_xp": 50,
            "is_active": "on",
        },
    )
    assert response.status_code == 302
    assert QuestTemplate.objects.get().condition.endswith("in banira")


def test_an_achievement_with_a_bad_condition_is_not_saved(admin_client, db):
    response = admin_client.post(
        reverse("admin:progression_achievement_add"),
        {
            "slug": "x",
            "name": "X",
            "description": "x",
            "condition": "win sum damage",
            "target": 1,
            "icon": "*",
            "xp": 0,
            "coins": 0,
            "season_xp": 0,
        },
    )
    assert "only goes with “event”" in response.content.decode()
    assert not Achievement.objects.exists()


def test_a_season_saves_with_its_tiers_inline(admin_client, db):
    response = admin_client.post(
        reverse("admin:progression_season_add"),
        {
            "name": "Season 9",
            "starts_0": "2026-01-01",
            "starts_1": "00:00:00",
            "ends_0": "2026-02-01",
            "ends_1": "00:00:00",
            "xp_per_tier": 400,
            "premium_price": 500,
            "status": "open",
            "tiers-TOTAL_FORMS": 2,
            "tiers-INITIAL_FORMS": 0,
            "tiers-0-number": 1,
            "tiers-0-free_coins": 10,
            "tiers-0-premium_coins": 20,
            "tiers-1-number": 2,
            "tiers-1-free_coins": 15,
            "tiers-1-premium_coins": 30,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Season.objects.get().tiers.count() == 2


def test_a_cosmetic_and_level_reward_save(admin_client, db):
    response = admin_client.post(
        reverse("admin:progression_cosmetic_add"),
        {
            "kind": "card_back",
            "name": "Test back",
            "slug": "test-back",
            "rarity": "rare",
            "asset": "img/cosmetics/back-ember.svg",
            "is_active": "on",
        },
    )
    assert response.status_code == 302
    item = Cosmetic.objects.get(slug="test-back")
    page = admin_client.get(reverse("admin:progression_cosmetic_change", args=[item.pk]))
    assert "/static/img/cosmetics/back-ember.svg" in page.content.decode()  # the preview
    response = admin_client.post(
        reverse("admin:progression_levelreward_add"),
        {"level": 3, "coins": 90, "season_xp": 0, "cosmetic": item.pk},
    )
    assert response.status_code == 302
    assert LevelReward.objects.get(level=3).cosmetic == item


def test_a_card_back_without_an_asset_is_refused(admin_client, db):
    response = admin_client.post(
        reverse("admin:progression_cosmetic_add"),
        {"kind": "card_back", "name": "No art", "slug": "no-art", "rarity": "common"},
    )
    assert "need an SVG asset" in response.content.decode()
    assert not Cosmetic.objects.exists()


def test_grant_reward_action(admin_client, content):
    row = PlayerProgress.objects.get(user=content)
    coins_before = row.coins
    url = reverse("admin:progression_playerprogress_changelist")
    form = admin_client.post(url, {"action": "grant_reward", "_selected_action": [row.pk]})
    assert "Grant a reward" in form.content.decode()
    done = admin_client.post(
        url,
        {
            "action": "grant_reward",
            "_selected_action": [row.pk],
            "apply": "1",
            "xp": 0,
            "coins": 250,
            "season_xp": 0,
            "note": "Thanks for testing",
        },
    )
    assert done.status_code == 302
    row.refresh_from_db()
    assert row.coins == coins_before + 250
    assert CoinEntry.objects.filter(reason="grant", note="Thanks for testing").exists()


def test_economy_view(admin_client, content):
    page = admin_client.get(reverse("admin:progression_economy"))
    assert page.status_code == 200
    assert "coins earned and spent per day" in page.content.decode()
