"""Grimhand Tactics rules: whose turn it is, which moves are legal, what a move does, and
how a match ends.

Decisions are in docs/rules/grimhand.md. Invariants:
- A turn is one action by the seat whose turn it is: draw from the attack or the defense
  deck, or attack (with at least one attack card). A seat that can do neither passes;
  nothing else is ever legal. Turns alternate after every action.
- `check` is the only gate: `apply` and `is_legal` both go through it, and
  `legal_moves` lists exactly the moves it accepts.
- Every card always returns to the discard pile of the deck it came from.
- After every action that leaves the match running, each empty deck whose discard pile
  holds cards takes that pile back, shuffled by `Chance(seed, f"grimhand/reshuffle/{n}")`,
  n counting the match's reshuffles (attack deck first): no chance counter is stored.
- HP never rises. The match ends when a seat's HP reaches 0 or it draws an unsaved Death
  card; exactly one seat wins, and the state records who and why.
- `apply` never mutates its input. The common plain draw (most moves) is built straight
  from the input state; every other move works on a `_Table`, a mutable copy of the few
  fields a move may touch, frozen into the new state at the end.
- Pure: imports the standard library, `games.engine.core` and this package's `state`.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Mapping

from games.engine.core import Chance, Event, IllegalMove, Move, Outcome, forfeit_two_player
from games.engine.grimhand.state import (
    ATTACK,
    DEATH,
    DECK_INDEX,
    DECKS,
    DEFENSE,
    HAND_LIMIT,
    HP_PENALTY,
    LUCKY,
    GrimhandState,
    Hand,
)

EMPTY_DECK = "That deck and its discard pile are both empty."
# What `check` returns: a deck index (draw from it), or one of these.
_ATTACK = 2
_PASS = 3


class _Table:
    """The fields of a state that one move may change, mutable while the move resolves."""

    __slots__ = ("decks", "discards", "hands", "lucky", "hp", "reshuffles", "winner", "reason")

    def __init__(self, state: GrimhandState) -> None:
        self.decks = list(state.decks)
        self.discards = list(state.discards)
        self.hands = [list(state.hands[0]), list(state.hands[1])]
        self.lucky = list(state.lucky)
        self.hp = list(state.hp)
        self.reshuffles = state.reshuffles
        self.winner: int | None = None
        self.reason: str | None = None

    def end(self, winner: int, reason: str) -> None:
        self.winner = winner
        self.reason = reason

    def lose_hp(self, seat: int, amount: int) -> int:
        """Take `amount` HP from `seat` (never below 0; the seat loses at 0)."""
        hp = self.hp[seat] - amount
        if hp <= 0:
            hp = 0
            self.end(1 - seat, "hp")
        self.hp[seat] = hp
        return hp


def _draw(table: _Table, state: GrimhandState, seat: int, kind: int, events: list[Event]) -> None:
    deck = table.decks[kind]
    value = deck[0]
    table.decks[kind] = deck[1:]
    name = DECKS[kind]
    events.append(Event("draw", {"seat": seat, "deck": name}))
    if value == DEATH:
        _death_card(table, seat, kind, events)
    elif value == LUCKY and table.lucky[seat] is None:
        table.lucky[seat] = kind
        events.append(Event("lucky_slotted", {"seat": seat, "deck": name}))
    elif len(table.hands[seat][kind]) < HAND_LIMIT:
        table.hands[seat][kind] = _with(table.hands[seat][kind], value)
        events.append(Event("card_to_hand", {"seat": seat, "deck": name, "value": value}, (seat,)))
    else:
        _overdraw(table, state.setup.overdraw, seat, kind, value, events)


def _plain_draw(
    state: GrimhandState, seat: int, kind: int
) -> tuple[GrimhandState, list[Event]] | None:
    """The common draw (most moves), built straight from `state`; None for any other draw.

    A plain card (neither a 7 nor a 13) goes into a hand with room, and the deck does not
    run out: nothing else changes. Any other draw goes through `_Table` and `_draw`.
    """
    deck = state.decks[kind]
    value = deck[0]
    hand = state.hands[seat][kind]
    if value in (DEATH, LUCKY) or len(hand) >= HAND_LIMIT or len(deck) == 1:
        return None
    hands = list(state.hands)
    pair = list(hands[seat])
    pair[kind] = _with(hand, value)
    hands[seat] = (pair[0], pair[1])
    decks = (deck[1:], state.decks[1]) if kind == ATTACK else (state.decks[0], deck[1:])
    name = DECKS[kind]
    events = [
        Event("draw", {"seat": seat, "deck": name}),
        Event("card_to_hand", {"seat": seat, "deck": name, "value": value}, (seat,)),
    ]
    following = GrimhandState(
        state.setup,
        decks,
        state.discards,
        (hands[0], hands[1]),
        state.lucky,
        state.hp,
        1 - seat,
        state.ply + 1,
        state.reshuffles,
    )
    return following, events


def _with(hand: Hand, value: int) -> Hand:
    cards = list(hand)
    insort(cards, value)
    return tuple(cards)


def _death_card(table: _Table, seat: int, kind: int, events: list[Event]) -> None:
    events.append(Event("death_card", {"seat": seat, "deck": DECKS[kind]}))
    table.discards[kind] += (DEATH,)
    slot = table.lucky[seat]
    if slot is None:
        events.append(Event("death", {"seat": seat}))
        table.end(1 - seat, "death_card")
        return
    table.discards[slot] += (LUCKY,)
    table.lucky[seat] = None
    events.append(Event("lucky_saved", {"seat": seat}))


def _overdraw(
    table: _Table, rule: str, seat: int, kind: int, value: int, events: list[Event]
) -> None:
    """A draw into a full hand (13 cards), by the match's overdraw rule."""
    name = DECKS[kind]
    if rule == "hp_penalty":
        table.discards[kind] += (value,)
        events.append(
            Event(
                "card_discarded", {"seat": seat, "deck": name, "value": value, "reason": "overdraw"}
            )
        )
        hp = table.lose_hp(seat, HP_PENALTY)
        events.append(Event("hp_penalty", {"seat": seat, "amount": HP_PENALTY, "hp": hp}))
        return
    hand = _with(table.hands[seat][kind], value)
    events.append(Event("card_to_hand", {"seat": seat, "deck": name, "value": value}, (seat,)))
    if rule == "discard_lowest":
        table.hands[seat][kind] = hand[1:]
        table.discards[kind] += hand[:1]
        events.append(
            Event(
                "card_discarded",
                {"seat": seat, "deck": name, "value": hand[0], "reason": "overdraw"},
            )
        )
    else:  # "flush", the documented rule
        table.hands[seat][kind] = ()
        table.discards[kind] += hand
        events.append(Event("hand_flushed", {"seat": seat, "deck": name, "values": list(hand)}))


def _attack(table: _Table, seat: int, events: list[Event]) -> None:
    target = 1 - seat
    attack = table.hands[seat][ATTACK]
    defense = table.hands[target][DEFENSE]
    attack_total = sum(attack)
    defense_total = sum(defense)
    damage = attack_total - defense_total if attack_total > defense_total else 0
    hp = table.lose_hp(target, damage) if damage else table.hp[target]
    events.append(
        Event(
            "attack",
            {
                "seat": seat,
                "target": target,
                "attack": list(attack),
                "defense": list(defense),
                "attack_total": attack_total,
                "defense_total": defense_total,
                "damage": damage,
                "hp": hp,
            },
        )
    )
    if defense_total:
        blocked = min(attack_total, defense_total)
        events.append(Event("blocked", {"seat": target, "amount": blocked}))
    table.discards[ATTACK] += attack
    table.discards[DEFENSE] += defense
    table.hands[seat][ATTACK] = ()
    table.hands[target][DEFENSE] = ()


def _refresh(table: _Table, seed: bytes, events: list[Event]) -> None:
    """Turn each spent deck's discard pile, shuffled, into its new deck."""
    for kind in (ATTACK, DEFENSE):
        if not table.decks[kind] and table.discards[kind]:
            chance = Chance(seed, f"grimhand/reshuffle/{table.reshuffles}")
            table.decks[kind] = tuple(chance.shuffle(table.discards[kind]))
            table.discards[kind] = ()
            table.reshuffles += 1
            events.append(
                Event("reshuffled", {"deck": DECKS[kind], "count": len(table.decks[kind])})
            )


def to_act(state: GrimhandState) -> tuple[int, ...]:
    return () if state.winner is not None else (state.turn,)


def legal_moves(state: GrimhandState, seat: int) -> list[Move]:
    if state.winner is not None or seat != state.turn:
        return []
    moves: list[Move] = []
    if state.decks[ATTACK]:
        moves.append({"type": "draw", "deck": "attack"})
    if state.decks[DEFENSE]:
        moves.append({"type": "draw", "deck": "defense"})
    if state.hands[seat][ATTACK]:
        moves.append({"type": "attack"})
    return moves or [{"type": "pass"}]


def is_legal(state: GrimhandState, seat: int, move: Move) -> bool:
    try:
        check(state, seat, move)
    except IllegalMove:
        return False
    return True


def check(state: GrimhandState, seat: int, move: Move) -> int:
    """Which action `move` is (a deck index to draw from, `_ATTACK` or `_PASS`), or
    IllegalMove with the reason it is not allowed."""
    if state.winner is not None:
        raise IllegalMove("The match is over.")
    if seat != state.turn:
        raise IllegalMove("It is not your turn.")
    kind = move.get("type") if type(move) is dict or isinstance(move, Mapping) else None
    if kind == "draw":
        deck = move.get("deck")
        index = DECK_INDEX.get(deck) if isinstance(deck, str) else None
        if index is None:
            raise IllegalMove("Draw from the attack or the defense deck.")
        if not state.decks[index]:
            raise IllegalMove(EMPTY_DECK)
        return index
    if kind == "attack":
        if not state.hands[seat][ATTACK]:
            raise IllegalMove("You have no attack cards to attack with.")
        return _ATTACK
    if kind == "pass":
        if state.decks[ATTACK] or state.decks[DEFENSE] or state.hands[seat][ATTACK]:
            raise IllegalMove("You may only pass when you can neither draw nor attack.")
        return _PASS
    raise IllegalMove("Draw a card or attack.")


def apply(state: GrimhandState, seat: int, move: Move) -> tuple[GrimhandState, list[Event]]:
    action = check(state, seat, move)
    events: list[Event] = []
    if action == _PASS:
        events.append(Event("pass", {"seat": seat}))
        return state.replace(turn=1 - seat, ply=state.ply + 1), events
    if action != _ATTACK:
        plain = _plain_draw(state, seat, action)
        if plain is not None:
            return plain
    table = _Table(state)
    if action == _ATTACK:
        _attack(table, seat, events)
    else:
        _draw(table, state, seat, action, events)
    if table.winner is None:
        _refresh(table, state.setup.seed, events)
    hands = table.hands
    return GrimhandState(
        state.setup,
        (table.decks[0], table.decks[1]),
        (table.discards[0], table.discards[1]),
        ((hands[0][0], hands[0][1]), (hands[1][0], hands[1][1])),
        (table.lucky[0], table.lucky[1]),
        (table.hp[0], table.hp[1]),
        1 - seat,
        state.ply + 1,
        table.reshuffles,
        table.winner,
        table.reason,
    ), events


def outcome(state: GrimhandState) -> Outcome | None:
    if state.winner is None:
        return None
    loser = 1 - state.winner
    return Outcome(
        winners=(state.winner,), ranking=((state.winner,), (loser,)), reason=state.reason or ""
    )


def forfeit(state: GrimhandState, seat: int, reason: str) -> Outcome:
    """Resigning or timing out: the other seat wins, whatever the position."""
    return forfeit_two_player(seat, reason)
