"""Dog Blade on the page: monster art, HP bars, and the log lines of its events."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from games.boards.base import BoardPresenter
from games.boards.dogblade.tutorial import TUTORIAL
from games.engine.core import Event

ART_COUNT = 12


def monster_art(atk: int, hp: int) -> str:
    """A stable portrait for a monster: the same stats always look the same."""
    return f"img/dogblade/monster-{(atk * 7 + hp * 3) // 10 % ART_COUNT + 1:02d}.svg"


def describe(event: Event, names: Sequence[str]) -> str:
    data = event.data
    if event.type == "attack":
        return f"{names[data['seat']]} hits for {data['damage']} ({data['hp']} HP left)."
    if event.type == "monster_defeated":
        atk, hp = data["card"]
        return f"{names[data['seat']]}'s {atk}/{hp} monster is defeated!"
    if event.type == "monster_drawn":
        atk, hp = data["card"]
        return f"{names[data['seat']]} sends in a fresh {atk}/{hp} monster."
    if event.type == "out_of_cards":
        return f"{names[data['seat']]} has no monsters left."
    return event.type.replace("_", " ")


def decorate(view: dict[str, Any]) -> dict[str, Any]:
    me = view["seat"] if view["seat"] is not None else 0
    view["order"] = [view["sides"][1 - me], view["sides"][me]]  # opponent on top, me below
    for side in view["sides"]:
        active = side["active"]
        if active:
            active["art"] = monster_art(active["atk"], active["max_hp"])
            active["hp_percent"] = max(0, min(100, round(100 * active["hp"] / active["max_hp"])))
        side["fallen"] = [
            {"atk": atk, "hp": hp, "art": monster_art(atk, hp)} for atk, hp in side["defeated"]
        ]
    return view


# How a match ended, said to the winner, to the loser, and to everyone else (by the
# outcome's reason; resignations and timeouts are worded by games.selectors).
OUTCOME_PHRASES = {
    "out_of_cards": ("their last monster fell", "your last monster fell", "the last monster fell"),
}

BOARD = BoardPresenter(
    slug="dogblade",
    folder=Path(__file__).parent,
    outcome_phrases=OUTCOME_PHRASES,
    template="games/dogblade/board.jinja",
    describe=describe,
    tagline="Twenty monsters each. They fight one at a time until a side runs out.",
    decorate=decorate,
    rules_template="games/dogblade/rules.html",
    tutorial=TUTORIAL,
)
