"""BaniraCards' rules: whose turn it is, what moves cost, the legal moves, checking and
applying a move, and how a run ends.

Decisions are in docs/rules/banira.md; the move vocabulary is in docs/move-log.md.
Invariants:
- One seat (0). Moves: "play", "unlock", "draw", "discard", "boost". `check` is the only
  gate: `apply` and `is_legal` both go through it, and `legal_moves` lists exactly the
  moves it accepts, in a fixed order, at most 7 x 3 + 10 + 7 + 2 of them (a card fits
  three slots at most). `has_legal_move` answers the same question without building the
  list (it ends stuck runs).
- The next unlock costs (slots unlocked + 1) points; the next play onto an empty slot
  costs (slots covered + 1) stamina; stacking costs `STACK_COST` of the top card's rarity.
- A play pays its stamina cost first, then gains the card's points, stamina and draws:
  it is affordable when the cost is at most the stamina held and neither points nor
  stamina would end below zero. `placement` and `affordability` say why not, in words a
  player can read. Score moves (draw, discard, boost) are illegal when they would take
  the score below zero. So no counter is ever negative.
- After every move the run ends by itself: "complete" once all ten slots are covered
  (the score then is final), "stuck" when no legal move is left (final score 0).
- Nothing random happens during a run: a play's draws come off the top of the deck, and
  a negative draw takes the newest cards of the hand row (overflow first), then the deck.
- `apply` never mutates its input: it builds a new state with `replace`.
- Pure: imports the standard library, `games.engine.core` and this package's `cards`
  and `state`.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from games.engine.banira.cards import (
    ACCEPTED_RARITIES,
    ACCEPTS,
    ALL_SLOTS_MASK,
    ELEMENTS,
    RARITIES,
    SLOT_COUNT,
    SLOT_INDEX,
    SLOT_LABELS,
    SLOTS,
    STACK_COST,
    TYPES,
    Card,
)
from games.engine.banira.state import HAND_LIMIT, BaniraState, Stack
from games.engine.core import Event, IllegalMove, Move, Outcome

PLAY = "play"
UNLOCK = "unlock"
DRAW = "draw"
DISCARD = "discard"
BOOST = "boost"
MOVE_KEYS = {PLAY: ("card", "slot"), UNLOCK: ("slot",), DRAW: (), DISCARD: ("card",), BOOST: ()}
MOVE_HELP = (
    'BaniraCards moves: {"type": "play", "card": "<card id>", "slot": "ruby"}, '
    '{"type": "unlock", "slot": "ruby"}, {"type": "draw"}, {"type": "discard", "card": '
    '"<card id>"}, {"type": "boost"}.'
)
DRAW_SCORE_COST = 2
DISCARD_SCORE_COST = 1
BOOST_SCORE_COST = 10
BOOST_POINTS = 2
BOOST_STAMINA = 2

Parsed = tuple[str, int, int, int]  # (move type, card or -1, slot or -1, cost)


# --- whose turn it is ---------------------------------------------------------------------


def to_act(state: BaniraState) -> tuple[int, ...]:
    return () if state.result is not None else (0,)


# --- what a play costs --------------------------------------------------------------------


def point_text(count: int) -> str:
    """ "1 point", "3 points": for messages."""
    return f"{count} point" if count == 1 else f"{count} points"


def unlock_cost(state: BaniraState) -> int:
    return state.unlocked.bit_count() + 1


def empty_cost(state: BaniraState) -> int:
    return sum(1 for stack in state.field if stack) + 1


def slot_cost(state: BaniraState, slot: int) -> int | None:
    """Stamina for the next card onto `slot` (if it goes there at all); None while locked."""
    if not state.unlocked >> slot & 1:
        return None
    stack = state.field[slot]
    return STACK_COST[state.setup.cards[stack[-1]].rarity] if stack else empty_cost(state)


def placement(state: BaniraState, card: Card, slot: int) -> tuple[int | None, str | None]:
    """(stamina cost, None) if `card` may go onto `slot` at all, else (None, why not).

    Answers for the slot and the stacking order only: whether the player can pay is
    `affordability`'s question.
    """
    if slot not in card.fits:
        return None, _misfit(card.name, card.element, card.type, card.fits, slot)
    if not state.unlocked >> slot & 1:
        return None, (
            f"The {SLOT_LABELS[slot]} slot is locked: unlock it first "
            f"({point_text(unlock_cost(state))})."
        )
    stack = state.field[slot]
    if not stack:
        return empty_cost(state), None
    top = state.setup.cards[stack[-1]]
    if not ACCEPTS[top.rarity][card.rarity]:
        takes = ", ".join(ACCEPTED_RARITIES[top.rarity])
        return None, (
            f"{card.name} ({RARITIES[card.rarity]}) cannot be stacked onto {top.name} "
            f"({RARITIES[top.rarity]}): a card goes only onto a higher rarity (rainbow, gold, "
            f"silver, bronze) or onto a shiny. {top.name} takes {takes}."
        )
    return STACK_COST[top.rarity], None


@lru_cache(maxsize=4096)
def _misfit(name: str, element: int, card_type: int, fits: tuple[int, ...], slot: int) -> str:
    """Why a card does not fit a slot (cached: the view asks for every held card and slot)."""
    labels = ", ".join(SLOT_LABELS[fit] for fit in fits)
    return (
        f"{name} is a {ELEMENTS[element].capitalize()} {TYPES[card_type].capitalize()} card: "
        f"it fits {labels}, not {SLOT_LABELS[slot]}."
    )


def affordability(state: BaniraState, card: Card, cost: int) -> str | None:
    """Why the player cannot pay for `card` at `cost` stamina, or None if they can."""
    if cost > state.stamina:
        return f"That play costs {cost} stamina and you have {state.stamina}."
    if state.stamina - cost + card.stamina < 0:
        return (
            f"{card.name} takes {-card.stamina} stamina: after paying {cost} you would have "
            f"{state.stamina - cost + card.stamina}. Stamina cannot go below zero."
        )
    if state.points + card.points < 0:
        return (
            f"{card.name} takes {point_text(-card.points)} and you have {state.points}. "
            "Points cannot go below zero."
        )
    return None


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


def is_legal(state: BaniraState, seat: int, move: Move) -> bool:
    try:
        check(state, seat, move)
    except IllegalMove:
        return False
    return True


# --- the legal moves ----------------------------------------------------------------------


def legal_moves(state: BaniraState, seat: int) -> list[Move]:
    """Every legal move: plays (hand order, then slot order), unlocks, discards, draw, boost.

    At most 7 x 3 plays (a card fits three slots at most), 10 unlocks, 7 discards, 2 more.
    """
    if seat != 0 or state.result is not None:
        return []
    cards = state.setup.cards
    moves: list[Move] = [
        {"type": PLAY, "card": cards[card].id, "slot": SLOTS[slot]}
        for card, slot in legal_plays(state)
    ]
    unlocked = state.unlocked
    if unlocked != ALL_SLOTS_MASK and unlocked.bit_count() < state.points:
        for slot in range(SLOT_COUNT):
            if not unlocked >> slot & 1:
                moves.append({"type": UNLOCK, "slot": SLOTS[slot]})
    score = state.score
    if score >= DISCARD_SCORE_COST:
        for index in state.hand[:HAND_LIMIT]:
            moves.append({"type": DISCARD, "card": cards[index].id})
    if score >= DRAW_SCORE_COST and state.deck:
        moves.append({"type": DRAW})
    if score >= BOOST_SCORE_COST:
        moves.append({"type": BOOST})
    return moves


def legal_plays(state: BaniraState, first_only: bool = False) -> list[tuple[int, int]]:
    """(card, slot) of every legal play, in hand order then slot order (or just the first).

    The rules of `placement` and `affordability`, inlined: this runs on every move.
    """
    cards = state.setup.cards
    field = state.field
    unlocked = state.unlocked
    stamina, points = state.stamina, state.points
    to_empty = sum(1 for stack in field if stack) + 1
    plays: list[tuple[int, int]] = []
    for index in state.hand[:HAND_LIMIT]:
        card = cards[index]
        if points + card.points < 0:
            continue
        for slot in card.fits:
            if not unlocked >> slot & 1:
                continue
            stack = field[slot]
            if stack:
                top = cards[stack[-1]].rarity
                if not ACCEPTS[top][card.rarity]:
                    continue
                cost = STACK_COST[top]
            else:
                cost = to_empty
            if cost <= stamina and stamina - cost + card.stamina >= 0:
                plays.append((index, slot))
                if first_only:
                    return plays
    return plays


def has_legal_move(state: BaniraState) -> bool:
    """Whether the run can still move (the cheap moves first; plays last)."""
    score = state.score
    if score >= BOOST_SCORE_COST:
        return True
    if (score >= DRAW_SCORE_COST and state.deck) or (score >= DISCARD_SCORE_COST and state.hand):
        return True
    unlocked = state.unlocked
    if unlocked != ALL_SLOTS_MASK and unlocked.bit_count() < state.points:
        return True
    return bool(legal_plays(state, first_only=True))


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


# --- how a run ends -----------------------------------------------------------------------


def outcome(state: BaniraState) -> Outcome | None:
    return state.result


def forfeit(state: BaniraState, seat: int, reason: str) -> Outcome:
    """Giving up (or timing out) ends the run like getting stuck: no winner, score 0."""
    return Outcome(winners=(), ranking=((0,),), reason=reason, scores=(0,))
