"""BaniraCards' rules: checking a move and applying it (costs and the legal-move list are
in `moves`).

Decisions are in docs/rules/banira.md; the move vocabulary is in docs/move-log.md.
Invariants:
- One seat (0). Moves: "play", "unlock", "draw", "discard", "boost". `check` is the only
  gate: `apply` and `is_legal` both go through it, and `moves.legal_moves` lists exactly
  the moves it accepts.
- A play pays its stamina cost first, then gains the card's points, stamina and draws.
  Score moves (draw, discard, boost) are illegal when they would take the score below
  zero. So no counter is ever negative.
- After every move the run ends by itself: "complete" once all ten slots are covered
  (the score then is final), "stuck" when no legal move is left (final score 0).
- Nothing random happens during a run: a play's draws come off the top of the deck, and
  a negative draw takes the newest cards of the hand row (overflow first), then the deck.
"""

from __future__ import annotations

from collections.abc import Mapping

from games.engine.banira.cards import SLOT_INDEX, SLOT_LABELS, SLOTS
from games.engine.banira.moves import (
    BOOST,
    BOOST_POINTS,
    BOOST_SCORE_COST,
    BOOST_STAMINA,
    DISCARD,
    DISCARD_SCORE_COST,
    DRAW,
    DRAW_SCORE_COST,
    MOVE_HELP,
    MOVE_KEYS,
    PLAY,
    UNLOCK,
    Parsed,
    affordability,
    has_legal_move,
    placement,
    point_text,
    unlock_cost,
)
from games.engine.banira.state import HAND_LIMIT, BaniraState, Stack
from games.engine.core import Event, IllegalMove, Move, Outcome

# --- checking -----------------------------------------------------------------------------


def check(state: BaniraState, seat: int, move: Move) -> Parsed:
    """(type, card, slot, cost) of a legal move; raises IllegalMove otherwise."""
    if state.result is not None:
        raise IllegalMove("The run is over.")
    if seat != 0:
        raise IllegalMove("BaniraCards has one seat: seat 0.")
    if not isinstance(move, Mapping):
        raise IllegalMove(MOVE_HELP)
    kind = move.get("type")
    if not isinstance(kind, str) or kind not in MOVE_KEYS:
        raise IllegalMove(MOVE_HELP)
    keys = MOVE_KEYS[kind]
    for key in move:
        if key != "type" and key not in keys:
            raise IllegalMove(f"A “{kind}” move has no “{key}”. {MOVE_HELP}")
    for key in keys:
        if key not in move:
            raise IllegalMove(f"Say which {key} to {kind}. {MOVE_HELP}")
    if kind == PLAY:
        return _check_play(state, move)
    if kind == UNLOCK:
        return _check_unlock(state, move)
    if kind == DISCARD:
        card = _held_card(state, move["card"])
        _check_score(state, DISCARD_SCORE_COST, "Discarding")
        return DISCARD, card, -1, 0
    if kind == DRAW:
        if not state.deck:
            raise IllegalMove("The deck is empty: there is nothing to draw.")
        _check_score(state, DRAW_SCORE_COST, "Drawing")
        return DRAW, -1, -1, 0
    _check_score(state, BOOST_SCORE_COST, "Boosting")
    return BOOST, -1, -1, 0


def _check_score(state: BaniraState, cost: int, doing: str) -> None:
    if state.score < cost:
        raise IllegalMove(
            f"{doing} costs {cost} score and your score is {state.score}: "
            "the score cannot go below zero."
        )


def _slot(raw: object) -> int:
    slot = SLOT_INDEX.get(raw) if isinstance(raw, str) else None
    if slot is None:
        shown = raw if isinstance(raw, str) else repr(raw)
        raise IllegalMove(f"There is no slot “{shown}”. The slots are {', '.join(SLOTS)}.")
    return slot


def _held_card(state: BaniraState, raw: object) -> int:
    card = state.setup.index.get(raw) if isinstance(raw, str) else None
    if card is None:
        shown = raw if isinstance(raw, str) else repr(raw)
        raise IllegalMove(f"There is no card “{shown}” in this deck: name a card by its id.")
    if card not in state.hand[:HAND_LIMIT]:
        # The same answer whether the card is in the overflow or the deck: both are face down.
        raise IllegalMove(f"{state.setup.cards[card].name} is not in your hand.")
    return card


def _check_play(state: BaniraState, move: Move) -> Parsed:
    card = _held_card(state, move["card"])
    slot = _slot(move["slot"])
    details = state.setup.cards[card]
    cost, why = placement(state, details, slot)
    if cost is None:
        raise IllegalMove(why or "That card cannot go there.")
    why = affordability(state, details, cost)
    if why is not None:
        raise IllegalMove(why)
    return PLAY, card, slot, cost


def _check_unlock(state: BaniraState, move: Move) -> Parsed:
    slot = _slot(move["slot"])
    if state.unlocked >> slot & 1:
        raise IllegalMove(f"The {SLOT_LABELS[slot]} slot is already unlocked.")
    cost = unlock_cost(state)
    if cost > state.points:
        raise IllegalMove(
            f"Unlocking a slot now costs {point_text(cost)} and you have {state.points}."
        )
    return UNLOCK, -1, slot, cost


# --- applying -----------------------------------------------------------------------------


def apply(state: BaniraState, seat: int, move: Move) -> tuple[BaniraState, list[Event]]:
    kind, card, slot, cost = check(state, seat, move)
    if kind == PLAY:
        after, events = _play(state, card, slot, cost)
    elif kind == UNLOCK:
        after, events = _unlock(state, slot, cost)
    elif kind == DISCARD:
        after, events = _discard(state, card)
    elif kind == DRAW:
        after, events = _draw(state)
    else:
        after, events = _boost(state)
    return _settle(after, events)


def _play(state: BaniraState, card: int, slot: int, cost: int) -> tuple[BaniraState, list[Event]]:
    details = state.setup.cards[card]
    field = state.field
    stack = field[slot] + (card,)
    row = state.hand
    at = row.index(card)
    hand = row[:at] + row[at + 1 :]
    events = [
        Event(
            "played",
            {
                "card": details.to_json(),
                "slot": SLOTS[slot],
                "cost": cost,
                "stacked": len(stack) > 1,
                "depth": len(stack),
                "score_gain": details.score_gain,
            },
        )
    ]
    _report_overflow_entries(state, row, hand, events)  # room appeared: before the draws
    deck, discard = state.deck, state.discard
    draws = details.draws
    if draws > 0:
        deck, hand = _draw_cards(state, deck, hand, draws, 0, events)
    elif draws < 0:
        deck, hand, discard = _remove_cards(state, deck, hand, discard, -draws, events)
    after = state.replace(
        deck=deck,
        hand=hand,
        discard=discard,
        field=field[:slot] + (stack,) + field[slot + 1 :],
        points=state.points + details.points,
        stamina=state.stamina - cost + details.stamina,
        score=state.score + details.score_gain,
        plays=state.plays + 1,
        ply=state.ply + 1,
        last=(card, slot),
    )
    return after, events


def _draw_cards(
    state: BaniraState,
    deck: Stack,
    hand: Stack,
    count: int,
    score_cost: int,
    events: list[Event],
) -> tuple[Stack, Stack]:
    """Up to `count` cards off the top of the deck onto the end of the hand row.

    `score_cost` is 0 for a play's draws and `DRAW_SCORE_COST` for a manual draw.
    """
    drawn = deck[:count]
    room = max(0, HAND_LIMIT - len(hand))
    cards = state.setup.cards
    events.append(
        Event(
            "drew",
            {
                "count": len(drawn),
                "manual": score_cost > 0,
                "to_hand": [cards[card].to_json() for card in drawn[:room]],
                "to_overflow": max(0, len(drawn) - room),
                "short": count - len(drawn),  # wanted, but the deck ran out
                "score_cost": score_cost,
            },
        )
    )
    return deck[count:], hand + drawn


def _remove_cards(
    state: BaniraState,
    deck: Stack,
    hand: Stack,
    discard: Stack,
    count: int,
    events: list[Event],
) -> tuple[Stack, Stack, Stack]:
    """A negative draw: the newest cards of the hand row (overflow first), then the deck."""
    from_row = min(count, len(hand))
    removed = hand[len(hand) - from_row :][::-1]  # right to left
    from_overflow = max(0, min(from_row, len(hand) - HAND_LIMIT))
    from_deck = deck[: count - from_row]
    removed += from_deck
    cards = state.setup.cards
    events.append(
        Event(
            "removed",
            {
                "cards": [cards[card].to_json() for card in removed],
                "from_hand": from_row - from_overflow,
                "from_overflow": from_overflow,
                "from_deck": len(from_deck),
                "short": count - len(removed),
            },
        )
    )
    return deck[len(from_deck) :], hand[: len(hand) - from_row], discard + removed


def _report_overflow_entries(
    state: BaniraState, before: Stack, after: Stack, events: list[Event]
) -> None:
    """Name the overflow card that moved up into the hand (it was face down till now).

    Only a card leaving the held part of the row (a play, a discard) makes room: draws
    add to the end of the row and removals take from its end.
    """
    if len(before) <= HAND_LIMIT:
        return
    was_overflow = set(before[HAND_LIMIT:])
    entered = [card for card in after[:HAND_LIMIT] if card in was_overflow]
    if entered:
        cards = state.setup.cards
        events.append(
            Event("overflow_entered", {"cards": [cards[card].to_json() for card in entered]})
        )


def _unlock(state: BaniraState, slot: int, cost: int) -> tuple[BaniraState, list[Event]]:
    after = state.replace(
        unlocked=state.unlocked | 1 << slot, points=state.points - cost, ply=state.ply + 1
    )
    return after, [Event("unlocked", {"slot": SLOTS[slot], "cost": cost})]


def _discard(state: BaniraState, card: int) -> tuple[BaniraState, list[Event]]:
    row = state.hand
    at = row.index(card)
    hand = row[:at] + row[at + 1 :]
    events = [
        Event(
            "discarded",
            {"card": state.setup.cards[card].to_json(), "score_cost": DISCARD_SCORE_COST},
        )
    ]
    _report_overflow_entries(state, row, hand, events)
    after = state.replace(
        hand=hand,
        discard=state.discard + (card,),
        score=state.score - DISCARD_SCORE_COST,
        ply=state.ply + 1,
    )
    return after, events


def _draw(state: BaniraState) -> tuple[BaniraState, list[Event]]:
    events: list[Event] = []
    deck, hand = _draw_cards(state, state.deck, state.hand, 1, DRAW_SCORE_COST, events)
    after = state.replace(
        deck=deck, hand=hand, score=state.score - DRAW_SCORE_COST, ply=state.ply + 1
    )
    return after, events


def _boost(state: BaniraState) -> tuple[BaniraState, list[Event]]:
    after = state.replace(
        points=state.points + BOOST_POINTS,
        stamina=state.stamina + BOOST_STAMINA,
        score=state.score - BOOST_SCORE_COST,
        ply=state.ply + 1,
    )
    data = {"points": BOOST_POINTS, "stamina": BOOST_STAMINA, "score_cost": BOOST_SCORE_COST}
    return after, [Event("boosted", data)]


def _settle(state: BaniraState, events: list[Event]) -> tuple[BaniraState, list[Event]]:
    """End the run if the field is covered (complete) or nothing is legal any more (stuck)."""
    if all(state.field):
        score = state.score
        outcome = Outcome(winners=(0,), ranking=((0,),), reason="complete", scores=(score,))
        events.append(Event("run_complete", {"score": score, "plays": state.plays}))
        return state.replace(result=outcome), events
    if has_legal_move(state):
        return state, events
    outcome = Outcome(winners=(), ranking=((0,),), reason="stuck", scores=(0,))
    events.append(Event("run_stuck", {"score": 0, "score_left": state.score}))
    return state.replace(result=outcome), events


def forfeit_outcome(reason: str) -> Outcome:
    """Giving up (or timing out) ends the run like getting stuck: no winner, score 0."""
    return Outcome(winners=(), ranking=((0,),), reason=reason, scores=(0,))
