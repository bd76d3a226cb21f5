"""The player's row and the one place rewards are applied (XP and levels, coins, season XP,
cosmetics), whatever gave them: a match, a quest, an achievement, a level, a pass tier or
an admin.

Lock precondition of everything here: the caller holds the player's PlayerProgress row
lock (`progress_locked`), inside a transaction. One lock per player serialises every write
about that player, so a reward is never given twice by two concurrent requests.
"""

from __future__ import annotations

import datetime
import zoneinfo
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from progression import levels, selectors
from progression.errors import ProgressionError
from progression.models import (
    CoinEntry,
    Cosmetic,
    LevelReward,
    Ownership,
    PlayerProgress,
    SeasonProgress,
    validate_time_zone,
)


@dataclass
class Grant:
    """Rewards gathered before they are applied in one go (so levels are counted once)."""

    xp: int = 0
    coins: int = 0
    season_xp: int = 0
    cosmetics: list[tuple[Cosmetic, str]] = field(default_factory=list)  # (item, source)
    shards: list[tuple[int, str]] = field(default_factory=list)  # Arcana (amount, source)
    cards: list[tuple[Any, str]] = field(default_factory=list)  # Arcana (ArcanaCard, source)
    coin_notes: list[tuple[int, str, str]] = field(default_factory=list)  # (amount, reason, note)
    lines: list[str] = field(default_factory=list)

    def add(self, reward: Any, *, reason: str, source: str) -> None:
        """Add a Reward row's xp/coins/season_xp/cosmetic (a quest, achievement, level)."""
        self.xp += reward.xp
        self.season_xp += reward.season_xp
        if reward.coins:
            self.add_coins(reward.coins, reason=reason, note=source)
        if reward.cosmetic_id:
            self.cosmetics.append((reward.cosmetic, source))
        self.add_arcana(reward.shards, reward.arcana_card, source=source)

    def add_arcana(self, shards: int, card: Any, *, source: str) -> None:
        """Arcana shards and an ability card (either may be 0/None)."""
        if shards:
            self.shards.append((shards, source))
        if card is not None:
            self.cards.append((card, source))

    def add_coins(self, amount: int, *, reason: str, note: str) -> None:
        self.coins += amount
        self.coin_notes.append((amount, reason, note))


@dataclass(frozen=True)
class Applied:
    level_before: int
    level_after: int
    xp_after: int
    season_xp: int
    new_cosmetics: tuple[Cosmetic, ...]


def progress_locked(user: Any) -> PlayerProgress:
    """The player's row (`user` or its id), created on first need, locked until the
    transaction ends."""
    user_id = getattr(user, "pk", user)
    PlayerProgress.objects.get_or_create(user_id=user_id)
    rows = PlayerProgress.objects.select_for_update(of=("self",)).select_related("user")
    return rows.get(user_id=user_id)


def local_day(progress: PlayerProgress, when: datetime.datetime) -> datetime.date:
    return when.astimezone(zoneinfo.ZoneInfo(progress.time_zone)).date()


def grant_apply(
    progress: PlayerProgress, grant: Grant, *, now: datetime.datetime | None = None
) -> Applied:
    """Apply `grant` to the locked `progress`: XP and the level rewards it reaches, coins
    (each with its ledger line), season XP on the season open at `now`, cosmetics."""
    now = now or timezone.now()
    level_before = progress.level
    progress.xp += grant.xp
    progress.level = levels.level_for(progress.xp)
    for level in range(level_before + 1, progress.level + 1):
        _add_level_reward(grant, level)
    for amount, reason, note in grant.coin_notes:
        CoinEntry.objects.create(user=progress.user, amount=amount, reason=reason, note=note)
    progress.coins += grant.coins
    progress.save(update_fields=["xp", "level", "coins"])
    season_xp = _add_season_xp(progress, grant.season_xp, now)
    owned = [cosmetic_own(progress.user, item, source=src) for item, src in grant.cosmetics]
    _arcana_apply(progress, grant)
    return Applied(
        level_before,
        progress.level,
        progress.xp,
        season_xp,
        tuple(item for item, is_new in owned if is_new),
    )


# The collection that takes a grant's Arcana cards and shards: `arcana.services.collection_grant`,
# which arcana registers in its AppConfig.ready. Progression sits below arcana (arcana's PvE
# path grants through `grant_apply`) and imports nothing of it.
_collection_grants: dict[str, Callable[..., list[str]]] = {}


def collection_grant_register(grant: Callable[..., list[str]]) -> None:
    """`grant(user=..., cards=[(card, source), ...])` or `grant(user=..., shards=n, source=...)`
    gives Arcana cards or shards and returns the lines the player reads."""
    _collection_grants["arcana"] = grant


def _arcana_apply(progress: PlayerProgress, grant: Grant) -> None:
    """Arcana cards and shards go to the player's collection (arcana.services, which takes
    the Collector lock after ours); its lines join the grant's."""
    if not (grant.shards or grant.cards):
        return
    collection_grant = _collection_grants.get("arcana")
    if collection_grant is None:  # a wiring fault: loud, never a reward silently lost
        raise RuntimeError("No Arcana collection is registered (arcana.apps.ready).")
    for amount, source in grant.shards:
        grant.lines += collection_grant(user=progress.user, shards=amount, source=source)
    if grant.cards:
        grant.lines += collection_grant(user=progress.user, cards=grant.cards)


def _add_level_reward(grant: Grant, level: int) -> None:
    reward = (
        LevelReward.objects.select_related("cosmetic", "arcana_card").filter(level=level).first()
    )
    source = f"Level {level}"
    if reward is None:
        grant.add_coins(levels.default_level_coins(level), reason="level", note=source)
        grant.add_arcana(levels.DEFAULT_LEVEL_SHARDS, None, source=source)
    else:  # a level reward's XP would feed back into levels: only coins, season XP, items
        grant.season_xp += reward.season_xp
        if reward.coins:
            grant.add_coins(reward.coins, reason="level", note=source)
        if reward.cosmetic is not None:  # selected with the reward: no query
            grant.cosmetics.append((reward.cosmetic, source))
        grant.add_arcana(reward.shards, reward.arcana_card, source=source)
    grant.lines.append(f"Level {level} reached!")


def _add_season_xp(progress: PlayerProgress, amount: int, now: datetime.datetime) -> int:
    season = selectors.season_at(when=now)
    if not amount or season is None:
        return 0
    row, _ = SeasonProgress.objects.get_or_create(user=progress.user, season=season)
    SeasonProgress.objects.filter(pk=row.pk).update(xp=F("xp") + amount)
    return amount


def cosmetic_own(user: Any, cosmetic: Cosmetic, *, source: str) -> tuple[Cosmetic, bool]:
    """Give `cosmetic` to `user` (a no-op if owned): (the item, whether it is new)."""
    _, is_new = Ownership.objects.get_or_create(
        user=user, cosmetic=cosmetic, defaults={"source": source[:80]}
    )
    return cosmetic, is_new


def reward_grant(
    *,
    user: Any,
    xp: int = 0,
    coins: int = 0,
    season_xp: int = 0,
    cosmetic: Cosmetic | None = None,
    note: str = "",
) -> Applied:
    """An admin's gift: any mix of XP, coins, season XP and one cosmetic."""
    if min(xp, coins, season_xp) < 0:
        raise ProgressionError("A grant gives; it cannot take away (no negative amounts).")
    if not (xp or coins or season_xp or cosmetic):
        raise ProgressionError("Choose something to grant: XP, coins, season XP or an item.")
    grant = Grant(xp=xp, season_xp=season_xp)
    source = note or "Gift from the Cardhall team"
    if coins:
        grant.add_coins(coins, reason=CoinEntry.Reason.GRANT, note=source)
    if cosmetic is not None:
        grant.cosmetics.append((cosmetic, source))
    with transaction.atomic():
        return grant_apply(progress_locked(user), grant)


def time_zone_set(*, user: Any, time_zone: str) -> PlayerProgress:
    """Today's quests stay as they are; the new zone decides from the next local day."""
    try:
        validate_time_zone(time_zone)
    except Exception:
        raise ProgressionError(
            f"“{time_zone}” is not a time zone I know: pick one from the list, e.g. UTC."
        ) from None
    with transaction.atomic():
        progress = progress_locked(user)
        progress.time_zone = time_zone
        progress.save(update_fields=["time_zone"])
    return progress
