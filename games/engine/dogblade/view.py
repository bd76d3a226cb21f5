"""What each seat may know of a Dog Blade position, and positions consistent with it.

Invariants:
- Undrawn cards are hidden from both seats (nobody knows the order or stats of a
  face-down deck, not even its owner); active and defeated monsters are public, so a
  spectator (seat None) sees what the players see.
- The view is fresh JSON-able data: nothing in it is shared with the state.
- `sample_hidden` redraws every undrawn card from the deck distribution, which is exact:
  an undrawn card is just a fresh random card (docs/rules/dogblade.md).
- Pure: imports the standard library, `games.engine.core` and this package's `state`
  and `rules`.

The view, as JSON (a board is written against it):

    {
      "game": "dogblade",
      "ply": 12,                       # moves made so far
      "seat": 0,                       # the viewer; null for a spectator
      "to_act": [1],                   # the seat to attack next; [] once the match is over
      "sides": [                       # by seat
        {"seat": 0,
         "active": {"atk": 40, "hp": 30, "max_hp": 90} or null,   # null once out of cards
         "deck_count": 17,             # cards still face down
         "cards_left": 18,             # face-down cards and the active monster
         "defeated": [[50, 60], ...]}, # defeated monsters [atk, hp], in the order they fell
        {"seat": 1, ...}
      ],
      "outcome": null or {"winners": [0], "ranking": [[0], [1]], "reason": "out_of_cards",
                          "scores": null}
    }
"""

from __future__ import annotations

from typing import Any

from games.engine.core import Chance
from games.engine.dogblade.rules import outcome, to_act
from games.engine.dogblade.state import DogBladeState, random_card


def view(state: DogBladeState, seat: int | None) -> dict[str, Any]:
    result = outcome(state)
    return {
        "game": "dogblade",
        "ply": state.ply,
        "seat": seat,
        "to_act": list(to_act(state)),
        "sides": [_side_view(state, side) for side in (0, 1)],
        "outcome": result.to_json() if result else None,
    }


def revealed_view(state: DogBladeState) -> dict[str, Any]:
    """The spectator view and every undrawn card, in the order it would enter play."""
    hidden = [
        {
            "pile": "deck",
            "seat": side,
            "order": "next first",
            "cards": [list(card) for card in state.decks[side][state.drawn[side] :]],
        }
        for side in (0, 1)
    ]
    return {**view(state, None), "revealed": True, "hidden": hidden}


def _side_view(state: DogBladeState, side: int) -> dict[str, Any]:
    drawn = state.drawn[side]
    is_out = state.winner is not None and state.winner != side
    atk, max_hp = state.active(side)
    defeated = state.decks[side][: drawn if is_out else drawn - 1]
    return {
        "seat": side,
        "active": None if is_out else {"atk": atk, "hp": state.hp[side], "max_hp": max_hp},
        "deck_count": len(state.decks[side]) - drawn,
        "cards_left": len(state.decks[side]) - drawn + (0 if is_out else 1),
        "defeated": [list(card) for card in defeated],
    }


def sample_hidden(state: DogBladeState, seat: int, chance: Chance) -> DogBladeState:
    """Redraw every undrawn card (hidden from both seats) from the deck distribution."""
    first, second = (
        deck[: state.drawn[side]] + tuple(random_card(chance) for _ in deck[state.drawn[side] :])
        for side, deck in enumerate(state.decks)
    )
    return DogBladeState(
        (first, second), state.drawn, state.hp, state.turn, state.ply, state.winner
    )
