"""Battle-pass seasons: rollover, claiming tier rewards, buying the premium track with coins.

Rollover (beat at every hour, and lazily whenever a season is needed): a season whose end
has passed is closed, and the rewards its players reached but did not claim are given to
them then (nothing earned is lost). If no open season covers now, the next one is made
from the last: same length and tiers, "Season N+1". An admin may schedule the next season
ahead instead; rollover then just lets it begin.

Lock order: the latest Season row (rollover), then PlayerProgress rows in user order.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from progression import selectors
from progression.errors import AlreadyDone, NotEnoughCoins, NotFound, NotYet, ProgressionError
from progression.models import CoinEntry, Season, SeasonProgress, SeasonTier, TierClaim
from progression.services.players import Applied, Grant, grant_apply, progress_locked

TRACKS = ("free", "premium")


def season_rollover(*, now: datetime.datetime | None = None) -> Season | None:
    """Close the seasons that are over and make sure one is open now (safe to repeat)."""
    now = now or timezone.now()
    for season in Season.objects.filter(status=Season.Status.OPEN, ends__lte=now):
        season_close(season_id=season.pk)
    current = selectors.season_at(when=now)
    if current is not None:
        return current
    with transaction.atomic():
        last = Season.objects.select_for_update().order_by("-starts").first()
        if last is None:
            return None  # no season was ever set up: the pass waits for an admin
        current = selectors.season_at(when=now)
        if current is not None or last.starts > now:
            return current  # made by a concurrent rollover, or the next one is scheduled
        return _season_next(last, now)


def _season_next(last: Season, now: datetime.datetime) -> Season:
    length = last.ends - last.starts
    starts = last.ends if last.ends + length > now else now
    number = Season.objects.count() + 1
    season = Season.objects.create(
        name=f"Season {number}",
        starts=starts,
        ends=starts + length,
        xp_per_tier=last.xp_per_tier,
        premium_price=last.premium_price,
    )
    SeasonTier.objects.bulk_create(
        SeasonTier(
            season=season,
            number=tier.number,
            free_coins=tier.free_coins,
            free_cosmetic_id=tier.free_cosmetic_id,
            premium_coins=tier.premium_coins,
            premium_cosmetic_id=tier.premium_cosmetic_id,
            free_shards=tier.free_shards,
            free_card_id=tier.free_card_id,
            premium_shards=tier.premium_shards,
            premium_card_id=tier.premium_card_id,
        )
        for tier in last.tiers.all()
    )
    return season


def season_close(*, season_id: int) -> int:
    """Close a season and give each player the reached rewards they had not claimed.

    Each player in their own transaction (their row lock held briefly); the season is
    marked closed last, so a crash half-way is finished by the next rollover. Returns the
    number of rewards given.
    """
    given = 0
    user_ids = SeasonProgress.objects.filter(season_id=season_id).order_by("user_id")
    for user_id in user_ids.values_list("user_id", flat=True):
        with transaction.atomic():
            progress = progress_locked(user_id)
            given += _claim_all_reached(progress, season_id)
    Season.objects.filter(pk=season_id).update(status=Season.Status.CLOSED)
    return given


def _claim_all_reached(progress: Any, season_id: int) -> int:
    row = SeasonProgress.objects.filter(user_id=progress.user_id, season_id=season_id).first()
    if row is None:
        return 0
    season = row.season
    claimed = set(
        TierClaim.objects.filter(user_id=progress.user_id, tier__season=season).values_list(
            "tier_id", "track"
        )
    )
    grant, given = Grant(), 0
    for tier in season.tiers.filter(number__lte=row.xp // season.xp_per_tier):
        for track in TRACKS if row.has_premium else ("free",):
            if (tier.pk, track) in claimed or not _tier_gives(tier, track):
                continue
            TierClaim.objects.create(
                user_id=progress.user_id, tier=tier, track=track, is_automatic=True
            )
            _add_tier_reward(grant, tier, track)
            given += 1
    if given:
        grant_apply(progress, grant, now=season.ends - datetime.timedelta(seconds=1))
    return given


def _tier_gives(tier: SeasonTier, track: str) -> bool:
    return tier.gives(track)


def _add_tier_reward(grant: Grant, tier: SeasonTier, track: str) -> None:
    source = f"{tier.season.name}, tier {tier.number}" + (" (premium)" if track != "free" else "")
    coins = tier.free_coins if track == "free" else tier.premium_coins
    cosmetic = tier.free_cosmetic if track == "free" else tier.premium_cosmetic
    if coins:
        grant.add_coins(coins, reason=CoinEntry.Reason.TIER, note=source)
    if cosmetic is not None:
        grant.cosmetics.append((cosmetic, source))
    if track == "free":
        grant.add_arcana(tier.free_shards, tier.free_card, source=source)
    else:
        grant.add_arcana(tier.premium_shards, tier.premium_card, source=source)


def tier_claim(
    *, user: Any, tier_id: int, track: str, now: datetime.datetime | None = None
) -> Applied:
    """Claim one reached tier's reward on one track. Twice, not reached, premium not
    bought, a closed season: a clear refusal and nothing written."""
    now = now or timezone.now()
    if track not in TRACKS:
        raise ProgressionError("A reward is on the free or the premium track.")
    with transaction.atomic():
        progress = progress_locked(user)
        tier = SeasonTier.objects.select_related("season").filter(pk=tier_id).first()
        if tier is None:
            raise NotFound("There is no such tier.")
        season = tier.season
        if season.status == Season.Status.CLOSED or season.ends <= now:
            raise ProgressionError(
                f"{season.name} is over: the rewards you reached were given when it closed."
            )
        row = SeasonProgress.objects.filter(user=user, season=season).first()
        xp = row.xp if row else 0
        if xp < tier.xp_needed:
            raise NotYet(
                f"Tier {tier.number} needs {tier.xp_needed} season XP; you have {xp}. "
                "Play matches and finish quests to climb."
            )
        if track == "premium" and not (row and row.has_premium):
            raise NotYet("That reward is on the premium track: unlock it with coins first.")
        if not _tier_gives(tier, track):
            raise ProgressionError(f"Tier {tier.number} has no {track} reward.")
        if TierClaim.objects.filter(user=user, tier=tier, track=track).exists():
            raise AlreadyDone(f"You have already claimed tier {tier.number}'s {track} reward.")
        TierClaim.objects.create(user=user, tier=tier, track=track)
        grant = Grant()
        _add_tier_reward(grant, tier, track)
        return grant_apply(progress, grant, now=now)


def premium_buy(*, user: Any, season_id: int, now: datetime.datetime | None = None) -> None:
    """Unlock the premium track of an open season with coins earned by playing."""
    now = now or timezone.now()
    with transaction.atomic():
        progress = progress_locked(user)
        season = Season.objects.filter(pk=season_id).first()
        if season is None:
            raise NotFound("There is no such season.")
        if season.status == Season.Status.CLOSED or not season.starts <= now < season.ends:
            raise ProgressionError(f"{season.name} is not running: its pass cannot be bought.")
        row, _ = SeasonProgress.objects.get_or_create(user=user, season=season)
        if row.has_premium:
            raise AlreadyDone(f"You already have the premium track of {season.name}.")
        if progress.coins < season.premium_price:
            raise NotEnoughCoins(
                f"The premium track costs {season.premium_price} coins; you have "
                f"{progress.coins}. Coins come from matches, quests and levels."
            )
        progress.coins -= season.premium_price
        progress.save(update_fields=["coins"])
        CoinEntry.objects.create(
            user=user,
            amount=-season.premium_price,
            reason=CoinEntry.Reason.PREMIUM,
            note=f"{season.name} premium track",
        )
        row.has_premium = True
        row.save(update_fields=["has_premium"])
