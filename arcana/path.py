"""The PvE path of Grimhand Arcana: the house's opponents in order, as data.

Invariants:
- `STAGES` is the path, first to last. A stage's `key` names it for good (progress rows
  and fights store it): never reuse or rename one; a new stage may go anywhere.
- Stage 1 is always open; stage n + 1 opens when stage n is cleared (won once).
- A stage is an archetype opponent (`house`: a key of the engine's ARCHETYPE_DECKS, whose
  deck it plays) or a boss (`boss`: a key of the engine's BOSSES, which brings its own HP,
  deck and twist); `event` is the match option "event" ("random": drawn from the match's
  seed, or a fixed key of EVENTS).
- `ai_level` is the games.ai.levels id that plays the house's seat.
- The reward (XP, shards, at most one card id of the pool) is given once, the first time
  the stage is cleared (arcana.pve).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.grimhand.arcana.bosses import BOSSES, Boss
from games.engine.grimhand.arcana.cards import ARCHETYPE_DECKS
from games.engine.grimhand.arcana.events import EVENTS

HOUSE_NAMES = {"aggressive": "Aggressive", "defensive": "Defensive", "gambler": "Gambler"}


@dataclass(frozen=True)
class Stage:
    key: str
    title: str
    blurb: str
    ai_level: str
    house: str = ""  # an archetype (its deck); "" for a boss
    boss: str | None = None
    event: str = "random"
    xp: int = 0
    shards: int = 0
    card: str | None = None  # a card id of the pool, or None

    @property
    def boss_def(self) -> Boss | None:
        return BOSSES[self.boss] if self.boss else None

    @property
    def opponent(self) -> str:
        """Who the player faces, in words."""
        boss = self.boss_def
        return boss.name if boss else f"{HOUSE_NAMES[self.house]} house deck"

    @property
    def event_text(self) -> str:
        if self.event == "random":
            return "A random event, drawn from the match's seed."
        event = EVENTS[self.event]
        return f"{event.name}: {event.text}"


STAGES: tuple[Stage, ...] = (
    Stage(
        "raider",
        "The Raider",
        "A reckless fighter who swings every turn. Learn to block.",
        ai_level="arc_aggressive",
        house="aggressive",
        event="none",
        xp=40,
        shards=20,
    ),
    Stage(
        "warden",
        "The Warden",
        "Walls, shields and patience. Break through before you run dry.",
        ai_level="arc_defensive",
        house="defensive",
        xp=50,
        shards=25,
    ),
    Stage(
        "bone_warden",
        "Boss: The Bone Warden",
        "The first boss: a fortress of bone with a Lucky 7 up its sleeve.",
        ai_level="arc_boss",
        boss="bone_warden",
        event="none",
        xp=100,
        shards=40,
        card="chain_slash",
    ),
    Stage(
        "gambler",
        "The Gambler",
        "Coins, curses and long odds. Luck cuts both ways.",
        ai_level="arc_gambler",
        house="gambler",
        xp=60,
        shards=30,
        card="gamble",
    ),
    Stage(
        "plague_witch",
        "Boss: The Plague Witch",
        "Her blades bleed you long after the blow. Under a Blood Moon.",
        ai_level="hard",
        boss="plague_witch",
        event="blood_moon",
        xp=120,
        shards=50,
        card="bleeding_edge",
    ),
    Stage(
        "reaver",
        "The Reaver",
        "The Raider's captain: the same fury, played well.",
        ai_level="hard",
        house="aggressive",
        xp=80,
        shards=40,
    ),
    Stage(
        "fate_weaver",
        "Boss: The Fate Weaver",
        "She sees the cards before you do, and never runs out of energy.",
        ai_level="hard",
        boss="fate_weaver",
        xp=150,
        shards=80,
        card="scrying_orb",
    ),
)

STAGE_KEYS = tuple(stage.key for stage in STAGES)
_BY_KEY = {stage.key: stage for stage in STAGES}


def stage_get(key: str) -> Stage | None:
    return _BY_KEY.get(key)


def stage_before(key: str) -> Stage | None:
    """The stage one must clear to open `key` (None for the first)."""
    index = STAGE_KEYS.index(key)
    return STAGES[index - 1] if index else None


def _check() -> None:
    """The table against the engine (run at import: a typo fails every test at once)."""
    assert len(set(STAGE_KEYS)) == len(STAGES)
    for stage in STAGES:
        assert (stage.boss in BOSSES) if stage.boss else (stage.house in ARCHETYPE_DECKS)
        assert stage.event == "random" or stage.event in EVENTS
        assert stage.xp >= 0 and stage.shards >= 0


_check()
