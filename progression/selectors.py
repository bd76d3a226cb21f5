"""Reads of progression: a player's level bar, quests, season page, collection, what a
match earned, and the cosmetics each seat shows on a board. Nothing here writes (the lazy
rotation and rollover are services the views call first)."""

from __future__ import annotations

import datetime
import zoneinfo
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Q, Sum
from django.db.models.functions import TruncDate

from progression import levels
from progression.models import (
    Achievement,
    AchievementProgress,
    CoinEntry,
    Cosmetic,
    DailyQuest,
    MatchCredit,
    Ownership,
    PlayerProgress,
    Season,
    SeasonProgress,
    SeasonTier,
    TierClaim,
)


def progress_get(*, user: Any) -> PlayerProgress | None:
    if user is None or not user.is_authenticated:
        return None
    return (
        PlayerProgress.objects.select_related("card_back", "board_theme", "avatar_frame")
        .filter(user=user)
        .first()
    )


def time_zones_of(*, user_ids: Iterable[int]) -> dict[int, zoneinfo.ZoneInfo]:
    """Each player's own time zone, in one query (chosen on the quests page; UTC until a
    player picks one)."""
    ids = list(user_ids)
    chosen = dict(
        PlayerProgress.objects.filter(user_id__in=ids).values_list("user_id", "time_zone")
    )
    return {pk: zoneinfo.ZoneInfo(chosen.get(pk, "UTC")) for pk in ids}


def time_zone_of(*, user: Any) -> zoneinfo.ZoneInfo:
    return time_zones_of(user_ids=[user.pk])[user.pk]


def level_bar_for(*, user: Any) -> levels.LevelBar:
    progress = progress_get(user=user)
    return levels.level_bar(progress.xp if progress else 0)


def season_at(*, when: datetime.datetime) -> Season | None:
    """The open season covering `when` (None between seasons or before the first)."""
    return (
        Season.objects.filter(status=Season.Status.OPEN, starts__lte=when, ends__gt=when)
        .order_by("starts")
        .first()
    )


def quests_for_day(*, user: Any, day: datetime.date) -> list[DailyQuest]:
    return list(DailyQuest.objects.filter(user=user, day=day).select_related("template"))


def credit_for(*, match_id: int, user: Any) -> MatchCredit | None:
    if user is None or not user.is_authenticated:
        return None
    return MatchCredit.objects.filter(match_id=match_id, user=user).first()


@dataclass(frozen=True)
class TierRow:
    tier: SeasonTier
    is_reached: bool
    is_next: bool
    free_claimed: bool
    premium_claimed: bool
    can_claim_free: bool
    can_claim_premium: bool


@dataclass(frozen=True)
class SeasonPage:
    season: Season
    progress: SeasonProgress | None
    xp: int
    tier_reached: int
    tier_count: int
    next_tier: SeasonTier | None
    xp_to_next: int
    percent_to_next: int
    rows: list[TierRow]
    has_premium: bool
    claimable: int


def season_page(*, season: Season, user: Any) -> SeasonPage:
    """Every tier of `season`, with what `user` has reached, claimed and may claim."""
    tiers = list(
        SeasonTier.objects.filter(season=season).select_related("free_cosmetic", "premium_cosmetic")
    )
    progress = None
    claimed: set[tuple[int, str]] = set()
    if user is not None and user.is_authenticated:
        progress = SeasonProgress.objects.filter(season=season, user=user).first()
        claimed = set(
            TierClaim.objects.filter(user=user, tier__season=season).values_list("tier_id", "track")
        )
    xp = progress.xp if progress else 0
    has_premium = bool(progress and progress.has_premium)
    reached = min(xp // season.xp_per_tier, len(tiers))
    next_tier = tiers[reached] if reached < len(tiers) else None
    rows = []
    for tier in tiers:
        is_reached = tier.number <= reached
        free_claimed = (tier.pk, "free") in claimed
        premium_claimed = (tier.pk, "premium") in claimed
        rows.append(
            TierRow(
                tier=tier,
                is_reached=is_reached,
                is_next=next_tier is not None and tier.pk == next_tier.pk,
                free_claimed=free_claimed,
                premium_claimed=premium_claimed,
                can_claim_free=is_reached and not free_claimed and _gives(tier, "free"),
                can_claim_premium=is_reached
                and has_premium
                and not premium_claimed
                and _gives(tier, "premium"),
            )
        )
    into = xp - reached * season.xp_per_tier
    return SeasonPage(
        season=season,
        progress=progress,
        xp=xp,
        tier_reached=reached,
        tier_count=len(tiers),
        next_tier=next_tier,
        xp_to_next=season.xp_per_tier - into if next_tier else 0,
        percent_to_next=min(100, 100 * into // season.xp_per_tier) if next_tier else 100,
        rows=rows,
        has_premium=has_premium,
        claimable=sum(row.can_claim_free + row.can_claim_premium for row in rows),
    )


def _gives(tier: SeasonTier, track: str) -> bool:
    return tier.gives(track)


@dataclass(frozen=True)
class CollectionItem:
    cosmetic: Cosmetic
    is_owned: bool
    is_equipped: bool
    source: str


def collection(*, user: Any) -> dict[str, list[CollectionItem]]:
    """Every active cosmetic by kind: owned ones first, then what can still be earned."""
    progress = progress_get(user=user)
    equipped = (
        {
            progress.card_back_id,
            progress.board_theme_id,
            progress.avatar_frame_id,
        }
        if progress
        else set()
    )
    sources = dict(Ownership.objects.filter(user=user).values_list("cosmetic_id", "source"))
    by_kind: dict[str, list[CollectionItem]] = {kind: [] for kind, _ in Cosmetic.Kind.choices}
    for item in Cosmetic.objects.filter(is_active=True):
        is_owned = item.is_starter or item.pk in sources
        is_equipped = item.pk in equipped or (
            item.is_starter and _default_equipped(progress, item.kind)
        )
        by_kind[item.kind].append(
            CollectionItem(item, is_owned, is_equipped, sources.get(item.pk, "Starter"))
        )
    for items in by_kind.values():
        items.sort(key=lambda entry: (not entry.is_owned, entry.cosmetic.name))
    return by_kind


def _default_equipped(progress: PlayerProgress | None, kind: str) -> bool:
    field = {"card_back": "card_back_id", "board_theme": "board_theme_id"}.get(
        kind, "avatar_frame_id"
    )
    return progress is None or getattr(progress, field) is None


def is_owned(*, user: Any, cosmetic: Cosmetic) -> bool:
    return cosmetic.is_starter or Ownership.objects.filter(user=user, cosmetic=cosmetic).exists()


@dataclass(frozen=True)
class SeatLook:
    seat: int
    card_back: str  # static URL, "" = the site's default
    theme_slug: str
    theme_css: str
    frame: str


# What `board_looks` reads of a seat's player: the games app loads these with a match's
# seats (`select_related("user__" + path)`), so drawing a board costs no query of its own.
SEAT_LOOKS = ("progress__card_back", "progress__board_theme", "progress__avatar_frame")


def _loaded_progress(seats: list[Any]) -> dict[int, PlayerProgress] | None:
    """The seats' players' progress rows, if they came with the seats (else None)."""
    descriptor = get_user_model().progress
    if not all(descriptor.is_cached(seat.user) for seat in seats):
        return None
    rows = {}
    for seat in seats:
        try:
            rows[seat.user_id] = seat.user.progress
        except PlayerProgress.DoesNotExist:
            continue
    return rows


def board_looks(*, match: Any) -> list[SeatLook]:
    """The equipped card back, theme and frame of each seated player (what everyone sees)."""
    seats = [seat for seat in match.seats.all() if seat.user_id is not None]
    rows = _loaded_progress(seats)
    if rows is None:
        rows = {
            row.user_id: row
            for row in PlayerProgress.objects.filter(
                user_id__in=[seat.user_id for seat in seats]
            ).select_related("card_back", "board_theme", "avatar_frame")
        }
    looks = []
    for seat in seats:
        row = rows.get(seat.user_id)
        if row is None:
            continue
        back_item, theme_item, frame_item = row.card_back, row.board_theme, row.avatar_frame
        back = back_item.asset_url if back_item is not None and back_item.is_active else ""
        theme = theme_item if theme_item is not None and theme_item.is_active else None
        frame = frame_item.asset_url if frame_item is not None else ""
        if back or theme or frame:
            looks.append(
                SeatLook(
                    seat=seat.index,
                    card_back=back,
                    theme_slug=theme.slug if theme else "",
                    theme_css=theme.css if theme else "",
                    frame=frame,
                )
            )
    return looks


@dataclass(frozen=True)
class AchievementRow:
    achievement: Achievement
    progress: int
    unlocked: datetime.datetime | None

    @property
    def percent(self) -> int:
        target = self.achievement.target or 1
        return min(100, 100 * self.progress // target)


def achievements_for(*, user: Any) -> list[AchievementRow]:
    mine = {row.achievement_id: row for row in AchievementProgress.objects.filter(user=user)}
    rows = []
    for achievement in Achievement.objects.filter(is_active=True):
        row = mine.get(achievement.pk)
        rows.append(
            AchievementRow(achievement, row.progress if row else 0, row.unlocked if row else None)
        )
    rows.sort(key=lambda r: (r.unlocked is None, r.achievement.name))
    return rows


@dataclass(frozen=True)
class EconomyDay:
    day: datetime.date
    earned: int
    spent: int
    players: int

    @property
    def net(self) -> int:
        return self.earned - self.spent


def economy_by_day(*, days: int = 30) -> list[EconomyDay]:
    """Coins earned and spent per (UTC) day, newest first: the admin's economy view."""
    rows = (
        CoinEntry.objects.annotate(day=TruncDate("created"))
        .values("day")
        .annotate(
            earned=Sum("amount", filter=Q(amount__gt=0), default=0),
            spent=Sum("amount", filter=Q(amount__lt=0), default=0),
            players=Count("user", distinct=True),
        )
        .order_by("-day")[:days]
    )
    return [EconomyDay(r["day"], r["earned"], -r["spent"], r["players"]) for r in rows]


def economy_by_reason() -> list[dict[str, Any]]:
    return list(CoinEntry.objects.values("reason").annotate(total=Sum("amount")).order_by("reason"))


def can_reroll(*, user: Any, quests: list[DailyQuest]) -> bool:
    progress = progress_get(user=user)
    today = quests[0].day if quests else None
    return bool(quests) and (progress is None or progress.reroll_day != today)
