"""Cards and shards come from progression: levels, quests (and achievements), pass tiers."""

from __future__ import annotations

import datetime

import pytest
from django.db import transaction
from django.utils import timezone

from arcana import selectors
from arcana.models import ArcanaCard, CardGrant, OwnedCard
from progression import levels, services
from progression.errors import NotYet
from progression.models import LevelReward, QuestTemplate, Season, SeasonProgress, SeasonTier
from progression.services import Grant, grant_apply, progress_locked

pytestmark = pytest.mark.django_db


def _apply(user, grant: Grant):
    with transaction.atomic():
        return grant_apply(progress_locked(user), grant)


def test_every_level_gives_shards_by_default(alice) -> None:
    grant = Grant(xp=levels.xp_for_level(3))
    _apply(alice, grant)
    assert selectors.shards_of(user=alice) == 2 * levels.DEFAULT_LEVEL_SHARDS
    assert f"+{levels.DEFAULT_LEVEL_SHARDS} Arcana shards" in grant.lines
    assert CardGrant.objects.filter(user=alice, source="Level 2").exists()


def test_a_level_reward_gives_a_card_and_shards(alice) -> None:
    hex_card = ArcanaCard.objects.get(card_id="hex")
    LevelReward.objects.create(level=2, coins=10, arcana_card=hex_card, shards=5)
    grant = Grant(xp=levels.xp_for_level(2))
    _apply(alice, grant)
    assert OwnedCard.objects.get(user=alice, card=hex_card).copies == 1
    assert selectors.shards_of(user=alice) == 5
    assert "New Arcana card: Hex" in grant.lines


def test_a_completed_quest_gives_its_card_and_shards(alice) -> None:
    orb = ArcanaCard.objects.get(card_id="scrying_orb")
    quest = QuestTemplate.objects.create(
        name="Win one", description="Win.", condition="win", xp=0, shards=25, arcana_card=orb
    )
    assert quest.reward_text() == "25 Arcana shards, Arcana card Scrying Orb"
    grant = Grant()
    grant.add(quest, reason="quest", source="Quest: Win one")
    _apply(alice, grant)
    assert OwnedCard.objects.filter(user=alice, card=orb).exists()
    assert selectors.shards_of(user=alice) == 25


def test_a_pass_tier_gives_its_card_and_shards_on_its_track(alice) -> None:
    now = timezone.now()
    season = Season.objects.create(
        name="S1", starts=now - datetime.timedelta(days=1), ends=now + datetime.timedelta(days=9)
    )
    orb = ArcanaCard.objects.get(card_id="scrying_orb")
    tier = SeasonTier.objects.create(
        season=season, number=1, free_card=orb, free_shards=30, premium_shards=90
    )
    SeasonProgress.objects.create(user=alice, season=season, xp=season.xp_per_tier)
    services.tier_claim(user=alice, tier_id=tier.pk, track="free", now=now)
    assert OwnedCard.objects.filter(user=alice, card=orb).exists()
    assert selectors.shards_of(user=alice) == 30
    with pytest.raises(NotYet):  # premium shards need the premium track (bought with coins)
        services.tier_claim(user=alice, tier_id=tier.pk, track="premium", now=now)
    assert selectors.shards_of(user=alice) == 30


def test_a_tier_with_only_arcana_rewards_counts_as_a_reward(db) -> None:
    tier = SeasonTier(free_shards=10)
    assert tier.gives("free") and not tier.gives("premium")
