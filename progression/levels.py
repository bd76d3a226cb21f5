"""The level curve and what a match is worth. Pure functions: tuned here, tested alone.

Level 1 starts at 0 XP; going from level L to L+1 costs 100 + 50·(L−1) XP, so early levels
come in a few matches and later ones in a few days of play (a win is 120 XP).
"""

from __future__ import annotations

from dataclasses import dataclass

FINISH_XP = 50  # for playing a match to its end
WIN_XP = 70  # on top, for winning it (a win is 120 XP)
FINISH_COINS = 10
WIN_COINS = 15
# Matches against the AI only, and tutorials, earn half: still worth playing, not a farm.
REDUCED = 0.5
MAX_LEVEL = 200


def xp_to_next(level: int) -> int:
    return 100 + 50 * (level - 1)


def xp_for_level(level: int) -> int:
    """Total XP at which `level` is reached."""
    n = level - 1
    return 100 * n + 25 * n * (n - 1)


def level_for(xp: int) -> int:
    level = 1
    while level < MAX_LEVEL and xp >= xp_for_level(level + 1):
        level += 1
    return level


DEFAULT_LEVEL_SHARDS = 20  # Arcana shards for a level with no LevelReward row (docs/arcana.md)


def default_level_coins(level: int) -> int:
    """Coins for reaching `level` when no LevelReward row says otherwise."""
    return 50 + 10 * level


@dataclass(frozen=True)
class LevelBar:
    level: int
    xp: int
    into: int  # XP earned inside this level
    needed: int  # XP this level takes
    percent: int

    @property
    def next_level(self) -> int:
        return self.level + 1

    @property
    def to_go(self) -> int:
        return self.needed - self.into


def level_bar(xp: int) -> LevelBar:
    level = level_for(xp)
    into = xp - xp_for_level(level)
    needed = xp_to_next(level)
    return LevelBar(level, xp, into, needed, min(100, 100 * into // needed))
