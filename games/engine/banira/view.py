"""What the player may know of a BaniraCards run, and runs consistent with it.

Invariants:
- Face down, for everyone: the deck's order and the overflow's cards (the page shows only
  "+N"). The view gives their count and the cards not yet seen in deck-list order, never
  in draw order: two states that differ only there give the same view.
- Face up: the field (every stack), the held hand, the discard pile, the counters.
- A spectator (seat None) sees what the player sees. The run has no secret from its own
  player but the deck, so there is nothing more to hide (see docs/rules/banira.md on
  watching weekly runs).
- The view is fresh JSON-able data: nothing in it is shared with the state.
- `sample_hidden` redeals the unseen cards (deck and overflow) at random; a run has no
  chance stream after the shuffle, so nothing else needs redrawing. It lives here,
  beside the view: it redraws exactly what the view hides.
- Pure: imports the standard library, `games.engine.core` and this package's `cards`,
  `state` and `rules`.

The view, as JSON (a board is written against it):

    {
      "game": "banira",
      "ply": 12,                       # moves made so far
      "seat": 0,                       # the viewer; null for a spectator
      "to_act": [0],                   # [] once the run is over
      "status": "running",             # "running" | "complete" | "stuck"
      "points": 3, "stamina": 2, "score": 58,
      "plays": 5,                      # cards played onto the field so far
      "unlocked_count": 3, "covered_count": 2,
      "unlock_cost": 4,                # points for the next unlock; null once all are open
      "empty_cost": 3,                 # stamina for the next play onto an empty slot
      "field": [                       # ten slots: the seven elements, then sun, moon, flex
        {"slot": "ruby", "label": "Ruby", "kind": "element",   # "element" | "type" | "flex"
         "row": 0,                     # 0: the element row; 1: Sun, Moon, Flex
         "unlocked": true,
         "unlock_cost": null,          # points to unlock it now; null once unlocked
         "top": {card} or null,        # the top card of the stack
         "depth": 2,                   # cards in the stack
         "stack": ["r1", "g7"],        # the stack's card ids, bottom first
         "cost": 3,                    # stamina for the next card here; null while locked
         "accepts": ["silver", "bronze", "shiny"]}, ...   # rarities that may go on it next
      ],
      "hand": [{card}, ...],           # the cards held, left to right (oldest first), <= 7
      "hand_limit": 7,
      "overflow_count": 2,             # cards waiting for room in the hand (face down)
      "deck_count": 30,
      "discard": [{card}, ...],        # face up, oldest first
      "unseen": [{card}, ...],         # the deck and overflow cards, in deck-list order
                                       #   (never in the order they will be drawn)
      "costs": {                       # every held card against every slot
        "r1": {"ruby": {"legal": true, "cost": 3, "reason": null},
               "moon": {"legal": false, "cost": null, "reason": "Ruby Dawn is a ... card: ..."},
               "flex": {"legal": false, "cost": 5, "reason": "That play costs 5 stamina ..."}}
      },                               # cost null: the card cannot go there at all
      "can_draw": true, "can_discard": true, "can_boost": true,
      "prices": {"draw": 2, "discard": 1, "boost": 10,
                 "boost_points": 2, "boost_stamina": 2},   # score costs and the boost's gains
      "last_play": {"card": {card}, "slot": "ruby"} or null,
      "outcome": null or {"winners": [0] or [], "ranking": [[0]], "reason": "complete",
                          "scores": [88]}
    }

A card is {"id", "name", "element", "type", "rarity", "points", "stamina", "draws"}, exactly
as the deck list spells it.
"""

from __future__ import annotations

from typing import Any

from games.engine.banira.cards import (
    ACCEPTED_RARITIES,
    ALL_SLOTS_MASK,
    ELEMENTS,
    FLEX_SLOT,
    RARITIES,
    SLOT_COUNT,
    SLOT_LABELS,
    SLOTS,
)
from games.engine.banira.rules import (
    BOOST_POINTS,
    BOOST_SCORE_COST,
    BOOST_STAMINA,
    DISCARD_SCORE_COST,
    DRAW_SCORE_COST,
    affordability,
    empty_cost,
    placement,
    slot_cost,
    unlock_cost,
)
from games.engine.banira.state import HAND_LIMIT, BaniraState
from games.engine.core import Chance


def view(state: BaniraState, seat: int | None) -> dict[str, Any]:
    cards = state.setup.cards
    result = state.result
    running = result is None
    score = state.score
    held = state.hand[:HAND_LIMIT]
    last = state.last
    return {
        "game": "banira",
        "ply": state.ply,
        "seat": seat,
        "to_act": [0] if running else [],
        "status": "running" if result is None else result.reason,
        "points": state.points,
        "stamina": state.stamina,
        "score": score,
        "plays": state.plays,
        "unlocked_count": state.unlocked.bit_count(),
        "covered_count": state.covered,
        "unlock_cost": unlock_cost(state) if state.unlocked != ALL_SLOTS_MASK else None,
        "empty_cost": empty_cost(state),
        "field": [_slot(state, slot) for slot in range(SLOT_COUNT)],
        "hand": [cards[card].to_json() for card in held],
        "hand_limit": HAND_LIMIT,
        "overflow_count": state.overflow,
        "deck_count": len(state.deck),
        "discard": [cards[card].to_json() for card in state.discard],
        "unseen": [cards[card].to_json() for card in sorted(state.deck + state.hand[HAND_LIMIT:])],
        "costs": costs(state),
        "can_draw": running and bool(state.deck) and score >= DRAW_SCORE_COST,
        "can_discard": running and bool(held) and score >= DISCARD_SCORE_COST,
        "can_boost": running and score >= BOOST_SCORE_COST,
        "prices": {
            "draw": DRAW_SCORE_COST,
            "discard": DISCARD_SCORE_COST,
            "boost": BOOST_SCORE_COST,
            "boost_points": BOOST_POINTS,
            "boost_stamina": BOOST_STAMINA,
        },
        "last_play": (
            None if last is None else {"card": cards[last[0]].to_json(), "slot": SLOTS[last[1]]}
        ),
        "outcome": None if result is None else result.to_json(),
    }


def revealed_view(state: BaniraState) -> dict[str, Any]:
    """Everything face up (a finished run's replay): the overflow and the deck in draw order."""
    cards = state.setup.cards
    revealed = view(state, None)
    revealed["revealed"] = True
    revealed["hidden"] = [
        {
            "pile": "overflow",
            "seat": None,
            "order": "next first",
            "cards": [cards[card].id for card in state.hand[HAND_LIMIT:]],
        },
        {
            "pile": "deck",
            "seat": None,
            "order": "top first",
            "cards": [cards[c].id for c in state.deck],
        },
    ]
    return revealed


def _slot(state: BaniraState, slot: int) -> dict[str, Any]:
    cards = state.setup.cards
    stack = state.field[slot]
    is_unlocked = bool(state.unlocked >> slot & 1)
    top = cards[stack[-1]] if stack else None
    return {
        "slot": SLOTS[slot],
        "label": SLOT_LABELS[slot],
        "kind": "element" if slot < len(ELEMENTS) else ("flex" if slot == FLEX_SLOT else "type"),
        "row": 0 if slot < len(ELEMENTS) else 1,
        "unlocked": is_unlocked,
        "unlock_cost": None if is_unlocked else unlock_cost(state),
        "top": top.to_json() if top is not None else None,
        "depth": len(stack),
        "stack": [cards[card].id for card in stack],
        "cost": slot_cost(state, slot),
        "accepts": list(RARITIES if top is None else ACCEPTED_RARITIES[top.rarity]),
    }


def costs(state: BaniraState) -> dict[str, dict[str, dict[str, Any]]]:
    """For every held card and every slot: legal or not, the stamina cost, and why not."""
    cards = state.setup.cards
    running = state.result is None
    table: dict[str, dict[str, dict[str, Any]]] = {}
    for index in state.hand[:HAND_LIMIT]:
        card = cards[index]
        row: dict[str, dict[str, Any]] = {}
        for slot in range(SLOT_COUNT):
            cost, why = placement(state, card, slot)
            if cost is not None:
                why = affordability(state, card, cost) if running else "The run is over."
            row[SLOTS[slot]] = {"legal": why is None, "cost": cost, "reason": why}
        table[card.id] = row
    return table


def sample_hidden(state: BaniraState, seat: int, chance: Chance) -> BaniraState:
    """A run the player cannot tell from this one: the deck and the overflow redealt.

    The unseen cards are pooled in a canonical (sorted) order first, so the sample depends
    only on what the player knows, never on the real deck order.
    """
    held = state.hand[:HAND_LIMIT]
    overflow = len(state.hand) - len(held)
    pool = chance.shuffle(sorted(state.deck + state.hand[HAND_LIMIT:]))
    return state.replace(hand=held + tuple(pool[:overflow]), deck=tuple(pool[overflow:]))
