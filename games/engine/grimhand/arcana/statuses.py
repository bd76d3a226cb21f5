"""Grimhand Arcana's statuses: the effects that outlive the move that made them.

Invariants:
- A status on a seat is (key, turns, amount): `key` names a `STATUSES` entry, `turns` is
  how many more of its holder's turn starts it lasts (always >= 1 while it is on; it
  ends, with a `status_ended` event, when `turns` reaches 0), `amount` its strength.
- "Next turn" means the holder's own next turn: a status ticks at the START of each of its
  holder's turns (Bleed hits first, then `turns` goes down by 1). A status put on a seat
  during the other seat's turn therefore still covers the other seat's next turn when it
  has turns >= 2.
- A one-shot status (every one but Bleed) also ends as soon as it is used, at its
  `trigger`: "attack" (its holder attacks), "defend" (its holder is attacked),
  "draw_attack" / "draw_defense" / "draw" (its holder draws a numbered card of that type,
  or of any type), "lucky" (its holder draws a 7 that would go to the Lucky slot).
- Stacking: a status added to a seat that has it already either "adds" (amounts add) or
  "refreshes" (the larger amount stays); either way turns become the larger of the two.
  A seat never holds two entries with the same key.
- `modify(x, amount)` is the status's whole rule as a small pure function of the number
  its trigger hands it: a new total (attack, defense), the change to a drawn card's value
  (Hex, Mist, Guardian: it goes on the hand's total, public, whatever the card), the
  HP lost (Bleed) or the damage reflected (Mirror).
- Pure: imports the standard library only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

Modify = Callable[[int, int], int]


@dataclass(frozen=True, slots=True)
class StatusDef:
    key: str
    name: str
    text: str  # "{amount}" is filled in
    trigger: str
    stacking: str  # "add" | "refresh"
    modify: Modify
    harmful: bool  # shown red on the board; helps bots tell friend from foe


def _minus(x: int, amount: int) -> int:
    return x - amount


def _plus(x: int, amount: int) -> int:
    return x + amount


def _halve(total: int, percent: int) -> int:
    return total - total * percent // 100


def _reflected(damage: int, percent: int) -> int:
    return damage * percent // 100


def _draw_penalty(value: int, amount: int) -> int:
    """The change a penalty makes to a drawn card (to its hand's total, which counts >= 0).

    Never clipped at the card's value: the change must not tell anyone what was drawn.
    """
    return -amount


def _bonus(value: int, amount: int) -> int:
    """The change a bonus makes to a drawn card."""
    return amount


def _keep(x: int, amount: int) -> int:
    return x


STATUSES: dict[str, StatusDef] = {
    status.key: status
    for status in (
        StatusDef(
            "bleed",
            "Bleed",
            "Loses {amount} HP at the start of each turn.",
            "turn_start",
            "add",
            _minus,
            True,
        ),
        StatusDef(
            "fortify",
            "Fortify",
            "+{amount} defense when next attacked.",
            "defend",
            "add",
            _plus,
            False,
        ),
        StatusDef(
            "expose",
            "Expose",
            "Defense loses {amount}% when next attacked.",
            "defend",
            "refresh",
            _halve,
            True,
        ),
        StatusDef(
            "mirror",
            "Mirror",
            "{amount}% of the next attack's damage goes back.",
            "defend",
            "refresh",
            _reflected,
            False,
        ),
        StatusDef(
            "weakness",
            "Weakness",
            "Next attack counts -{amount}.",
            "attack",
            "refresh",
            _minus,
            True,
        ),
        StatusDef(
            "pact",
            "Blood Pact",
            "Next attack counts +{amount}.",
            "attack",
            "add",
            _plus,
            False,
        ),
        StatusDef(
            "hex",
            "Hex",
            "Next card drawn counts -{amount}.",
            "draw",
            "refresh",
            _draw_penalty,
            True,
        ),
        StatusDef(
            "mist",
            "Mist",
            "Next attack card drawn counts -{amount}.",
            "draw_attack",
            "refresh",
            _draw_penalty,
            True,
        ),
        StatusDef(
            "guardian",
            "Guardian",
            "Next defense card drawn counts +{amount}.",
            "draw_defense",
            "refresh",
            _bonus,
            False,
        ),
        StatusDef(
            "doom",
            "Doom",
            "The next Lucky 7 drawn does not go to the slot.",
            "lucky",
            "refresh",
            _keep,
            True,
        ),
    )
}
STATUS_KEYS = tuple(STATUSES)

Entry = tuple[str, int, int]  # (key, turns, amount)


def add(entries: tuple[Entry, ...], key: str, turns: int, amount: int) -> tuple[Entry, ...]:
    """`entries` with the status added, by its stacking rule."""
    for index, (old_key, old_turns, old_amount) in enumerate(entries):
        if old_key == key:
            if STATUSES[key].stacking == "add":
                amount += old_amount
            else:
                amount = max(amount, old_amount)
            entry = (key, max(turns, old_turns), amount)
            return entries[:index] + (entry,) + entries[index + 1 :]
    return entries + ((key, turns, amount),)


def find(entries: tuple[Entry, ...], key: str) -> Entry | None:
    for entry in entries:
        if entry[0] == key:
            return entry
    return None


def remove(entries: tuple[Entry, ...], key: str) -> tuple[Entry, ...]:
    return tuple(entry for entry in entries if entry[0] != key)


def describe(entry: Entry) -> dict[str, object]:
    key, turns, amount = entry
    status = STATUSES[key]
    return {
        "key": key,
        "name": status.name,
        "turns": turns,
        "amount": amount,
        "text": status.text.format(amount=amount),
        "harmful": status.harmful,
    }
