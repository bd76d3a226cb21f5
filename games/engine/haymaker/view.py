"""What each seat may know of a Haymaker position, and positions consistent with it.

Invariants:
- A seat sees its own hand; of the other hand only how many cards it holds and which of
  them it knows from a hit ("revealed"); never the draw pile's order, the burned cards,
  the seed or the chance stream. A spectator (seat None) sees no card of any hand and not
  which cards a hit took.
- Discard piles and the attack on the table are face up: everyone sees them.
- `sample_hidden` redraws everything `seat` cannot see from the cards it has not seen,
  and gives the sample a fresh seed, so future hits are not the real ones either. It
  lives here, beside the view: it redraws exactly what the view hides.
- The view is fresh JSON-able data: nothing in it is shared with the state.
- Pure: imports the standard library, `games.engine.core` and this package's `cards`,
  `state` and `rules`.

The view, as JSON (a board is written against it):

    {
      "game": "haymaker",
      "ply": 7,                        # moves made so far
      "turn": 4,                       # turns started so far, from 1
      "seat": 0,                       # the viewer; null for a spectator
      "to_act": [1],                   # the one seat to move now; [] once the match is over
      "step": "defend",                # "attack" | "defend" | "over"
      "attacker": 0, "defender": 1,
      "my_role": "attacker",           # "attacker" | "defender" | null (spectator)
      "hand": ["AC", "7H", "10S"],     # my cards by suit (C, D, H, S), then rank; null for
                                       #   a spectator
      "players": [                     # by seat
        {"seat": 0, "role": "attacker", "hand_count": 3,
         "revealed": ["7H"],           # cards of this hand both players know (taken in a hit);
                                       #   [] for a spectator
         "discard": ["5C", "6C"], "discard_count": 2},
        {"seat": 1, ...}
      ],
      "deck_count": 12, "burned_count": 4,
      "attack": {"cards": ["9D"], "strength": 9, "is_haymaker": false, "seat": 0} or null,
      "block_needed": 9,               # the attack strength, in the defender's own view while
                                       #   they must answer; else null
      "can_pass": false,               # the attacker may pass (they attacked last turn)
      "last_turn": {                   # the previous turn, or null before the first ends
        "turn": 3, "attacker": 0, "action": "attack" | "haymaker" | "pass",
        "attack": ["4S"], "strength": 4,
        "response": "block" | "take_hit" | null (after a pass),
        "block": ["2H", "3H"], "block_strength": 5, "is_reversal": false,
        "taken": ["8D"],               # the cards a hit took; only in the two players' views
        "taken_count": 1,
        "drawn": [0, 0]                # cards each seat drew at the end of that turn
      },
      "options": {"discards": "together"},
      "outcome": null or {"winners": [0], "ranking": [[0], [1]], "reason": "knockout",
                          "scores": null}  # scores: discard counts for a decision or draw
    }
"""

from __future__ import annotations

from typing import Any

from games.engine.core import Chance
from games.engine.haymaker.cards import ALL_CARDS, BIT, from_mask, mask, names, strength
from games.engine.haymaker.rules import acting_seat
from games.engine.haymaker.state import HaymakerState


def view(state: HaymakerState, seat: int | None) -> dict[str, Any]:
    is_player = seat in (0, 1)
    acting = acting_seat(state)
    attacker, defender = state.attacker, 1 - state.attacker
    table = state.table
    step = "over" if state.result is not None else ("defend" if table else "attack")
    last = state.last
    if last is not None:  # a copy: the state's own dict must never be handed out
        last = {
            key: list(value) if isinstance(value, list) else value
            for key, value in last.items()
            if is_player or key != "taken"
        }
    return {
        "game": "haymaker",
        "ply": state.ply,
        "turn": state.turn,
        "seat": seat,
        "to_act": [] if acting is None else [acting],
        "step": step,
        "attacker": attacker,
        "defender": defender,
        "my_role": None if not is_player else ("attacker" if seat == attacker else "defender"),
        # `is_player` says `seat` is 0 or 1, which mypy cannot follow through a name.
        "hand": names(state.hands[seat]) if is_player else None,  # type: ignore[index]
        "players": [_player(state, side, is_player) for side in (0, 1)],
        "deck_count": len(state.deck),
        "burned_count": len(state.burned),
        "attack": _attack(state) if table else None,
        "block_needed": strength(table) if table and acting == seat == defender else None,
        "can_pass": state.result is None and not table and state.attacked_last,
        "last_turn": last,
        "options": {"discards": state.discard_rule},
        "outcome": state.result.to_json() if state.result is not None else None,
    }


def revealed_view(state: HaymakerState) -> dict[str, Any]:
    """Everything face up (a finished match's replay): both hands (as "revealed" cards, so
    the board draws them face up), the cards a hit took, the draw pile and the burned cards."""
    revealed = view(state, None)
    for player in revealed["players"]:
        player["revealed"] = names(state.hands[player["seat"]])
    if state.last is not None:
        revealed["last_turn"] = view(state, 0)["last_turn"]
    revealed["revealed"] = True
    revealed["hidden"] = [
        {"pile": "draw pile", "seat": None, "order": "top first", "cards": names(state.deck)},
        {"pile": "burned cards", "seat": None, "order": "", "cards": names(state.burned)},
    ]
    return revealed


def _player(state: HaymakerState, side: int, is_player: bool) -> dict[str, Any]:
    discard = state.discards[side]
    return {
        "seat": side,
        "role": "attacker" if side == state.attacker else "defender",
        "hand_count": len(state.hands[side]),
        "revealed": names(from_mask(state.revealed[side])) if is_player else [],
        "discard": names(discard),
        "discard_count": len(discard),
    }


def _attack(state: HaymakerState) -> dict[str, Any]:
    table = state.table
    return {
        "cards": names(table),
        "strength": strength(table),
        "is_haymaker": len(table) > 1,
        "seat": state.attacker,
    }


def sample_hidden(state: HaymakerState, seat: int, chance: Chance) -> HaymakerState:
    """A full position `seat` cannot tell from this one, the rest drawn at random.

    The opponent's unrevealed cards, the draw pile and the burned cards are dealt afresh
    from the cards `seat` has not seen; the seed of future hits is redrawn too.
    """
    other = 1 - seat
    seen = (
        mask(state.hands[seat])
        | state.revealed[other]
        | mask(state.discards[0])
        | mask(state.discards[1])
        | mask(state.table)
    )
    unseen = chance.shuffle([card for card in ALL_CARDS if not seen & BIT[card]])
    hidden_in_hand = len(state.hands[other]) - bin(state.revealed[other]).count("1")
    other_hand = tuple(sorted(from_mask(state.revealed[other]) + tuple(unseen[:hidden_in_hand])))
    deck_end = hidden_in_hand + len(state.deck)
    hands = (state.hands[0], other_hand) if seat == 0 else (other_hand, state.hands[1])
    return state.replace(
        hands=hands,
        deck=tuple(unseen[hidden_in_hand:deck_end]),
        burned=tuple(unseen[deck_end:]),
        seed=bytes(chance.randbelow(256) for _ in range(32)),
    )
