"""Dog Blade's rules: whose turn it is, the legal moves, checking and applying a move, and
how a match ends.

Decisions are in docs/rules/dogblade.md. Invariants:
- The only move is {"type": "attack"}, by the seat whose turn it is; turns always
  alternate, so the side whose monster just fell attacks next with its fresh monster
  (the "defender's advantage" of the rules).
- A monster at 0 HP or below is defeated and the next card enters at full HP; excess
  damage does not carry over.
- A side whose monster falls with nothing left to draw has run out of cards and loses.
  Only one monster falls per move, so there are no draws.
- `check` is the only gate: `apply` and `is_legal` both go through it.
- `apply` never mutates its input: it builds a new state, sharing the decks.
- Pure: imports the standard library, `games.engine.core` and this package's `state`.
"""

from __future__ import annotations

from collections.abc import Mapping

from games.engine.core import Event, IllegalMove, Move, Outcome, forfeit_two_player
from games.engine.dogblade.state import DogBladeState

ATTACK: Move = {"type": "attack"}


def to_act(state: DogBladeState) -> tuple[int, ...]:
    return () if state.winner is not None else (state.turn,)


def legal_moves(state: DogBladeState, seat: int) -> list[Move]:
    if state.winner is None and seat == state.turn:
        return [{"type": "attack"}]
    return []


def check(state: DogBladeState, seat: int, move: Move) -> None:
    """Nothing for a legal move; raises IllegalMove, with the reason, otherwise."""
    if state.winner is not None:
        raise IllegalMove("The match is over.")
    if seat != state.turn:
        raise IllegalMove("It is not your turn.")
    if not isinstance(move, Mapping) or move.get("type") != "attack":
        raise IllegalMove("In Dog Blade the only move is to attack.")


def is_legal(state: DogBladeState, seat: int, move: Move) -> bool:
    try:
        check(state, seat, move)
    except IllegalMove:
        return False
    return True


def apply(state: DogBladeState, seat: int, move: Move) -> tuple[DogBladeState, list[Event]]:
    check(state, seat, move)
    target = 1 - seat
    atk = state.active(seat)[0]
    left = state.hp[target] - atk
    events = [Event("attack", {"seat": seat, "target": target, "damage": atk, "hp": max(left, 0)})]
    drawn = state.drawn
    winner = None
    if left <= 0:
        events.append(
            Event("monster_defeated", {"seat": target, "card": list(state.active(target))})
        )
        if drawn[target] < len(state.decks[target]):
            card = state.decks[target][drawn[target]]
            left = card[1]
            drawn = (drawn[0] + 1, drawn[1]) if target == 0 else (drawn[0], drawn[1] + 1)
            events.append(Event("monster_drawn", {"seat": target, "card": list(card)}))
        else:
            left = 0
            winner = seat
            events.append(Event("out_of_cards", {"seat": target, "winner": seat}))
    hp = (left, state.hp[1]) if target == 0 else (state.hp[0], left)
    return DogBladeState(state.decks, drawn, hp, target, state.ply + 1, winner), events


def outcome(state: DogBladeState) -> Outcome | None:
    if state.winner is None:
        return None
    loser = 1 - state.winner
    return Outcome(
        winners=(state.winner,), ranking=((state.winner,), (loser,)), reason="out_of_cards"
    )


def forfeit(state: DogBladeState, seat: int, reason: str) -> Outcome:
    """Resigning or timing out: the other seat wins, whatever the position."""
    return forfeit_two_player(seat, reason)
