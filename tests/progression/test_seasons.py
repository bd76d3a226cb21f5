"""The pass: claiming, premium with coins, rollover, and every refusal writes nothing."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from progression import services
from progression.errors import AlreadyDone, NotEnoughCoins, NotYet, ProgressionError
from progression.models import (
    CoinEntry,
    Season,
    SeasonProgress,
    TierClaim,
)
from tests.concurrency import race
from tests.conftest import requires_postgres


def _season_xp(user, season, xp, *, premium=False):
    SeasonProgress.objects.update_or_create(
        user=user, season=season, defaults={"xp": xp, "has_premium": premium}
    )


def test_claim_a_reached_tier(alice, season):
    _season_xp(alice, season, 250)
    tier = season.tiers.get(number=2)
    services.tier_claim(user=alice, tier_id=tier.pk, track="free")
    assert alice.progress.coins == 20
    assert CoinEntry.objects.get(user=alice).reason == "tier"


def test_claiming_twice_is_refused(alice, season):
    _season_xp(alice, season, 100)
    tier = season.tiers.get(number=1)
    services.tier_claim(user=alice, tier_id=tier.pk, track="free")
    with pytest.raises(AlreadyDone, match="already claimed"):
        services.tier_claim(user=alice, tier_id=tier.pk, track="free")
    assert TierClaim.objects.count() == 1
    assert CoinEntry.objects.count() == 1


def test_a_tier_not_reached_is_refused(alice, season):
    _season_xp(alice, season, 150)
    with pytest.raises(NotYet, match="Tier 2 needs 200 season XP; you have 150"):
        services.tier_claim(user=alice, tier_id=season.tiers.get(number=2).pk, track="free")
    assert not TierClaim.objects.exists()


def test_premium_reward_needs_the_premium_track(alice, season):
    _season_xp(alice, season, 500)
    with pytest.raises(NotYet, match="premium track"):
        services.tier_claim(user=alice, tier_id=season.tiers.get(number=1).pk, track="premium")
    assert not TierClaim.objects.exists()


def test_buying_premium_without_coins_is_refused(alice, season):
    with pytest.raises(NotEnoughCoins, match="costs 300 coins; you have 0"):
        services.premium_buy(user=alice, season_id=season.pk)
    assert not SeasonProgress.objects.filter(user=alice, has_premium=True).exists()
    assert not CoinEntry.objects.exists()


def test_buying_premium_with_coins(alice, season):
    services.reward_grant(user=alice, coins=350)
    services.premium_buy(user=alice, season_id=season.pk)
    alice.progress.refresh_from_db()
    assert alice.progress.coins == 50
    assert SeasonProgress.objects.get(user=alice, season=season).has_premium
    with pytest.raises(AlreadyDone):
        services.premium_buy(user=alice, season_id=season.pk)
    _season_xp(alice, season, 100, premium=True)
    services.tier_claim(user=alice, tier_id=season.tiers.get(number=1).pk, track="premium")
    alice.progress.refresh_from_db()
    assert alice.progress.coins == 100


def test_bad_track_is_refused(alice, season):
    with pytest.raises(ProgressionError, match="free or the premium"):
        services.tier_claim(user=alice, tier_id=season.tiers.first().pk, track="gold")


def test_rollover_closes_gives_unclaimed_rewards_and_opens_the_next(alice, season):
    _season_xp(alice, season, 300, premium=True)  # tiers 1..3 reached, premium owned
    services.tier_claim(user=alice, tier_id=season.tiers.get(number=1).pk, track="free")
    later = season.ends + datetime.timedelta(hours=1)
    nxt = services.season_rollover(now=later)
    season.refresh_from_db()
    assert season.status == Season.Status.CLOSED
    assert nxt.name == "Season 2" and nxt.starts == season.ends
    assert nxt.tiers.count() == 5
    automatic = TierClaim.objects.filter(user=alice, is_automatic=True)
    assert automatic.count() == 5  # free 2, 3 and premium 1, 2, 3
    alice.progress.refresh_from_db()
    assert alice.progress.coins == 10 + (20 + 30) + (50 + 100 + 150)
    assert services.season_rollover(now=later) == nxt  # idempotent
    assert Season.objects.count() == 2


def test_claim_in_a_closed_season_is_refused(alice, season):
    _season_xp(alice, season, 100)
    services.season_rollover(now=season.ends + datetime.timedelta(minutes=1))
    tier = season.tiers.get(number=1)
    with pytest.raises(ProgressionError, match="is over"):
        services.tier_claim(user=alice, tier_id=tier.pk, track="free", now=timezone.now())


@requires_postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_claims_give_once(make_user, season):
    player = make_user()
    _season_xp(player, season, 100)
    tier = season.tiers.get(number=1)
    results = race(4, lambda _: services.tier_claim(user=player, tier_id=tier.pk, track="free"))
    assert sum(isinstance(r, AlreadyDone) for r in results) == 3
    assert TierClaim.objects.filter(user=player).count() == 1
    player.progress.refresh_from_db()
    assert player.progress.coins == 10


@requires_postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_premium_purchases_charge_once(make_user, season):
    player = make_user()
    services.reward_grant(user=player, coins=500)
    results = race(3, lambda _: services.premium_buy(user=player, season_id=season.pk))
    assert sum(isinstance(r, AlreadyDone) for r in results) == 2
    player.progress.refresh_from_db()
    assert player.progress.coins == 200
