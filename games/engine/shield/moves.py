"""The bounded list of Shield's legal moves: every choice that matters, every count only when few.

Invariants:
- Every listed move passes `rules.check`, so `apply` accepts it; `apply` also accepts
  every legal count that is not listed (any boost, any gift, any committed boost).
- Sizes, for n seats still in the match and s stored cards held by the mover
  (docs/rules/shield.md, "The bounded list of legal moves"):
  setup at most 4; an action at most 2n (n + 1 + 3(n - 1) with the "before_draw" rule);
  a boost step at most 3; a giving step at most 2(n - 1) + 1. Never more than 30.
- Stored cards are never told apart (nobody knows their values), so only their number
  is ever a choice: 1 (one at a time, looking at the result) and all of them cover it.
"""

from __future__ import annotations

from games.engine.core import Move
from games.engine.shield.cards import NAMES
from games.engine.shield.rules import (
    ATTACK,
    BOOST_MOVE,
    CHANGE_SHIELD,
    CHOOSE_SHIELD,
    CONFIRM,
    END_TURN,
    GIVE_MOVE,
    RESOLVE,
    STORE,
)
from games.engine.shield.state import ACTION, AFTER_DRAW, BOOST, GIVE, SETUP, ShieldState

_STORE: Move = {"type": STORE}
_RESOLVE: Move = {"type": RESOLVE}
_END_TURN: Move = {"type": END_TURN}
_CONFIRM: Move = {"type": CONFIRM}


def legal_moves(state: ShieldState, seat: int) -> list[Move]:
    """The documented set for `seat` now; [] when it may not act. Fresh dicts every call."""
    step = state.step
    out = state.out
    if seat in out or not 0 <= seat < state.seats:
        return []
    if step == SETUP:
        return _setup_moves(state, seat)
    if seat != state.turn:
        return []  # includes the end of the match: `turn` is None then
    stored = len(state.stored[seat])
    if step == ACTION:
        living = [s for s in range(state.seats) if s not in out]
        moves: list[Move] = [{"type": CHANGE_SHIELD, "target": s} for s in living]
        moves.append(dict(_STORE))
        if state.rules.boost == AFTER_DRAW or not stored:
            moves += [{"type": ATTACK, "target": s} for s in living if s != seat]
        else:
            counts = sorted({0, 1, stored})
            moves += [
                {"type": ATTACK, "target": s, "boost": count}
                for s in living
                if s != seat
                for count in counts
            ]
        return moves
    if step == BOOST:
        moves = [dict(_RESOLVE), {"type": BOOST_MOVE, "count": 1}]
        if stored > 1:
            moves.append({"type": BOOST_MOVE, "count": stored})
        return moves
    if step == GIVE:
        moves = [dict(_END_TURN)]
        for s in range(state.seats):
            if s != seat and s not in out:
                moves.append({"type": GIVE_MOVE, "target": s, "count": 1})
                if stored > 1:
                    moves.append({"type": GIVE_MOVE, "target": s, "count": stored})
        return moves
    return []


def _setup_moves(state: ShieldState, seat: int) -> list[Move]:
    if state.confirmed[seat]:
        return []
    pick = state.picks[seat]
    moves: list[Move] = [
        {"type": CHOOSE_SHIELD, "card": NAMES[card]} for card in state.dealt[seat] if card != pick
    ]
    if pick is not None:
        moves.append(dict(_CONFIRM))
    return moves
