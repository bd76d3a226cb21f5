"""The greedy bot's BaniraCards heuristic: how good one move looks from the player's view.

What matters in a run: every card played is +8 score (+4 for a shiny), and the run only
counts if all ten slots get covered; a run that gets stuck scores 0. So the bot
- plays what it can afford, valuing a play by what it gives back (points, stamina left,
  cards drawn), covering empty slots first and Flex (which takes any card) last;
- avoids stacks that drain stamina the empty slots will still need (boosts would pay
  for them at 10 score per 2 stamina), and keeps a card of each uncovered element for
  its own slot;
- unlocks the slot its hand (and the unseen cards) fit best: points buy nothing else;
- once the last slot could be covered, keeps stacking first only while the finishing play
  stays affordable (each extra play is +8), then finishes;
- when nothing plays, boosts if that makes a play affordable, else draws, or discards a
  card it cannot place to let the overflow in.
Everything comes from the view: the hand, the field, the costs map and the unseen cards.
What a view implies is worked out once per view (`_plan`) and kept for the other moves
of the same decision (one slot, replaced atomically, so threads cannot mix two views).
"""

from __future__ import annotations

from typing import Any

from games.engine.core import Move

FINISH = 1_000.0
MILK = 2_000.0  # a play that keeps the finish in hand beats finishing now
BREAKS_FINISH = -500.0
COVER_BONUS = 12.0
PLAY_BASE = 20.0
POINT_WEIGHT = 1.0
STAMINA_WEIGHT = 1.0
DRAW_WEIGHT = 1.5
UNLOCK_BASE = 15.0
SCARCITY_WEIGHT = 12.0
BOOST_FALLBACK = 0.5
STACK_DRAIN_WEIGHT = 6.0
FLEX_LAST = 15.0
LAST_OF_ELEMENT = 40.0
HAND_LIMIT = 7

_LAST_PLAN: list[tuple[Any, dict[str, Any]]] = [(None, {})]  # (view, its plan)


def evaluate(view: dict[str, Any], move: Move) -> float:
    plan = _plan(view)
    kind = move["type"]
    if kind == "play":
        return _play(view, plan, move["card"], move["slot"])
    if kind == "unlock":
        return _unlock(view, plan, move["slot"])
    if kind == "draw":
        return _draw(view, plan)
    if kind == "discard":
        return _discard(view, plan, move["card"])
    return _boost(view, plan)


# --- what the position looks like (computed once per view) --------------------------------


def _plan(view: dict[str, Any]) -> dict[str, Any]:
    seen, plan = _LAST_PLAN[0]
    if seen is view:
        return plan
    hand = {card["id"]: card for card in view["hand"]}
    field = {slot["slot"]: slot for slot in view["field"]}
    plays = [
        (card_id, slot, entry["cost"])
        for card_id, row in view["costs"].items()
        for slot, entry in row.items()
        if entry["legal"]
    ]
    last_slot = None
    if view["covered_count"] == len(field) - 1:
        last_slot = next(name for name, slot in field.items() if not slot["depth"])
    finishers = [(card, slot, cost) for card, slot, cost in plays if slot == last_slot]
    blocked_by_stamina = any(
        entry["cost"] is not None and not entry["legal"]
        for row in view["costs"].values()
        for entry in row.values()
    )
    plan = {
        "hand": hand,
        "field": field,
        "plays": plays,
        "last_slot": last_slot,
        "finishers": finishers,
        "blocked_by_stamina": blocked_by_stamina,
        "unseen_fit": _unseen_fit(view),
        "supply": _supply(view),
        "stamina_need": _stamina_need(view),
    }
    _LAST_PLAN[0] = (view, plan)
    return plan


def _affords(stamina: int, points: int, card: dict[str, Any], cost: int) -> bool:
    """The engine's affordability rule: pay first, then nothing may go below zero."""
    left = stamina - cost
    return left >= 0 and left + card["stamina"] >= 0 and points + card["points"] >= 0


def _fits(card: dict[str, Any], slot: str) -> bool:
    return slot in (card["element"], card["type"], "flex")


def _stamina_need(view: dict[str, Any]) -> int:
    """The stamina the empty slots still cost to cover (1 more for each one covered)."""
    empty = view["empty_cost"]
    return sum(range(empty, empty + len(view["field"]) - view["covered_count"]))


def _supply(view: dict[str, Any]) -> dict[str, int]:
    """How many cards (held or unseen) could still cover each slot."""
    supply: dict[str, int] = {}
    for card in view["hand"] + view["unseen"]:
        for slot in (card["element"], card["type"], "flex"):
            supply[slot] = supply.get(slot, 0) + 1
    return supply


def _unseen_fit(view: dict[str, Any]) -> dict[str, float]:
    """The share of the unseen cards that fit each slot."""
    unseen = view["unseen"]
    counts: dict[str, int] = {"flex": len(unseen)}
    for card in unseen:
        counts[card["element"]] = counts.get(card["element"], 0) + 1
        counts[card["type"]] = counts.get(card["type"], 0) + 1
    total = max(1, len(unseen))
    return {slot["slot"]: counts.get(slot["slot"], 0) / total for slot in view["field"]}


# --- moves --------------------------------------------------------------------------------


def _gains(view: dict[str, Any], card: dict[str, Any], cost: int) -> float:
    room = HAND_LIMIT - len(view["hand"]) + 1  # the played card leaves the hand
    draws = card["draws"]
    useful_draws = min(draws, room) + 0.3 * max(0, draws - room) if draws > 0 else draws
    gains: float = (
        POINT_WEIGHT * card["points"]
        + STAMINA_WEIGHT * (card["stamina"] - cost)
        + DRAW_WEIGHT * useful_draws
    )
    return gains


def _play(view: dict[str, Any], plan: dict[str, Any], card_id: str, slot: str) -> float:
    card = plan["hand"][card_id]
    cost = view["costs"][card_id][slot]["cost"]
    value = PLAY_BASE + (4 if card["rarity"] == "shiny" else 8) + _gains(view, card, cost)
    if slot == plan["last_slot"]:
        return FINISH + value
    if plan["finishers"]:
        return MILK + value if _keeps_finish(view, plan, card, cost) else BREAKS_FINISH
    if not plan["field"][slot]["depth"]:
        value += COVER_BONUS + SCARCITY_WEIGHT / (1 + plan["supply"].get(slot, 0))
        if slot == "flex":
            value -= FLEX_LAST  # Flex takes any card: the safest slot to cover last
    elif cost > card["stamina"] and view["stamina"] - cost < plan["stamina_need"]:
        value -= STACK_DRAIN_WEIGHT * (cost - card["stamina"])  # boosts will have to pay it
    own = card["element"]
    if slot != own and not plan["field"][own]["depth"]:
        supply = plan["supply"][own]  # it may be needed to cover its own slot
        value -= LAST_OF_ELEMENT if supply <= 1 else SCARCITY_WEIGHT / supply
    return value


def _keeps_finish(
    view: dict[str, Any], plan: dict[str, Any], card: dict[str, Any], cost: int
) -> bool:
    """After stacking `card`, can some other held card still cover the last slot?"""
    stamina = view["stamina"] - cost + card["stamina"]
    points = view["points"] + card["points"]
    empty = view["empty_cost"]
    held = [entry["id"] for entry in view["hand"] if entry["id"] != card["id"]]
    # A negative draw takes the overflow first, then the hand from the right.
    taken = max(0, -card["draws"] - view["overflow_count"])
    kept = set(held[: len(held) - taken])
    for finisher, _slot, _cost in plan["finishers"]:
        other = plan["hand"][finisher]
        if finisher not in kept:
            continue
        if _affords(stamina, points, other, empty):
            return True
    return False


def _unlock(view: dict[str, Any], plan: dict[str, Any], slot: str) -> float:
    held = [card for card in plan["hand"].values() if _fits(card, slot)]
    points = view["points"] - view["unlock_cost"]
    empty = view["empty_cost"]
    playable = any(_affords(view["stamina"], points, card, empty) for card in held)
    value: float = UNLOCK_BASE + 3.0 * len(held) + 10.0 * playable + 10.0 * plan["unseen_fit"][slot]
    if slot == "flex" and view["unlocked_count"] < len(view["field"]) - 1:
        value -= FLEX_LAST
    return value


def _draw(view: dict[str, Any], plan: dict[str, Any]) -> float:
    if plan["finishers"]:
        return -100.0
    return 2.0 if len(view["hand"]) < HAND_LIMIT else -8.0


def _discard(view: dict[str, Any], plan: dict[str, Any], card_id: str) -> float:
    if plan["finishers"] or len(view["hand"]) < HAND_LIMIT:
        return -20.0
    card = plan["hand"][card_id]
    placeable = any(view["costs"][card_id][slot]["cost"] is not None for slot in plan["field"])
    value: float = 1.0 - 5.0 * placeable - 0.1 * (card["points"] + card["stamina"] + card["draws"])
    own = card["element"]
    if not plan["field"][own]["depth"]:
        value -= SCARCITY_WEIGHT / plan["supply"][own]  # it may be needed to cover its own slot
    return value


def _boost(view: dict[str, Any], plan: dict[str, Any]) -> float:
    """A boost is worth its score when the two stamina (or points) it gives unlock a play."""
    if plan["finishers"]:
        return -100.0
    stamina, points = view["stamina"] + 2, view["points"] + 2
    for card_id, row in view["costs"].items():
        card = plan["hand"][card_id]
        for entry in row.values():
            cost = entry["cost"]
            if entry["legal"] or cost is None:
                continue
            if _affords(stamina, points, card, cost):
                return 3.0
    unlock = view["unlock_cost"]
    if unlock is not None and view["points"] < unlock <= points:
        return 1.0
    return BOOST_FALLBACK if plan["blocked_by_stamina"] else -10.0
