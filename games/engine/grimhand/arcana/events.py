"""Grimhand Arcana's match events: one rule change for a whole match, drawn at setup.

Invariants:
- `EVENTS` maps a key to a `MatchEvent`; "none" changes nothing. A match's event is fixed
  when it starts (option "event": a key, "none", or "random", the default), so it is part
  of the first position and public from ply 0 (event `match_event`).
- "random" draws uniformly among every key, "none" included, from
  `Chance(seed, "arcana/event")`: the same seed always gives the same event.
- An event is plain numbers the rules read at fixed points: `attack_bonus` on every attack
  total, `defense_bonus` on every defense total of an attacked seat that holds any
  defense, `heal` at the start of each turn (never above the starting HP), `energy` on
  top of each turn's energy.
- Pure: imports the standard library and `games.engine.core` only.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.core import Chance


@dataclass(frozen=True, slots=True)
class MatchEvent:
    key: str
    name: str
    text: str
    attack_bonus: int = 0
    defense_bonus: int = 0
    heal: int = 0
    energy: int = 0


EVENTS: dict[str, MatchEvent] = {
    event.key: event
    for event in (
        MatchEvent("none", "A quiet night", "No event this match."),
        MatchEvent("blood_moon", "Blood Moon", "Every attack +2.", attack_bonus=2),
        MatchEvent(
            "stone_sky", "Stone Sky", "Every defense that holds a card +2.", defense_bonus=2
        ),
        MatchEvent("harvest_moon", "Harvest Moon", "Heal 1 HP at the start of each turn.", heal=1),
        MatchEvent("arcane_tide", "Arcane Tide", "+1 energy every turn.", energy=1),
    )
}
EVENT_KEYS = tuple(EVENTS)


def draw_event(seed: bytes) -> MatchEvent:
    """The match event of "random", from the seed."""
    return EVENTS[Chance(seed, "arcana/event").choice(EVENT_KEYS)]
