"""Shield's rules: the move vocabulary, whose move it is, the legal moves, checking and
applying a move, who starts, and how a match ends.

Decisions are in docs/rules/shield.md; the vocabulary is in docs/move-log.md. Invariants:
- `check` is the only gate: `apply` and `is_legal` both go through it, so they agree on
  every move, including counts that `legal_moves` does not list. It returns the move
  normalised, or raises `IllegalMove` with a message for the player.
- Setup: every seat still in the match that has not confirmed may act, in any order. A
  pick ("shield_chosen") is an event for its own seat only. The last confirmation starts
  the play: every layout is revealed and the lowest HP starts (`first_player`).
- Play: exactly the seat whose turn it is, with the moves of the turn's step. A turn is
  an action (change a shield, store, attack), then, while the attack waits for stored
  cards, boosts or a resolve, then, while the actor holds stored cards, gifts or the end
  of the turn. Steps with no choice are played by the engine at once: an attack by a
  player without stored cards resolves on the draw, a boost that uses the last stored
  card resolves, and a turn with no stored card to give ends by itself.
- A forfeit ({"type": "forfeit", "reason": "resign" | "timeout"}) is accepted from any
  seat still in the match, at any time, out of turn.
- `legal_moves` is a bounded list: every choice that matters, every count only when few.
  For n seats still in the match and s stored cards held by the mover
  (docs/rules/shield.md, "The bounded list of legal moves"): setup at most 4; an action
  at most 2n (n + 1 + 3(n - 1) with the "before_draw" rule); a boost step at most 3; a
  giving step at most 2(n - 1) + 1; never more than 30. Stored cards are never told
  apart (nobody knows their values), so only their number is ever a choice: 1 (one at a
  time, looking at the result) and all of them cover it. Every listed move passes
  `check`; `apply` also accepts every legal count that is not listed.
- Every draw takes the top of the draw pile; an empty pile is first refilled by
  shuffling the discard pile (`Chance(seed, "shield/reshuffle/<n>")`), or, if that is
  empty too, every stored card (docs/rules/shield.md, "Running out of cards").
- A stored card's value appears in no event until it leaves its pile face up (a boost,
  or the discard of a hit or departing player's stored cards). A drawn card that is
  stored appears in no event at all.
- `apply` never mutates its input: it checks the move, then fills in one fresh copy of
  the state (`ShieldState.copy`); every helper here changes that copy only.
- Pure: imports the standard library, `games.engine.core` and this package's `cards`
  and `state`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.core import Chance, Event, IllegalMove, Move, Outcome
from games.engine.shield.cards import NAMES, VALUE, names, parse_one, total
from games.engine.shield.state import (
    ACTION,
    AFTER_DRAW,
    BOOST,
    GIVE,
    OVER,
    SETUP,
    TIE_SHIELD,
    Cards,
    Rules,
    ShieldState,
)

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


_NO_RECORD: dict[str, Any] = {
    "seat": None,
    "action": None,
    "target": None,
    "card": None,
    "old_shield": None,
    "boost": [],
    "power": None,
    "shield": None,
    "result": None,
    "damage": 0,
    "hp": None,
    "stored_discarded": [],
    "is_out": False,
}


_STORE: Move = {"type": STORE}
_RESOLVE: Move = {"type": RESOLVE}
_END_TURN: Move = {"type": END_TURN}
_CONFIRM: Move = {"type": CONFIRM}


# --- whose turn it is, and checking -------------------------------------------------------


def to_act(state: ShieldState) -> tuple[int, ...]:
    step = state.step
    if step == SETUP:
        out, confirmed = state.out, state.confirmed
        return tuple(s for s in range(state.seats) if not confirmed[s] and s not in out)
    if step == OVER:
        return ()
    return (state.turn,)  # type: ignore[return-value]  # `turn` is set in every other step


def check(state: ShieldState, seat: int, move: Move) -> Checked:
    """The move, normalised, if it is legal; raises IllegalMove otherwise."""
    if state.result is not None:
        raise IllegalMove("The match is over.")
    if type(move) is not dict and not isinstance(move, Mapping):  # (the ABC check is slow)
        raise IllegalMove(MOVE_HELP)
    kind = move.get("type")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise IllegalMove(MOVE_HELP)
    fields = FIELDS[kind]
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


def is_legal(state: ShieldState, seat: int, move: Move) -> bool:
    try:
        check(state, seat, move)
    except IllegalMove:
        return False
    return True


# --- the legal moves ----------------------------------------------------------------------


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


# --- applying -----------------------------------------------------------------------------


def apply(state: ShieldState, seat: int, move: Move) -> tuple[ShieldState, list[Event]]:
    kind, arg, count = check(state, seat, move)
    table = state.copy()
    table.ply += 1
    events: list[Event] = []
    if kind == ATTACK:
        _attack(table, seat, arg, count, events)
    elif kind == CHANGE_SHIELD:
        _change_shield(table, seat, arg, events)
    elif kind == STORE:
        _store(table, seat, events)
    elif kind == GIVE_MOVE:
        _give(table, seat, arg, count, events)
    elif kind == END_TURN:
        _next_turn(table, events)
    elif kind == BOOST_MOVE:
        _boost(table, seat, count, events)
    elif kind == RESOLVE:
        target, cards = table.attack  # type: ignore[misc]  # set in the boost step (`check`)
        table.attack = None
        _resolve(table, seat, target, cards, events)
    elif kind == CHOOSE_SHIELD:
        table.picks = _put(table.picks, seat, arg)
        events.append(Event("shield_chosen", {"seat": seat, "card": NAMES[arg]}, (seat,)))
    elif kind == CONFIRM:
        _confirm(table, seat, events)
    else:
        _forfeit(table, seat, move["reason"], events)
    return table, events


def _put(items: tuple[Any, ...], seat: int, value: Any) -> tuple[Any, ...]:
    return items[:seat] + (value,) + items[seat + 1 :]


# --- applying: the setup, and who starts --------------------------------------------------


def _confirm(table: ShieldState, seat: int, events: list[Event]) -> None:
    table.confirmed = _put(table.confirmed, seat, True)
    events.append(Event("confirmed", {"seat": seat}))
    if not to_act(table):
        _start_play(table, events)


def _start_play(table: ShieldState, events: list[Event]) -> None:
    """Every seat has confirmed: lay the shields and HP cards face up; the lowest HP starts."""
    seats = table.seats
    shields = tuple(None if s in table.out else table.picks[s] for s in range(seats))
    rows = tuple(tuple(card for card in table.dealt[s] if card != shields[s]) for s in range(seats))
    hp = tuple(total(row) for row in rows)
    first = first_player(table.rules, table.seed, shields, hp)
    layouts = [
        {"seat": s, "shield": NAMES[shield], "hp_cards": names(rows[s]), "hp": hp[s]}
        for s, shield in enumerate(shields)
        if shield is not None
    ]
    events.append(Event("play_started", {"players": layouts, "first": first}))
    table.dealt = ((),) * seats
    table.shields = shields
    table.hp_cards = rows
    table.hp = hp
    table.turn = first
    table.step = ACTION


def first_player(rules: Rules, state_seed: bytes, shields: tuple[int | None, ...], hp: Any) -> int:
    """Who starts: the lowest HP; a tie by the match's `start_tie` rule (docs/rules/shield.md)."""
    living = [seat for seat, shield in enumerate(shields) if shield is not None]
    lowest = min(hp[seat] for seat in living)
    tied = [seat for seat in living if hp[seat] == lowest]
    if rules.start_tie == TIE_SHIELD and len(tied) > 1:
        # Every living seat has a shield.
        values = {seat: VALUE[shields[seat]] for seat in tied}  # type: ignore[index]
        weakest = min(values.values())
        tied = [seat for seat in tied if values[seat] == weakest]
    if len(tied) == 1:
        return tied[0]
    return tied[Chance(state_seed, "shield/start").randbelow(len(tied))]


# --- applying: drawing and the actions ----------------------------------------------------


def _draw(table: ShieldState, events: list[Event]) -> int:
    """Take the top card of the draw pile, refilling an empty pile first."""
    deck = table.deck
    if not deck:
        chance = Chance(table.seed, f"shield/reshuffle/{table.reshuffles}")
        table.reshuffles += 1
        if table.discard:
            deck = tuple(chance.shuffle(table.discard))
            table.discard = ()
            events.append(Event("reshuffled", {"from": "discard", "count": len(deck)}))
        else:  # every card not laid out is stored: they all go back, unseen
            counts = [len(pile) for pile in table.stored]
            deck = tuple(chance.shuffle([card for pile in table.stored for card in pile]))
            table.stored = ((),) * table.seats
            events.append(
                Event("reshuffled", {"from": "stored", "count": len(deck), "stored": counts})
            )
    table.deck = deck[1:]
    return deck[0]


def _record(**fields: Any) -> dict[str, Any]:
    """The `last` action as the view shows it (every key always present)."""
    record = dict(_NO_RECORD)
    record.update(fields)
    return record


def _change_shield(table: ShieldState, seat: int, target: int, events: list[Event]) -> None:
    card = _draw(table, events)
    old = table.shields[target]
    assert old is not None
    table.shields = _put(table.shields, target, card)
    table.discard += (old,)
    new_name, old_name = NAMES[card], NAMES[old]
    events.append(
        Event("shield_changed", {"seat": seat, "target": target, "old": old_name, "new": new_name})
    )
    table.last = _record(
        seat=seat, action=CHANGE_SHIELD, target=target, card=new_name, old_shield=old_name
    )
    _after_action(table, seat, events)


def _store(table: ShieldState, seat: int, events: list[Event]) -> None:
    card = _draw(table, events)
    pile = table.stored[seat] + (card,)
    table.stored = _put(table.stored, seat, pile)
    events.append(Event("stored", {"seat": seat, "count": len(pile)}))
    table.last = _record(seat=seat, action=STORE)
    _after_action(table, seat, events)


def _attack(table: ShieldState, seat: int, target: int, boost: int, events: list[Event]) -> None:
    card = _draw(table, events)
    shield = VALUE[table.shields[target]]  # type: ignore[index]  # a target is in the match
    events.append(
        Event(
            "attack",
            {
                "seat": seat,
                "target": target,
                "card": NAMES[card],
                "power": VALUE[card],
                "shield": shield,
            },
        )
    )
    cards: Cards = (card,)
    pile = table.stored[seat]
    if boost:  # committed before the draw (the "before_draw" rule)
        cards += pile[-boost:]
        pile = pile[:-boost]
        table.stored = _put(table.stored, seat, pile)
        events.append(_boost_event(seat, cards[1:], cards))
    if pile and table.rules.boost == AFTER_DRAW:
        table.step = BOOST
        table.attack = (target, cards)
        return
    _resolve(table, seat, target, cards, events)


def _boost_event(seat: int, added: Cards, cards: Cards) -> Event:
    return Event("boost", {"seat": seat, "cards": names(added), "power": total(cards)})


def _boost(table: ShieldState, seat: int, count: int, events: list[Event]) -> None:
    target, cards = table.attack  # type: ignore[misc]  # set in the boost step (`check`)
    pile = table.stored[seat]
    added = pile[-count:]  # the top `count` cards of the pile
    pile = pile[:-count]
    cards += added
    table.stored = _put(table.stored, seat, pile)
    events.append(_boost_event(seat, added, cards))
    if pile:
        table.attack = (target, cards)
        return
    table.attack = None
    _resolve(table, seat, target, cards, events)


def _resolve(table: ShieldState, seat: int, target: int, cards: Cards, events: list[Event]) -> None:
    """The attack's power against the target's shield (the attack is off the table)."""
    power = total(cards)
    shield = VALUE[table.shields[target]]  # type: ignore[index]  # a target is in the match
    record = _record(
        seat=seat,
        action=ATTACK,
        target=target,
        card=NAMES[cards[0]],
        boost=names(cards[1:]),
        power=power,
        shield=shield,
    )
    table.step = ACTION
    table.last = record
    if power <= shield:
        events.append(
            Event("blocked", {"seat": seat, "target": target, "power": power, "shield": shield})
        )
        record.update(result="blocked", hp=table.hp[target])
        table.discard += cards
        _after_action(table, seat, events)
        return
    damage = power - shield
    hp = max(0, table.hp[target] - damage)
    events.append(
        Event(
            "hit",
            {
                "seat": seat,
                "target": target,
                "power": power,
                "shield": shield,
                "damage": damage,
                "hp": hp,
            },
        )
    )
    lost = table.stored[target]
    if lost:
        events.append(Event("stored_discarded", {"seat": target, "cards": names(lost)}))
        table.stored = _put(table.stored, target, ())
        table.discard += lost
    record.update(result="hit", damage=damage, hp=hp, stored_discarded=names(lost))
    table.hp = _put(table.hp, target, hp)
    if hp == 0:
        record["is_out"] = True
        _eliminate(table, target, "hp", seat, events)
    table.discard += cards
    if table.result is None:
        _after_action(table, seat, events)


def _after_action(table: ShieldState, seat: int, events: list[Event]) -> None:
    """After an action: the giving step while the actor holds stored cards, else the next turn."""
    if table.stored[seat]:
        table.step = GIVE
    else:
        _next_turn(table, events)


def _give(table: ShieldState, seat: int, target: int, count: int, events: list[Event]) -> None:
    pile = table.stored[seat]
    stored = _put(table.stored, seat, pile[:-count])
    stored = _put(stored, target, stored[target] + pile[-count:])
    table.stored = stored
    events.append(
        Event(
            "gave",
            {"seat": seat, "target": target, "count": count, "stored": [len(p) for p in stored]},
        )
    )
    if not stored[seat]:
        _next_turn(table, events)


def _next_turn(table: ShieldState, events: list[Event]) -> None:
    """The next seat still in the match, clockwise (seat order) from the one whose turn it was."""
    seats, out, turn = table.seats, table.out, table.turn
    following = turn
    for step in range(1, seats + 1):
        following = (turn + step) % seats  # type: ignore[operator]  # a turn is under way
        if following not in out:
            break
    events.append(Event("next_turn", {"seat": following}))
    table.turn = following
    table.step = ACTION


# --- applying: going out ------------------------------------------------------------------


def _eliminate(
    table: ShieldState, seat: int, reason: str, by: int | None, events: list[Event]
) -> None:
    """`seat` is out: its cards go to the discard pile; the match ends if one seat is left."""
    place = table.seats - len(table.out)
    cards = table.dealt[seat] + table.hp_cards[seat]
    shield = table.shields[seat]
    if shield is not None:
        cards += (shield,)
    cards += table.stored[seat]
    events.append(
        Event(
            "eliminated",
            {"seat": seat, "reason": reason, "by": by, "place": place, "cards": names(cards)},
        )
    )
    table.dealt = _put(table.dealt, seat, ())
    table.picks = _put(table.picks, seat, None)
    table.shields = _put(table.shields, seat, None)
    table.hp_cards = _put(table.hp_cards, seat, ())
    table.hp = _put(table.hp, seat, 0)
    table.stored = _put(table.stored, seat, ())
    table.discard += cards
    table.out += (seat,)
    living = [s for s in range(table.seats) if s not in table.out]
    if len(living) > 1:
        return
    winner = living[0]
    ranking = ((winner,),) + tuple((s,) for s in reversed(table.out))
    events.append(Event("last_standing", {"winner": winner, "ranking": [s for (s,) in ranking]}))
    table.result = Outcome(
        winners=(winner,), ranking=ranking, reason="last_standing" if reason == "hp" else reason
    )
    table.step = OVER
    table.turn = None
    table.attack = None


def _forfeit(table: ShieldState, seat: int, reason: str, events: list[Event]) -> None:
    """`seat` is out; play goes on while two remain (docs/rules/shield.md, "Forfeits").

    Its pending attack, or an attack pending against it, is dropped (the cards on the
    table go to the discard pile); whose turn it is moves on only if it was this seat's.
    """
    attack, turn, step = table.attack, table.turn, table.step
    if attack is not None and seat in (turn, attack[0]):
        events.append(
            Event("attack_dropped", {"seat": turn, "target": attack[0], "cards": names(attack[1])})
        )
        table.attack = None
        table.discard += attack[1]
        table.step = ACTION
    _eliminate(table, seat, reason, None, events)
    if table.result is not None:
        return
    if step == SETUP:
        if not to_act(table):
            _start_play(table, events)
    elif seat == turn:
        _next_turn(table, events)
    elif attack is not None and seat == attack[0]:
        _after_action(table, turn, events)  # type: ignore[arg-type]  # the attacker's turn


# --- how a match ends ---------------------------------------------------------------------


def outcome(state: ShieldState) -> Outcome | None:
    return state.result


def forfeit(state: ShieldState, seat: int, reason: str) -> Outcome | None:
    """The Outcome if `seat` going out ends the match (one seat left), else None.

    Play goes on without the seat otherwise: to keep the match, apply the move
    {"type": "forfeit", "reason": reason} for `seat` (what this computes).
    """
    if reason not in FORFEIT_REASONS:
        raise ValueError(f"A forfeit's reason is one of {FORFEIT_REASONS}, not {reason!r}.")
    after, _events = apply(state, seat, {"type": FORFEIT, "reason": reason})
    return after.result
