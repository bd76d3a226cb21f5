"""Shield's moves applied: the setup, the actions, boosts and gifts, going out, forfeits.

Decisions are in docs/rules/shield.md. Invariants:
- `apply` checks the move through `rules.check`, then fills in one fresh copy of the
  state (`ShieldState.copy`); every helper here changes that copy only, never its input.
- Setup: a pick ("shield_chosen") is an event for its own seat only. The last
  confirmation starts the play: every layout is revealed and the lowest HP starts.
- Play: a turn is an action (change a shield, store, attack), then, while the attack
  waits for stored cards, boosts or a resolve, then, while the actor holds stored cards,
  gifts or the end of the turn. Steps with no choice are played by the engine at once:
  an attack by a player without stored cards resolves on the draw, a boost that uses the
  last stored card resolves, and a turn with no stored card to give ends by itself.
- Every draw takes the top of the draw pile; an empty pile is first refilled by
  shuffling the discard pile (`Chance(seed, "shield/reshuffle/<n>")`), or, if that is
  empty too, every stored card (docs/rules/shield.md, "Running out of cards").
- A stored card's value appears in no event until it leaves its pile face up (a boost,
  or the discard of a hit or departing player's stored cards). A drawn card that is
  stored appears in no event at all.
"""

from __future__ import annotations

from typing import Any

from games.engine.chance import Chance
from games.engine.core import Event, Move, Outcome
from games.engine.shield.cards import NAMES, VALUE, names, total
from games.engine.shield.rules import (
    ATTACK,
    BOOST_MOVE,
    CHANGE_SHIELD,
    CHOOSE_SHIELD,
    CONFIRM,
    END_TURN,
    FORFEIT,
    FORFEIT_REASONS,
    GIVE_MOVE,
    RESOLVE,
    STORE,
    check,
    to_act,
)
from games.engine.shield.state import (
    ACTION,
    AFTER_DRAW,
    BOOST,
    GIVE,
    OVER,
    SETUP,
    Cards,
    ShieldState,
    first_player,
)

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
        target, cards = table.attack  # type: ignore[misc]
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


def forfeit(state: ShieldState, seat: int, reason: str) -> tuple[ShieldState, list[Event]]:
    """`seat` resigns or runs out of time: the position after its forfeit move."""
    if reason not in FORFEIT_REASONS:
        raise ValueError(f"A forfeit's reason is one of {FORFEIT_REASONS}, not {reason!r}.")
    return apply(state, seat, {"type": FORFEIT, "reason": reason})


def _put(items: tuple[Any, ...], seat: int, value: Any) -> tuple[Any, ...]:
    return items[:seat] + (value,) + items[seat + 1 :]


# --- setup ---


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


# --- drawing and the actions ---


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
    shield = VALUE[table.shields[target]]  # type: ignore[index]
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
    target, cards = table.attack  # type: ignore[misc]
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
    shield = VALUE[table.shields[target]]  # type: ignore[index]
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
        following = (turn + step) % seats  # type: ignore[operator]
        if following not in out:
            break
    events.append(Event("next_turn", {"seat": following}))
    table.turn = following
    table.step = ACTION


# --- going out ---


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
        _after_action(table, turn, events)  # type: ignore[arg-type]
