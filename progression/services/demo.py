"""Demo content: cosmetics (with their SVG/CSS assets in static/img/cosmetics/), level
rewards, quest templates, achievements and a current season with its pass. Idempotent:
rows are matched by slug or name, so running it again changes nothing."""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone

from progression.models import (
    Achievement,
    Cosmetic,
    LevelReward,
    QuestTemplate,
    Season,
    SeasonTier,
)

BACK, THEME, FRAME = Cosmetic.Kind.CARD_BACK, Cosmetic.Kind.BOARD_THEME, Cosmetic.Kind.AVATAR_FRAME

COSMETICS = [
    # slug, kind, name, rarity, asset, css, starter, description
    ("back-classic", BACK, "Cardhall Classic", "common", "img/card-back.svg", "", True, ""),
    (
        "back-verdant",
        BACK,
        "Verdant",
        "common",
        "img/cosmetics/back-verdant.svg",
        "",
        False,
        "Reach level 2",
    ),
    (
        "back-royal",
        BACK,
        "Royal Crest",
        "rare",
        "img/cosmetics/back-royal.svg",
        "",
        False,
        "Season pass, tier 3",
    ),
    (
        "back-ember",
        BACK,
        "Ember",
        "epic",
        "img/cosmetics/back-ember.svg",
        "",
        False,
        "Season pass premium, tier 5",
    ),
    (
        "back-arcane",
        BACK,
        "Arcane Sigil",
        "epic",
        "img/cosmetics/back-arcane.svg",
        "",
        False,
        "Achievement: Unbreakable",
    ),
    (
        "back-abyss",
        BACK,
        "Abyssal Eye",
        "legendary",
        "img/cosmetics/back-abyss.svg",
        "",
        False,
        "Season pass premium, tier 10",
    ),
    ("theme-felt", THEME, "Casino Felt", "common", "", "--cos-table: transparent;", True, ""),
    (
        "theme-midnight",
        THEME,
        "Midnight",
        "rare",
        "",
        "--cos-table: radial-gradient(ellipse at 50% 0%, #1d3557, #0b1626 70%); "
        "--cos-side: rgba(80, 140, 255, 0.10); --cos-accent: #6fb3ff;",
        False,
        "Season pass, tier 2",
    ),
    (
        "theme-crimson",
        THEME,
        "Crimson Hall",
        "epic",
        "",
        "--cos-table: radial-gradient(ellipse at 50% 0%, #5a1420, #200509 75%); "
        "--cos-side: rgba(255, 90, 70, 0.10); --cos-accent: #ff8a6a;",
        False,
        "Season pass premium, tier 4",
    ),
    (
        "theme-arcane",
        THEME,
        "Arcane Study",
        "legendary",
        "",
        "--cos-table: radial-gradient(ellipse at 50% 0%, #3a2680, #120a2a 75%); "
        "--cos-side: rgba(155, 123, 255, 0.14); --cos-accent: #b9a2ff;",
        False,
        "Reach level 5",
    ),
    (
        "frame-laurel",
        FRAME,
        "Laurel",
        "rare",
        "img/cosmetics/frame-laurel.svg",
        "",
        False,
        "Achievement: First blood",
    ),
    (
        "frame-arcane",
        FRAME,
        "Arcane Ring",
        "epic",
        "img/cosmetics/frame-arcane.svg",
        "",
        False,
        "Season pass premium, tier 7",
    ),
    (
        "frame-ember",
        FRAME,
        "Ember Crown",
        "legendary",
        "img/cosmetics/frame-ember.svg",
        "",
        False,
        "Reach level 10",
    ),
]

QUESTS = [
    # name, description, condition, target, xp, coins, season_xp
    ("Winning streak", "Win 3 matches of any game.", "win", 3, 150, 60, 150),
    ("Warm-up", "Finish 2 matches.", "finish", 2, 60, 25, 60),
    (
        "Iron wall",
        "Block 20 damage in Grimhand.",
        "event blocked sum amount in grimhand",
        20,
        100,
        40,
        100,
    ),
    ("Haymaker!", "Throw a haymaker in Haymaker.", "event haymaker in haymaker", 1, 80, 30, 80),
    (
        "Flex",
        "Cover the Flex slot in BaniraCards.",
        "event played where slot = flex in banira",
        1,
        80,
        30,
        80,
    ),
    (
        "Cheat death",
        "Survive a Death card in Grimhand (your lucky 7 saves you).",
        "event lucky_saved in grimhand",
        1,
        100,
        40,
        100,
    ),
    (
        "Monster slayer",
        "Defeat 5 monsters in Dog Blade.",
        "event attack where hp = 0 in dogblade",
        5,
        80,
        30,
        80,
    ),
    (
        "Dog Blade duel",
        "Strike 150 damage in Dog Blade.",
        "event attack sum damage in dogblade",
        150,
        70,
        25,
        70,
    ),
    ("Shield wall", "Block 3 attacks in Shield.", "event blocked in shield", 3, 90, 35, 90),
    ("People person", "Finish a match against another player.", "finish vs human", 1, 70, 30, 70),
]

ACHIEVEMENTS = [
    # slug, name, description, condition, target, icon, coins, cosmetic slug
    (
        "first-win-grimhand",
        "Grim victor",
        "Win your first Grimhand match.",
        "win in grimhand",
        1,
        "☠",
        50,
        None,
    ),
    (
        "first-win-haymaker",
        "Knockout artist",
        "Win your first Haymaker match.",
        "win in haymaker",
        1,
        "✊",
        50,
        None,
    ),
    (
        "first-win-dogblade",
        "First blood",
        "Win your first Dog Blade match.",
        "win in dogblade",
        1,
        "⚔",
        50,
        "frame-laurel",
    ),
    (
        "first-win-shield",
        "Last one standing",
        "Win your first Shield match.",
        "win in shield",
        1,
        "⛨",
        50,
        None,
    ),
    (
        "first-banira",
        "Full field",
        "Complete a BaniraCards run.",
        "event run_complete in banira",
        1,
        "✿",
        50,
        None,
    ),
    (
        "death-survivor",
        "Unbreakable",
        "Survive 10 Death cards in Grimhand.",
        "event lucky_saved in grimhand",
        10,
        "♣",
        200,
        "back-arcane",
    ),
    (
        "reversal",
        "Turn the tables",
        "Make a reversal in Haymaker.",
        "event reversal in haymaker",
        1,
        "⇄",
        60,
        None,
    ),
]

LEVELS = [(2, 100, "back-verdant"), (5, 200, "theme-arcane"), (10, 500, "frame-ember")]

# tier: (free coins, free item, premium coins, premium item)
TIERS = {
    1: (50, None, 100, None),
    2: (0, "theme-midnight", 100, None),
    3: (0, "back-royal", 150, None),
    4: (75, None, 0, "theme-crimson"),
    5: (75, None, 0, "back-ember"),
    7: (100, None, 0, "frame-arcane"),
    10: (150, None, 300, "back-abyss"),
}
TIER_COUNT = 12


def demo_content_load(*, now: datetime.datetime | None = None) -> Season:
    now = now or timezone.now()
    with transaction.atomic():
        items = _cosmetics()
        for level, coins, slug in LEVELS:
            LevelReward.objects.update_or_create(
                level=level, defaults={"coins": coins, "cosmetic": items[slug]}
            )
        for name, description, condition, target, xp, coins, season_xp in QUESTS:
            QuestTemplate.objects.update_or_create(
                name=name,
                defaults={
                    "description": description,
                    "condition": condition,
                    "target": target,
                    "xp": xp,
                    "coins": coins,
                    "season_xp": season_xp,
                },
            )
        for slug, name, description, condition, target, icon, coins, item in ACHIEVEMENTS:
            Achievement.objects.update_or_create(
                slug=slug,
                defaults={
                    "name": name,
                    "description": description,
                    "condition": condition,
                    "target": target,
                    "icon": icon,
                    "coins": coins,
                    "xp": 100,
                    "cosmetic": items[item] if item else None,
                },
            )
        return _season(now, items)


def _cosmetics() -> dict[str, Cosmetic]:
    items = {}
    for slug, kind, name, rarity, asset, css, starter, description in COSMETICS:
        items[slug], _ = Cosmetic.objects.update_or_create(
            slug=slug,
            defaults={
                "kind": kind,
                "name": name,
                "rarity": rarity,
                "asset": asset,
                "css": css,
                "is_starter": starter,
                "description": description,
            },
        )
    return items


def _season(now: datetime.datetime, items: dict[str, Cosmetic]) -> Season:
    season = Season.objects.filter(starts__lte=now, ends__gt=now, status="open").first()
    if season is not None:
        return season
    start = now.replace(hour=0, minute=0, second=0, microsecond=0)
    season = Season.objects.create(
        name="Season 1: Embers",
        starts=start,
        ends=start + datetime.timedelta(days=42),
        xp_per_tier=300,
        premium_price=500,
    )
    for number in range(1, TIER_COUNT + 1):
        free_coins, free_item, premium_coins, premium_item = TIERS.get(number, (40, None, 80, None))
        SeasonTier.objects.create(
            season=season,
            number=number,
            free_coins=free_coins,
            free_cosmetic=items[free_item] if free_item else None,
            premium_coins=premium_coins,
            premium_cosmetic=items[premium_item] if premium_item else None,
        )
    return season
