"""Shield's rules: the move vocabulary, whose move it is, and checking a move.

Applying a move is in `actions`, the legal-move list in `moves`. Decisions are in
docs/rules/shield.md; the vocabulary is in docs/move-log.md. Invariants:
- `check` is the only gate: `apply` and `is_legal` both go through it, so they agree on
  every move, including counts that `legal_moves` does not list. It returns the move
  normalised, or raises `IllegalMove` with a message for the player.
- Setup: every seat still in the match that has not confirmed may act, in any order.
  Play: exactly the seat whose turn it is, with the moves of the turn's step.
- A forfeit ({"type": "forfeit", "reason": "resign" | "timeout"}) is accepted from any
  seat still in the match, at any time, out of turn.
"""

from __future__ import annotations

from collections.abc import Mapping

from games.engine.core import IllegalMove, Move
from games.engine.shield.cards import NAMES, parse_one
from games.engine.shield.state import ACTION, AFTER_DRAW, BOOST, GIVE, OVER, SETUP, ShieldState

CHOOSE_SHIELD = "choose_shield"
CONFIRM = "confirm"
CHANGE_SHIELD = "change_shield"
STORE = "store"
ATTACK = "attack"
BOOST_MOVE = "boost"
RESOLVE = "resolve"
GIVE_MOVE = "give"
END_TURN = "end_turn"
FORFEIT = "forfeit"
FORFEIT_REASONS = ("resign", "timeout")

FIELDS: dict[str, tuple[str, ...]] = {
    CHOOSE_SHIELD: ("card",),
    CONFIRM: (),
    CHANGE_SHIELD: ("target",),
    STORE: (),
    ATTACK: ("target", "boost"),
    BOOST_MOVE: ("count",),
    RESOLVE: (),
    GIVE_MOVE: ("target", "count"),
    END_TURN: (),
    FORFEIT: ("reason",),
}
STEP_MOVES: dict[str, tuple[str, ...]] = {
    SETUP: (CHOOSE_SHIELD, CONFIRM),
    ACTION: (CHANGE_SHIELD, STORE, ATTACK),
    BOOST: (BOOST_MOVE, RESOLVE),
    GIVE: (GIVE_MOVE, END_TURN),
}
WRONG_STEP: dict[str, str] = {
    SETUP: "The match starts once every player has confirmed a shield: "
    "choose your shield, then confirm.",
    ACTION: "Choose your action first: change a shield, store a card or attack.",
    BOOST: "Your attack is drawn: add stored cards to it (boost) or resolve it.",
    GIVE: "Your action is done: give stored cards away or end your turn.",
}
MOVE_HELP = (
    'Shield moves: {"type": "choose_shield", "card": "KS"}, {"type": "confirm"}, '
    '{"type": "change_shield", "target": 1}, {"type": "store"}, {"type": "attack", '
    '"target": 1}, {"type": "boost", "count": 1}, {"type": "resolve"}, {"type": "give", '
    '"target": 1, "count": 1}, {"type": "end_turn"}.'
)

Checked = tuple[str, int, int]  # (move type, target or card or -1, count or -1)


# --- checking ---------------------------------------------------------------------------------


def to_act(state: ShieldState) -> tuple[int, ...]:
    step = state.step
    if step == SETUP:
        out, confirmed = state.out, state.confirmed
        return tuple(s for s in range(state.seats) if not confirmed[s] and s not in out)
    if step == OVER:
        return ()
    return (state.turn,)  # type: ignore[return-value]


def check(state: ShieldState, seat: int, move: Move) -> Checked:
    """The move, normalised, if it is legal; raises IllegalMove otherwise."""
    if state.result is not None:
        raise IllegalMove("The match is over.")
    if type(move) is not dict and not isinstance(move, Mapping):  # (the ABC check is slow)
        raise IllegalMove(MOVE_HELP)
    kind = move.get("type")
    fields = FIELDS.get(kind) if isinstance(kind, str) else None
    if fields is None:
        raise IllegalMove(MOVE_HELP)
    if type(seat) is not int or not 0 <= seat < state.seats:
        raise IllegalMove("There is no such seat in this match.")
    if seat in state.out:
        raise IllegalMove("You are out of the match.")
    for key in move:
        if key != "type" and key not in fields:
            raise IllegalMove(f"A Shield “{kind}” move has no “{key}”. {MOVE_HELP}")
    if kind == FORFEIT:
        if move.get("reason") not in FORFEIT_REASONS:
            raise IllegalMove('A forfeit\'s "reason" is "resign" or "timeout".')
        return FORFEIT, -1, -1
    step = state.step
    if step == SETUP:
        return _check_setup(state, seat, kind, move)
    if kind in STEP_MOVES[SETUP]:
        raise IllegalMove("The setup is over: every shield is confirmed.")
    if seat != state.turn:
        raise IllegalMove("It is not your turn.")
    if kind not in STEP_MOVES[step]:
        raise IllegalMove(WRONG_STEP[step])
    return _check_play(state, seat, kind, move)


def _check_setup(state: ShieldState, seat: int, kind: str, move: Move) -> Checked:
    if kind not in STEP_MOVES[SETUP]:
        raise IllegalMove(WRONG_STEP[SETUP])
    if state.confirmed[seat]:
        raise IllegalMove("You have confirmed your shield: wait for the other players.")
    if kind == CONFIRM:
        if state.picks[seat] is None:
            raise IllegalMove("Choose your shield before you confirm.")
        return CONFIRM, -1, -1
    card = parse_one(move.get("card"))
    if isinstance(card, str):
        raise IllegalMove(f'Say which card is your shield, e.g. {{"card": "KS"}}. {card}')
    if card not in state.dealt[seat]:
        raise IllegalMove(f"{NAMES[card]} is not one of your four cards.")
    return CHOOSE_SHIELD, card, -1


def _check_play(state: ShieldState, seat: int, kind: str, move: Move) -> Checked:
    stored = len(state.stored[seat])
    if kind in (STORE, RESOLVE, END_TURN):
        return kind, -1, -1
    if kind == BOOST_MOVE:
        return kind, -1, _count(move, stored, "add to your attack")
    target = _target(state, seat, kind, move)
    if kind == CHANGE_SHIELD:
        return kind, target, -1
    if kind == GIVE_MOVE:
        return kind, target, _count(move, stored, "give")
    if "boost" not in move:
        return kind, target, 0
    if state.rules.boost == AFTER_DRAW:
        raise IllegalMove(
            "In this match stored cards join an attack after its draw: attack, then boost."
        )
    count = move["boost"]
    if type(count) is not int or count < 0:
        raise IllegalMove('An attack\'s "boost" is how many stored cards to add: 0 or more.')
    if count > stored:
        raise IllegalMove(_too_many(count, stored))
    return kind, target, count


def _target(state: ShieldState, seat: int, kind: str, move: Move) -> int:
    target = move.get("target")
    if type(target) is not int:
        raise IllegalMove(f'Say which player: {{"type": "{kind}", "target": <seat>}}.')
    if not 0 <= target < state.seats:
        raise IllegalMove(f"There is no player in seat {target}.")
    if target in state.out:
        raise IllegalMove("That player is out of the match.")
    if target == seat and kind == ATTACK:
        raise IllegalMove("You cannot attack yourself.")
    if target == seat and kind == GIVE_MOVE:
        raise IllegalMove("You cannot give cards to yourself: cards you do not give, you keep.")
    return target


def _count(move: Move, stored: int, what: str) -> int:
    count = move.get("count")
    if type(count) is not int or count < 1:
        raise IllegalMove(f'Say how many stored cards to {what}: "count" is 1 or more.')
    if count > stored:
        raise IllegalMove(_too_many(count, stored))
    return count


def _too_many(count: int, stored: int) -> str:
    held = "no stored cards" if not stored else f"{stored} stored card{'s' * (stored > 1)}"
    return f"You have {held}, not {count}."
