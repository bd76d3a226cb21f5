"""The Grimhand Tactics heuristic for the greedy bot: survive the Death card, hit when you can.

What the numbers say: with random play 97% of matches end on a Death card, so the turns a
player spends drawing are what loses matches. Attacking is the only turn with no draw, and
it needs attack cards, so the bot attacks whenever it holds one (a kill or the most damage
first), and when it must draw it picks the deck least likely to give it the Death card,
leaning to the Attack deck because an attack card buys the next safe turn. A Lucky 7 in
the slot makes one Death card survivable, so the risk then counts for less.

Everything comes from the seat's own view: deck death chances are public, the opponent's
defense is the view's preview range.
"""

from __future__ import annotations

from typing import Any

from games.engine.core import Move

KILL = 1_000.0
SAFE_TURN = 50.0  # an attack is a turn without a draw
DEATH_COST = 400.0  # a Death card without a Lucky 7 ends the match
SAVED_DEATH_COST = 60.0  # with one, it costs the Lucky 7
ATTACK_CARD_BONUS = 0.0  # an attack card is a future safe turn
MEAN_ATTACK_CARD = 6.5  # the mean value of a card in hand (7s mostly go to the slot)
GUARD_WEIGHT = 20.0  # a defense card when the opponent's hand could take all my HP


def evaluate(view: dict[str, Any], move: Move) -> float:
    me = view["players"][view["seat"]]
    opponent = view["players"][1 - view["seat"]]
    if move["type"] == "attack":
        return _attack_score(view["preview"], opponent["hp"])
    if move["type"] == "draw":
        deck = view["decks"][move["deck"]]
        cost = SAVED_DEATH_COST if me["lucky"] else DEATH_COST
        bonus = ATTACK_CARD_BONUS if move["deck"] == "attack" else _guard_need(me, opponent)
        if len(me["hand"][move["deck"]]) >= view["options"]["hand_limit"]:
            bonus -= 10.0  # the draw would overflow that hand
        return bonus - cost * _death_chance(deck)
    return 0.0  # pass: only ever the one legal move


def _guard_need(me: dict[str, Any], opponent: dict[str, Any]) -> float:
    """How much a defense card is worth now: the opponent's likely hit beyond my guard."""
    threat = opponent["hand_count"]["attack"] * MEAN_ATTACK_CARD
    uncovered = threat - sum(me["hand"]["defense"])
    return GUARD_WEIGHT * max(0.0, min(1.0, uncovered / max(me["hp"], 1)))


def _attack_score(preview: dict[str, Any] | None, opponent_hp: int) -> float:
    if preview is None:
        return 0.0
    if preview["damage_min"] >= opponent_hp:
        return KILL
    expected = (preview["damage_min"] + preview["damage_max"]) / 2
    return SAFE_TURN + expected


def _death_chance(deck: dict[str, Any]) -> float:
    if deck["count"]:
        return deck["death_chance"]
    # An empty deck is refilled from its discard before the draw.
    discard = deck["discard"]
    return discard.count(13) / len(discard) if discard else 0.0
