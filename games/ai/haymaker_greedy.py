"""The greedy bot's Haymaker heuristic: how good one move looks from the mover's view.

The score is roughly the change in (my cards - their cards) the move leads to, since a
player loses by running out of cards, plus bonuses for what the card count misses
(taking the attack through a reversal) and large values for moves that win or lose on
the spot. Reads only the view's public fields and the mover's own hand.
"""

from __future__ import annotations

from typing import Any

from games.engine.core import Move

WIN = 1000.0
LOSE = -1000.0
REVERSAL_BONUS = 1.5


def rank(name: str) -> int:
    value = name[:-1]
    return 1 if value == "A" else int(value)


def evaluate(view: dict[str, Any], move: Move) -> float:
    if view["step"] == "defend":
        return _defend(view, move)
    return _attack(view, move)


def _counts(view: dict[str, Any]) -> tuple[int, int]:
    seat = view["seat"]
    players = view["players"]
    return players[seat]["hand_count"], players[1 - seat]["hand_count"]


def _attack(view: dict[str, Any], move: Move) -> float:
    _mine, theirs = _counts(view)
    kind = move["type"]
    if kind == "pass":
        return -3.0
    ranks = [rank(card) for card in move["cards"]]
    power = sum(ranks)
    if theirs == 0:  # they must take the hit with nothing to give
        return WIN - len(ranks)
    if kind == "haymaker":
        if theirs == 1 and power > 10:  # one card cannot block it, nor pay two
            return WIN - len(ranks)
        return -2.0 * len(ranks) - 2.0
    return -0.1 * ranks[0]


def _defend(view: dict[str, Any], move: Move) -> float:
    mine, theirs = _counts(view)
    attack = view["attack"]
    cost = 2 if attack["is_haymaker"] else 1
    if move["type"] == "take_hit":
        return LOSE if mine < cost else -2.0 * cost
    ranks = [rank(card) for card in move["cards"]]
    left = mine - len(ranks)
    is_reversal = attack["is_haymaker"] or sum(ranks) == attack["strength"] or theirs == 0
    if not is_reversal:
        return LOSE / 2 if left == 0 else -len(ranks) - 0.1
    if left == 0 and view["deck_count"] == 0 and theirs > 0:
        return LOSE / 2  # attacking with no cards and nothing to draw: technical knockout
    return -len(ranks) + REVERSAL_BONUS
