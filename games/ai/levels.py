"""The AI levels: one table of what a player can choose, and the bot that plays it per game.

`LEVELS` is the table. A level's `id` is what `Seat.ai_level` stores, its `label` what
players read ("AI · Easy" on a seat), and for each game it names the `Search` that plays
it: a bot and its settings, with a `default` for any game the level does not list, so a
new game is playable at every level before anyone tunes a search for it.

- Easy: the random bot. Normal: the greedy bot, one move ahead through the game's own
  heuristic (games.ai.greedy; random where a game has none).
- Hard: a search over samples of the hidden cards, chosen per game by measuring it
  against Normal (docs/benchmarks.md, "AI ladder"): flat determinized Monte Carlo with
  common random numbers (games.ai.flat_mc) in Grimhand, Haymaker, Shield and BaniraCards;
  information-set MCTS (games.ai.ismcts) in any other game.
- Grimhand Arcana (the match option {"variant": "arcana"}) is told apart by the view's
  "variant": a level's `Search` may hold another search per variant (`variants`), and the
  greedy bot plays an Arcana policy of games.ai.arcana_greedy for an Arcana view, so
  Classic play is exactly what it was. Normal plays the "normal" policy; Hard searches
  with flat Monte Carlo over samples of the hidden cards (Arcana rollouts).
- Arcana's house opponents (PvE, not offered in the lobby): the archetypes Aggressive,
  Defensive and Gambler (`ARCHETYPE_LEVELS`: each level's `archetype` names its deck in
  the engine's ARCHETYPE_DECKS) and the boss policy (`BOSS`; the boss's deck and rules
  come with the match option "boss").
- Not offered in the lobby (`is_offered` False): the tutorial's tutor (the tutorial's
  script plays it, this table's bot once off-script: games.services.automation) and the
  benchmark "oracle", Hard's search run on the true state (games.ai.oracle), which only
  `manage.py simulate` plays; no seat may ever hold it.

Invariants:
- Pure Python: the standard library, `games.engine` and `games.ai` only, never Django.
- The ids are stored on seats: renaming one takes a data migration (as
  games/migrations/0005_ai_level_ids.py renamed random/greedy/ismcts).
- Budgets are counted in iterations or samples, so a decision is reproducible from its
  chance; `GUARD_SECONDS` only stops a search early on a machine far slower than the one
  measured (decision p95 target: under 1 s on one core).
- A level's bot sees what any bot sees: the view, the legal moves and sealed samples.
  Only a level with `sees_state` (the oracle) is built to take the true state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.ai.arcana_search import ArcanaSearchBot
from games.ai.base import Bot
from games.ai.flat_mc import FlatMonteCarloBot
from games.ai.greedy import GreedyBot
from games.ai.ismcts import IsmctsBot
from games.ai.oracle import OracleBot
from games.ai.random_bot import RandomBot

GUARD_SECONDS = 0.9

# What each kind of search is called where people read it (docs, `simulate`'s tables).
SEARCH_NAMES = {
    "random": "random legal moves",
    "greedy": "the game's greedy heuristic",
    "ismcts": "information-set MCTS",
    "flat": "flat Monte Carlo",
    "arcana_flat": "flat Monte Carlo with Arcana rollouts",
}


@dataclass(frozen=True)
class Search:
    """How a level plays one game: a bot ("random", "greedy", "ismcts" or "flat") and the
    keyword arguments it is built with (a search's budget and rollout policy)."""

    bot: str
    settings: Mapping[str, Any] = field(default_factory=dict)
    # Another search per game variant (the view's "variant"); only a flat search holds any.
    variants: Mapping[str, Search] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.bot not in SEARCH_NAMES:
            raise ValueError(f"unknown bot {self.bot!r} (known: {', '.join(SEARCH_NAMES)})")
        if self.variants and self.bot != "flat":
            raise ValueError("only a flat search hands a variant's views to another search")

    def build(self, seconds: float | None = GUARD_SECONDS) -> Bot:
        """A fresh bot (`seconds`: a search's guard, None for none)."""
        settings = dict(self.settings)
        if self.bot == "ismcts":
            return IsmctsBot(settings.pop("iterations"), seconds, **settings)
        if self.bot == "arcana_flat":
            samples = settings.pop("samples")
            return ArcanaSearchBot(samples, seconds=seconds, **settings)
        if self.bot == "flat":
            variants = {name: search.build(seconds) for name, search in self.variants.items()}
            samples = settings.pop("samples")
            return FlatMonteCarloBot(samples, seconds=seconds, variants=variants, **settings)
        return GreedyBot(**settings) if self.bot == "greedy" else RandomBot()

    def variant(self, name: str | None) -> Search:
        """The search that plays the variant `name` (this one for None or any it lacks)."""
        return self.variants.get(name, self) if name is not None else self

    @property
    def summary(self) -> str:
        """In words: "flat Monte Carlo, 30 samples", "random legal moves"."""
        budget = self.settings.get("samples") or self.settings.get("iterations")
        if budget and self.settings.get("most_samples", budget) > budget:
            budget = f"{budget}–{self.settings['most_samples']}"  # more where moves are close
        unit = "samples" if "samples" in self.settings else "iterations"
        name = SEARCH_NAMES[self.bot]
        if "policy" in self.settings:
            name = f"{name}, {self.settings['policy']} policy"
        return f"{name}, {budget} {unit}" if budget else name


@dataclass(frozen=True)
class Level:
    """One AI level: its stored id, its label, and the search it plays each game with."""

    id: str
    label: str
    default: Search
    games: Mapping[str, Search] = field(default_factory=dict)
    is_offered: bool = True  # in the lobby and the "fill with AI" menu
    sees_state: bool = False  # a benchmark oracle: built to be handed the true state
    guard_seconds: float | None = GUARD_SECONDS
    archetype: str | None = None  # an Arcana house opponent's deck (ARCHETYPE_DECKS key)
    is_house: bool = False  # an Arcana house opponent: seated by the PvE path, not the lobby

    @property
    def seat_label(self) -> str:
        """What a seat of this level is called on the site ("AI · Hard", "Tutor")."""
        return self.label if self.id == TUTOR else f"AI · {self.label}"

    def search(self, slug: str) -> Search:
        return self.games.get(slug, self.default)

    def describe(self, slug: str, variant: str | None = None) -> str:
        """How this level plays the game `slug` (its `variant`, if any), in words ("flat
        Monte Carlo, 30 samples")."""
        summary = self.search(slug).variant(variant).summary
        return f"{summary}, on the true state" if self.sees_state else summary

    def bot(self, slug: str) -> Bot:
        """A fresh bot of this level for the game `slug`."""
        bot = self.search(slug).build(self.guard_seconds)
        if self.sees_state:
            # Its `choose` also takes `truth=`, which play_match hands every `sees_state` bot.
            return OracleBot(bot)  # type: ignore[return-value]
        return bot


# Grimhand Arcana's Hard (docs/benchmarks.md, "Arcana AI and balance"): 16 determinizations,
# then up to 48 for the moves still in contention (a move the best beats by two standard
# errors is dropped every 8), Normal's rollouts cut at 30 plies and scored by HP, Normal's
# move kept unless the best beats it by one standard error (8 samples and 20 plies: 53.8%
# against Normal over 1,000; 16 and 30: 57.9%; 16-48 and 30: 63.0%, p95 about 0.3 s).
ARCANA_HARD = Search(
    "arcana_flat",
    {
        "samples": 16,
        "most_samples": 48,
        "step": 8,
        "z_drop": 2.0,
        "rollout": "greedy",
        "epsilon": 0.1,
        "rollout_plies": 30,
        "prior": "greedy",
        "z": 1.0,
    },
)

EASY = Level("easy", "Easy", Search("random"))
NORMAL = Level("normal", "Normal", Search("greedy"))
HARD = Level(
    "hard",
    "Hard",
    Search("ismcts", {"iterations": 400, "rollout": "random"}),
    games={
        # Luck-dominated and the heuristic is tuned: 40 plain samples lost to it (47.9%),
        # so the search only overrides greedy's move when it is sure (paired z-test on CRN).
        "grimhand": Search(
            "flat",
            {"samples": 48, "rollout": "greedy", "epsilon": 0.05, "prior": "greedy", "z": 2.0},
            variants={"arcana": ARCANA_HARD},
        ),
        "haymaker": Search("flat", {"samples": 30, "rollout": "greedy", "epsilon": 0.1}),
        "shield": Search("flat", {"samples": 8, "rollout": "greedy", "epsilon": 0.1}),
        # One seat: a pure greedy continuation makes each sample a one-step improvement on
        # Normal. 6 samples, not 3: on the same 100 deals the mean rose from 159 to 180 and
        # stuck runs fell from 8% to 2%, with the p95 still about half a second.
        "banira": Search("flat", {"samples": 6, "rollout": "greedy", "epsilon": 0.0}),
    },
)
TUTOR = "tutorial"  # the id of the tutorial's scripted opponent (games.tutorials)
TUTORIAL = Level(TUTOR, "Tutor", Search("random"), is_offered=False)
ORACLE = Level(
    "oracle",
    "Oracle",
    HARD.default,
    games=HARD.games,
    is_offered=False,
    sees_state=True,
    guard_seconds=None,
)


def _house(archetype: str, label: str) -> Level:
    """An Arcana archetype opponent: its policy (Classic views: Normal's heuristic)."""
    policy = Search("greedy", {"policy": archetype})
    return Level(
        f"arc_{archetype}", label, policy, is_offered=False, archetype=archetype, is_house=True
    )


AGGRESSIVE = _house("aggressive", "Aggressive")
DEFENSIVE = _house("defensive", "Defensive")
GAMBLER = _house("gambler", "Gambler")
BOSS = Level(
    "arc_boss", "Boss", Search("greedy", {"policy": "boss"}), is_offered=False, is_house=True
)
# The level that plays each archetype of the engine's ARCHETYPE_DECKS (the PvE path).
ARCHETYPE_LEVELS = {"aggressive": AGGRESSIVE.id, "defensive": DEFENSIVE.id, "gambler": GAMBLER.id}

LEVELS: dict[str, Level] = {
    level.id: level
    for level in (EASY, NORMAL, HARD, TUTORIAL, ORACLE, AGGRESSIVE, DEFENSIVE, GAMBLER, BOSS)
}
DEFAULT = EASY.id  # a seat's level where none is named (services, fill with AI)
# The lobby preselects Normal (issue 18): Easy plays at random, so a first match against the
# preselected AI taught nothing; Easy stays one click away for anyone who wants it.
LOBBY_DEFAULT = NORMAL.id


class UnknownLevel(LookupError):
    """An id the table does not hold; `message` is for people."""

    def __init__(self, level_id: str, known: list[str]) -> None:
        super().__init__(f"There is no AI level “{level_id}” (known: {', '.join(known)}).")
        self.message = str(self)


def get(level_id: str) -> Level:
    """The level of that id; raises `UnknownLevel` (naming the known ids) for any other."""
    try:
        return LEVELS[level_id]
    except KeyError:
        raise UnknownLevel(level_id, list(LEVELS)) from None


def offered() -> list[Level]:
    """The levels a player may choose, easiest first."""
    return [level for level in LEVELS.values() if level.is_offered]


def is_offered(level_id: str) -> bool:
    return level_id in LEVELS and LEVELS[level_id].is_offered


def is_house(level_id: str) -> bool:
    """An Arcana house opponent's level (the PvE path seats it; the lobby never offers it)."""
    return level_id in LEVELS and LEVELS[level_id].is_house


def seat_label(level_id: str) -> str:
    """A seat's name for a stored level; an id the table does not know is shown as is."""
    level = LEVELS.get(level_id)
    return level.seat_label if level is not None else f"AI ({level_id})"
