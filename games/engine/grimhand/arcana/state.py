"""Grimhand Arcana positions: the mode's numbers, the match setup and the state value.

Invariants:
- The numbered decks are Classic's: deck index 0 attack, 1 defense, top first, discard
  piles oldest first; hands are sorted tuples of values (a 13 never sits in a hand). A
  deck holds `COPIES` x 1..12 plus `DEATHS` Death cards (13); the Lucky 7 is the signature.
- Numbered cards are conserved: decks + discards + hands + slotted 7s always hold
  `setup.composition` (counts per value over both types: Fate Twist moves cards between
  the decks, never a 13, so each deck's 13s stay `setup.deaths[k]`).
- Ability cards are ids of `setup.cards[seat]` (that seat's pool at its levels). Each
  seat's ability cards are conserved: hand + deck + discard + its attack and defense lines
  + a Double Shamrock in its Lucky slot always hold `setup.ability_counts[seat]`.
- `lucky[seat]` is None, a deck index (a numbered 7 from that deck) or an ability card id.
- `statuses[seat]` is a tuple of (key, turns >= 1, amount), one per key (statuses.py).
- `mods[seat][k]` is what Hex, Mist and Guardian added to the numbered hand of type k;
  it resets to 0 when that hand is spent.
- `pending[seat]` is None or a choice that seat owes: ("scry", deck, n), ("discard",),
  ("swap",) (not chosen yet) or ("swap", deck, value) / ("swap", -1, 0) (chosen, nothing
  to give). `known[seat][k]` is how many top cards of deck k that seat has seen in order.
- `drew_arcana[seat]`: that seat's last main action was an arcana draw (from edition 2 on,
  it may not draw from the arcana deck again on its next turn: docs/rules/grimhand.md,
  "A turn"); `setup.options["edition"]` is the match's edition (`EDITIONS`). From
  edition 3 on, each numbered deck's top card is public (`open_tops`: the state is the
  same, only the views and samples, view.py, show it) and a seat's turns past
  `FATIGUE_TURN` cost HP (`fatigue`).
- `chances` counts the chance streams opened during play (reshuffles, Gamble):
  the n-th uses `Chance(seed, f"arcana/chance/{n}")`, so no counter state is stored.
- States are immutable by convention and share one `ArcanaSetup`.
- `ArcanaState` is a `core.SlotValue` (equal when every slot is, hashable, `replace`);
  `ArcanaSetup` keys its per-seat card dicts by their sorted items, so it keeps its own.
- Pure: imports the standard library, `games.engine.core` (`SlotValue`) and this
  package's `cards`, `statuses`, `events` and `bosses`.
"""

from __future__ import annotations

from typing import Any

from games.engine.core import SlotValue
from games.engine.grimhand.arcana.bosses import Boss
from games.engine.grimhand.arcana.cards import CardDef
from games.engine.grimhand.arcana.events import MatchEvent

# --- The mode's numbers: one place, so the balance can be retuned -------------------------
COPIES = 3  # copies of each value 1..12 per numbered deck
DEATHS = 2  # Death cards (13) per numbered deck
START_HP = 40
HAND_LIMIT = 7  # numbered cards per hand type; a draw over it discards the lowest
ABILITY_HAND_LIMIT = 5  # the arcana draw is refused at this many ability cards
START_ABILITIES = 2  # ability cards dealt to each seat at setup
ENERGY_MAX = 3  # energy on turn n of a seat: min(n, ENERGY_MAX) (+ event, + boss)
COMBO_STREAK = 2  # attack-deck draws in a row before an attack...
COMBO_BONUS = 2  # ...give that attack this bonus
BOSS_BLEED_TURNS = 2
# The rules' edition a match is played under (the "edition" option). A rules change that
# would replay a stored log differently is a new edition; the old ones stay playable:
#   1: until 2026-11-25, a seat could draw from the arcana deck turn after turn;
#   2: no two arcana draws in a row (docs/rules/grimhand.md, Arcana, "A turn");
#   3: since 2026-11-28, the top card of each numbered deck lies face up ("Open tops"),
#      and a seat's turns after its 20th start with HP lost ("Fatigue").
EDITIONS = (1, 2, 3)
EDITION = 3  # what a new match is played under
OPEN_TOPS_EDITION = 3  # the first edition whose numbered decks show their top card
FATIGUE_EDITION = 3  # the first edition with fatigue
FATIGUE_TURN = 20  # a seat's own turns before fatigue: its 21st costs 1 HP, its 22nd 2, ...

ATTACK = 0
DEFENSE = 1
DECKS = ("attack", "defense")
DECK_INDEX = {"attack": ATTACK, "defense": DEFENSE}
LUCKY = 7
DEATH = 13

Hand = tuple[int, ...]
Ids = tuple[str, ...]
Status = tuple[str, int, int]
Pending = tuple[Any, ...] | None
Lucky = int | str | None


class ArcanaSetup:
    """What stays fixed for a whole match."""

    __slots__ = (
        "seed",
        "start_hp",
        "cards",
        "decks",
        "levels",
        "event",
        "boss",
        "composition",
        "deaths",
        "ability_counts",
        "options",
    )

    def __init__(
        self,
        seed: bytes,
        start_hp: tuple[int, int],
        cards: tuple[dict[str, CardDef], dict[str, CardDef]],
        decks: tuple[Ids, Ids],
        event: MatchEvent,
        boss: Boss | None,
        composition: tuple[int, ...],
        deaths: tuple[int, int],
        ability_counts: tuple[dict[str, int], dict[str, int]],
        options: dict[str, Any],
    ) -> None:
        self.seed = seed
        self.start_hp = start_hp
        self.cards = cards  # per seat: id -> CardDef at that seat's level
        self.decks = decks  # per seat: the deck list it brought (hidden from the other)
        self.event = event
        self.boss = boss
        self.composition = composition
        self.deaths = deaths
        self.ability_counts = ability_counts
        self.options = options  # the public options, for the view

    def _key(self) -> tuple[Any, ...]:
        return (
            self.seed,
            self.start_hp,
            self.decks,
            self.event,
            self.boss,
            self.composition,
            self.deaths,
            tuple(sorted(self.cards[0].items())),
            tuple(sorted(self.cards[1].items())),
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ArcanaSetup) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"ArcanaSetup(hp={self.start_hp}, event={self.event.key})"


class ArcanaState(SlotValue):
    """One Arcana position. Immutable by convention: `rules.apply` builds a new one."""

    __slots__ = (
        "setup",
        "decks",
        "discards",
        "hands",
        "mods",
        "lucky",
        "hp",
        "abilities",
        "ability_decks",
        "ability_discards",
        "lines",
        "statuses",
        "energy",
        "turns_taken",
        "streak",
        "pending",
        "known",
        "turn",
        "ply",
        "chances",
        "winner",
        "reason",
        "drew_arcana",
    )

    def __init__(
        self,
        setup: ArcanaSetup,
        decks: tuple[Hand, Hand],
        discards: tuple[Hand, Hand],
        hands: tuple[tuple[Hand, Hand], tuple[Hand, Hand]],
        mods: tuple[tuple[int, int], tuple[int, int]],
        lucky: tuple[Lucky, Lucky],
        hp: tuple[int, int],
        abilities: tuple[Ids, Ids],
        ability_decks: tuple[Ids, Ids],
        ability_discards: tuple[Ids, Ids],
        lines: tuple[tuple[Ids, Ids], tuple[Ids, Ids]],
        statuses: tuple[tuple[Status, ...], tuple[Status, ...]],
        energy: tuple[int, int],
        turns_taken: tuple[int, int],
        streak: tuple[int, int],
        pending: tuple[Pending, Pending],
        known: tuple[tuple[int, int], tuple[int, int]],
        turn: int,
        ply: int,
        chances: int = 0,
        winner: int | None = None,
        reason: str | None = None,
        drew_arcana: tuple[bool, bool] = (False, False),
    ) -> None:
        self.setup = setup
        self.decks = decks
        self.discards = discards
        self.hands = hands
        self.mods = mods
        self.lucky = lucky
        self.hp = hp
        self.abilities = abilities
        self.ability_decks = ability_decks
        self.ability_discards = ability_discards
        self.lines = lines
        self.statuses = statuses
        self.energy = energy
        self.turns_taken = turns_taken
        self.streak = streak
        self.pending = pending
        self.known = known
        self.turn = turn
        self.ply = ply
        self.chances = chances
        self.winner = winner
        self.reason = reason
        self.drew_arcana = drew_arcana

    def __repr__(self) -> str:
        return (
            f"ArcanaState(ply={self.ply}, turn={self.turn}, hp={self.hp}, "
            f"decks={tuple(map(len, self.decks))}, winner={self.winner})"
        )


def open_tops(state: ArcanaState) -> int:
    """How many top cards of each numbered deck lie face up for everyone: one from
    edition 3 on, none before."""
    return 1 if state.setup.options["edition"] >= OPEN_TOPS_EDITION else 0


def fatigue(edition: int, turn: int) -> int:
    """The HP a seat loses as its `turn`-th own turn starts: none up to `FATIGUE_TURN`, then
    1, 2, 3, ... (from edition 3 on; none before)."""
    return max(0, turn - FATIGUE_TURN) if edition >= FATIGUE_EDITION else 0


def arcana_barred(state: ArcanaState, seat: int) -> bool:
    """Whether `seat` may not draw from the arcana deck now because it did last turn."""
    return bool(state.drew_arcana[seat]) and state.setup.options["edition"] >= 2
