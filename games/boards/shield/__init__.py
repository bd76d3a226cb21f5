"""Shield on the page: a table of 2 to 8 players, real playing cards, and the log lines.

Presentation only. Everything here restates what the viewer's `view` already says (every
shield and HP, how many cards each player has stored, my own setup hand, the attack on the
table, the last action) in the words and pictures a player needs. No rule is decided here:
the buttons of the board are the server's legal moves for the viewer, nothing else.

Invariants:
- A stored card is only ever drawn as a back with a count: the view never names one while
  it is stored, and nothing here looks for one.
- The viewer sits at the bottom of the table and the others follow clockwise (seat order,
  docs/rules/shield.md); a spectator sees seat 0 at the bottom.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.boards.base import BoardPresenter
from games.boards.playing_cards import PlayingCards, plural
from games.boards.shield.tutorial import TUTORIAL
from games.engine.core import Event

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_WORDS = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
FACES = {"J": "img/shield/jack.svg", "Q": "img/shield/queen.svg", "K": "img/shield/king.svg"}

DECK = PlayingCards(RANKS, RANK_WORDS, pip_x=(34, 50, 66), faces=FACES, label_shows_value=True)
CARDS = DECK.cards

PLACES = {1: "1st", 2: "2nd", 3: "3rd"}
ENDINGS = {
    "last_standing": "the last player standing",
    "resign": "the others resigned",
    "timeout": "the others ran out of time",
}
STEP_TITLES = {
    "setup": "Choosing shields",
    "action": "Choosing an action",
    "boost": "Adding stored cards to the attack",
    "give": "Giving stored cards away",
    "over": "The match is over",
}


# --- cards ----------------------------------------------------------------------------------


def place_text(place: int | None) -> str:
    if not place:
        return ""
    return PLACES.get(place, f"{place}th")


# --- the match log ----------------------------------------------------------------------------


def describe(event: Event, names: Sequence[str]) -> str:
    """One line of the match log: who did what to whom."""
    data = event.data

    def who(key: str = "seat") -> str:
        seat = data.get(key)
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "Someone"

    match event.type:
        case "shield_chosen":
            return (
                f"{who()} picks the {CARDS[data['card']]['short']} as shield (only you see this)."
            )
        case "confirmed":
            return f"{who()} is ready."
        case "play_started":
            return _describe_start(data, names)
        case "shield_changed":
            cards = f"{DECK.short([data['old']])} → {DECK.short([data['new']])}"
            if data["seat"] == data["target"]:
                return f"{who()} draws a new shield: {cards}."
            return f"{who()} replaces {who('target')}'s shield: {cards}."
        case "stored":
            return f"{who()} stores a card face down ({data['count']} stored)."
        case "attack":
            return (
                f"{who()} attacks {who('target')} and draws the {DECK.short([data['card']])}: "
                f"{data['power']} against shield {data['shield']}."
            )
        case "boost":
            count = plural(len(data["cards"]), "stored card")
            return f"{who()} adds {count}: {DECK.short(data['cards'])}. Power {data['power']}."
        case "blocked":
            return (
                f"{who('target')}'s shield holds against {who()}: "
                f"{data['power']} against {data['shield']}, no damage."
            )
        case "hit":
            return (
                f"{who()} hits {who('target')} for {data['damage']} "
                f"({data['power']} against shield {data['shield']}). "
                f"{who('target')} has {data['hp']} HP."
            )
        case "stored_discarded":
            cards = DECK.short(data["cards"])
            return f"{who()} loses {plural(len(data['cards']), 'stored card')}: {cards}."
        case "gave":
            count = plural(data["count"], "stored card")
            return f"{who()} gives {count} to {who('target')}."
        case "next_turn":
            return f"{who()}'s turn."
        case "eliminated":
            return _describe_out(data, names)
        case "last_standing":
            return f"{who('winner')} is the last player standing and wins!"
        case "attack_dropped":
            cards = DECK.short(data["cards"])
            return f"The attack on {who('target')} is dropped; {cards} go to the discard pile."
        case "reshuffled":
            if data.get("from") == "stored":
                return (
                    f"No card left to draw: every stored card ({data['count']}) is "
                    "shuffled into a new draw pile."
                )
            return f"The draw pile is empty: {data['count']} discarded cards are shuffled into it."
    return event.type.replace("_", " ").capitalize() + "."


def _describe_start(data: Any, names: Sequence[str]) -> str:
    layouts = "; ".join(
        f"{names[p['seat']]} {DECK.short([p['shield']])} shield, {p['hp']} HP"
        for p in data["players"]
    )
    first = names[data["first"]] if data.get("first") is not None else "?"
    return f"Shields up! {layouts}. {first} has the lowest HP and starts."


def _describe_out(data: Any, names: Sequence[str]) -> str:
    name = names[data["seat"]]
    place = place_text(data.get("place"))
    reason = data.get("reason")
    if reason == "resign":
        return f"{name} resigns and is out ({place} place)."
    if reason == "timeout":
        return f"{name} ran out of time and is out ({place} place)."
    if data.get("by") is not None:
        return f"{name} is knocked out by {names[data['by']]} ({place} place)."
    return f"{name} is out ({place} place)."


# --- the table --------------------------------------------------------------------------------


def _ring_spot(position: int, count: int) -> dict[str, str]:
    """Where a seat sits on the oval: position 0 (the viewer) at the bottom, then clockwise.

    Screen angles grow clockwise (y points down), so 90° is the bottom and the next seat
    sits to the viewer's left, as at a real table.
    """
    angle = math.radians(90 + 360 * position / count)
    return {"cx": f"{math.cos(angle):.3f}", "cy": f"{math.sin(angle):.3f}"}


def _player(player: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    player = dict(player)
    seat, step = player["seat"], view["step"]
    hp_cards = DECK.many(player["hp_cards"])
    hp = player["hp"]
    hp_max = max(sum(c["value"] for c in hp_cards), hp or 0, 1)
    player["is_viewer"] = seat == view["seat"]
    player["is_turn"] = seat == view["turn"] and step != "setup"
    player["is_choosing"] = step == "setup" and seat in view["to_act"]
    player["is_ready"] = step == "setup" and player["confirmed"] and not player["is_out"]
    player["is_winner"] = bool(view["outcome"]) and seat in view["outcome"]["winners"]
    player["shield_card"] = DECK.one(player["shield"])
    player["hp_card_list"] = hp_cards
    player["hp_max"] = hp_max
    player["hp_percent"] = 0 if hp is None else max(0, min(100, round(100 * hp / hp_max)))
    player["is_low"] = hp is not None and player["hp_percent"] <= 30
    player["place_text"] = place_text(player["place"])
    player["stored_backs"] = range(min(player["stored_count"], 3))
    return player


def _attack(view: dict[str, Any]) -> dict[str, Any] | None:
    attack = view.get("attack")
    if not attack:
        return None
    attack = dict(attack)
    attack["drawn"] = DECK.one(attack["card"])
    attack["boost_cards"] = DECK.many(attack["boost"])
    attack["short_of"] = max(0, attack["shield"] + 1 - attack["power"])
    return attack


def _last_action(view: dict[str, Any]) -> dict[str, Any] | None:
    last = view.get("last_action")
    if not last or last.get("action") is None:
        return None
    last = dict(last)
    last["drawn"] = DECK.one(last["card"])
    last["old_card"] = DECK.one(last["old_shield"])
    last["boost_cards"] = DECK.many(last["boost"])
    last["lost_cards"] = DECK.many(last["stored_discarded"])
    last["is_self"] = last["seat"] == last["target"]
    return last


def _setup_hand(view: dict[str, Any]) -> list[dict[str, Any]]:
    """My four cards during the setup: each with the HP it would leave me as my shield."""
    hand = view.get("hand") or []
    values = {name: CARDS[name]["value"] for name in hand if name in CARDS}
    total = sum(values.values())
    return [
        {
            **CARDS[name],
            "is_pick": name == view.get("pick"),
            "hp_if_shield": total - values[name],
            "choose_move": {"type": "choose_shield", "card": name},
        }
        for name in hand
        if name in CARDS
    ]


def _ending(view: dict[str, Any]) -> dict[str, Any] | None:
    outcome = view.get("outcome")
    if not outcome:
        return None
    ranking = [
        {"seat": seat, "place": place, "place_text": place_text(place)}
        for place, group in enumerate(outcome["ranking"], start=1)
        for seat in group
    ]
    return {**outcome, "why": ENDINGS.get(outcome["reason"], ""), "ranking_list": ranking}


def decorate(view: dict[str, Any]) -> dict[str, Any]:
    """Add what the table needs: seats around it, card faces, the stage and the picker."""
    players = [_player(player, view) for player in view["players"]]
    count = len(players)
    anchor = view["seat"] if view["seat"] is not None else 0
    around = [players[(anchor + step) % count] for step in range(count)]
    for position, player in enumerate(around):
        player["position"] = position
        player.update(_ring_spot(position, count))
    view["around"] = around
    view["me"] = players[view["seat"]] if view["seat"] is not None else None
    view["hand_cards"] = _setup_hand(view)
    view["pick_card"] = DECK.one(view.get("pick"))
    view["confirm_move"] = {"type": "confirm"}
    view["ready_count"] = sum(1 for p in players if p["is_ready"])
    view["living_count"] = sum(1 for p in players if not p["is_out"])
    view["attack_shown"] = _attack(view)
    view["last"] = _last_action(view)
    view["discard_card"] = DECK.one(view.get("discard_top"))
    view["deck_stack"] = range(min(3, (view["deck_count"] + 9) // 10))
    view["ending"] = _ending(view)
    view["step_title"] = STEP_TITLES.get(view["step"], "")
    view["size_class"] = "is-crowded" if count > 5 else "is-roomy" if count > 3 else "is-few"
    return view


@dataclass(frozen=True)
class ShieldPresenter(BoardPresenter):
    """Also offers every card face to the rules page (`presenter.cards.QS`)."""

    @property
    def cards(self) -> dict[str, dict[str, Any]]:
        return CARDS


# How a match ended, said to the winner, to the loser, and to everyone else (by the
# outcome's reason; resignations and timeouts are worded by games.selectors).
OUTCOME_PHRASES = {
    "last_standing": ("you are the last one standing", "you are out", "the last one standing"),
}

BOARD = ShieldPresenter(
    slug="shield",
    folder=Path(__file__).parent,
    outcome_phrases=OUTCOME_PHRASES,
    template="games/shield/board.jinja",
    describe=describe,
    tagline="Pick a shield, guard your HP, and strike the weakest. The last one standing wins.",
    decorate=decorate,
    stylesheet="css/games/shield.css",
    rules_template="games/shield/rules.html",
    tutorial=TUTORIAL,
)
