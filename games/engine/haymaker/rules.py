"""Haymaker's rules: whose turn it is, the legal moves, checking and applying a move, and
how a match ends.

Decisions are in docs/rules/haymaker.md; the move vocabulary is in docs/move-log.md.
Invariants:
- A turn is one or two moves: the attacker's ("attack", "haymaker" or "pass"), then,
  after an attack, the defender's ("block" or "take_hit"). Exactly one seat is to act.
- `check` is the only gate: `apply` and `is_legal` both go through it, so they agree on
  every move, including subsets of a hand that `legal_moves` does not list.
- `legal_moves` is a bounded list of the choices that matter, never every subset: the
  attacker's has at most n + 13 moves for a hand of n cards, the defender's at most 4
  (docs/rules/haymaker.md, "The bounded list of legal moves"). Every listed move passes
  `check`. Blocks are found with a subset-sum bit set, one shift per card: the cost grows
  with the hand size, never with the number of its subsets.
- Steps with no choice are played by the engine at once: the end-of-match check at the
  start of every turn (decision, draw, technical knockout) and the hit a defender with an
  empty hand must take (a knockout).
- A hit's cards are drawn from `Chance(seed, "haymaker/hit/<ply>")`; which cards they are
  is an event for the two players only (spectators learn how many).
- `apply` never mutates its input: it builds a new state, sharing every tuple it did not
  change.
- Pure: imports the standard library, `games.engine.core` and this package's `cards`
  and `state`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.core import Chance, Event, IllegalMove, Move, Outcome, forfeit_two_player
from games.engine.haymaker.cards import (
    BIT,
    NAMES,
    RANK,
    SUIT,
    mask,
    names,
    parse,
    strength,
)
from games.engine.haymaker.state import DISCARDS_OWN, Hand, HaymakerState

ATTACK = "attack"
HAYMAKER = "haymaker"
PASS = "pass"
BLOCK = "block"
TAKE_HIT = "take_hit"
ATTACKER_MOVES = (ATTACK, HAYMAKER, PASS)
DEFENDER_MOVES = (BLOCK, TAKE_HIT)
MOVE_TYPES = ATTACKER_MOVES + DEFENDER_MOVES
MOVE_HELP = (
    'Haymaker moves: {"type": "attack", "cards": ["7H"]}, {"type": "haymaker", "cards": '
    '["2H", "9H"]}, {"type": "pass"}, {"type": "block", "cards": [...]}, {"type": "take_hit"}.'
)


# --- whose turn it is, and checking -------------------------------------------------------


def to_act(state: HaymakerState) -> tuple[int, ...]:
    seat = acting_seat(state)
    return () if seat is None else (seat,)


def acting_seat(state: HaymakerState) -> int | None:
    """The one seat to act, or None once the match is over."""
    if state.result is not None:
        return None
    return 1 - state.attacker if state.table else state.attacker


def check(state: HaymakerState, seat: int, move: Move) -> tuple[str, Hand]:
    """(move type, the cards it plays) for a legal move; raises IllegalMove otherwise."""
    if state.result is not None:
        raise IllegalMove("The match is over.")
    if not isinstance(move, Mapping):
        raise IllegalMove(MOVE_HELP)
    kind = move.get("type")
    if not isinstance(kind, str) or kind not in MOVE_TYPES:
        raise IllegalMove(MOVE_HELP)
    if seat != acting_seat(state):
        raise IllegalMove("It is not your turn.")
    for key in move:
        if key not in ("type", "cards"):
            raise IllegalMove(f"A Haymaker move has no “{key}”. {MOVE_HELP}")
    if state.table and kind in ATTACKER_MOVES:
        raise IllegalMove("You are defending: block the attack or take the hit.")
    if not state.table and kind in DEFENDER_MOVES:
        raise IllegalMove("You are attacking: attack, throw a haymaker, or pass.")
    if kind in (PASS, TAKE_HIT):
        if "cards" in move:
            raise IllegalMove("Passing and taking the hit use no cards.")
        if kind == PASS and not state.attacked_last:
            raise IllegalMove(_why_no_pass(state))
        return kind, ()
    if "cards" not in move:
        raise IllegalMove(f'Say which cards to play: {{"type": "{kind}", "cards": ["7H"]}}.')
    cards = parse(move["cards"])
    if isinstance(cards, str):
        raise IllegalMove(cards)
    hand = state.hands[seat]
    for card in cards:
        if card not in hand:
            raise IllegalMove(f"{NAMES[card]} is not in your hand.")
    _check_shape(state, kind, cards)
    return kind, cards


def _why_no_pass(state: HaymakerState) -> str:
    if state.turn == 1:
        return "You cannot pass on the first turn: you may pass only after attacking last turn."
    return "You may pass only if you attacked last turn."


def _check_shape(state: HaymakerState, kind: str, cards: Hand) -> None:
    if kind == ATTACK:
        if len(cards) != 1:
            raise IllegalMove(
                "A normal attack is exactly one card; two or more cards of one suit are a haymaker."
            )
    elif kind == HAYMAKER:
        if len(cards) < 2:
            raise IllegalMove("A haymaker needs two or more cards of one suit.")
        if any(SUIT[card] != SUIT[cards[0]] for card in cards):
            raise IllegalMove("A haymaker's cards must all be of one suit.")
    else:
        if not cards:
            raise IllegalMove("A block needs at least one card; or take the hit.")
        needed = strength(state.table)
        power = strength(cards)
        if power < needed:
            raise IllegalMove(
                f"Your block is {power} against an attack of {needed}: "
                f"it must be at least {needed}."
            )


def is_legal(state: HaymakerState, seat: int, move: Move) -> bool:
    try:
        check(state, seat, move)
    except IllegalMove:
        return False
    return True


# --- the legal moves ----------------------------------------------------------------------


def legal_moves(state: HaymakerState, seat: int) -> list[Move]:
    """A bounded set covering the choices that matter (docs/rules/haymaker.md, "Moves").

    Attacker: every one-card attack, per suit the full-suit haymaker and the weakest and
    strongest two-card ones, and the pass when allowed: at most n + 13 moves for a hand of
    n cards. Defender: take the hit and at most three blocks: at most 4 moves.
    """
    if seat != acting_seat(state):
        return []
    hand = state.hands[seat]
    if state.table:
        return [{"type": TAKE_HIT}] + [
            {"type": BLOCK, "cards": names(block)} for block in key_blocks(hand, state.table)
        ]
    moves: list[Move] = [{"type": ATTACK, "cards": [NAMES[card]]} for card in hand]
    start = 0
    for end in range(1, len(hand) + 1):
        if end == len(hand) or SUIT[hand[end]] != SUIT[hand[start]]:
            suit = hand[start:end]  # ranks ascending
            if len(suit) >= 2:
                moves.append({"type": HAYMAKER, "cards": names(suit)})
            if len(suit) >= 3:
                moves.append({"type": HAYMAKER, "cards": names(suit[:2])})
                moves.append({"type": HAYMAKER, "cards": names(suit[-2:])})
            start = end
    if state.attacked_last:
        moves.append({"type": PASS})
    return moves


def key_blocks(hand: Hand, table: Hand) -> list[Hand]:
    """At most three blocks of `table` from `hand`, each sorted; none when nothing blocks.

    1. the tightest block: the smallest reachable sum at least the attack (an exact match,
       a reversal, whenever one exists), made of as few high cards as the search finds;
    2. the same sum made of as many low cards as it finds (sheds small cards);
    3. the block with the fewest cards: the k highest cards are the strongest k-card
       block, so k is exact; its last card is the lowest one that still reaches the attack.
    Among cards of equal rank the lower id (clubs first) is played; repeats are dropped.
    Sums come from a subset-sum bit set (one shift per card), never from enumerating subsets.
    """
    needed = strength(table)
    if strength(hand) < needed:
        return []
    high_first = sorted(hand, key=_high_first)
    low_first = high_first[::-1]
    reach_high = _reachable(high_first)
    above = reach_high[-1] >> needed
    tightest = needed + (above & -above).bit_length() - 1
    blocks = [
        _subset(high_first, reach_high, tightest),
        _subset(low_first, _reachable(low_first), tightest),
    ]
    total, count = 0, 0
    while total < needed:
        total += RANK[high_first[count]]
        count += 1
    base = high_first[: count - 1]
    rest = needed - (total - RANK[high_first[count - 1]])
    last = min((card for card in high_first[count - 1 :] if RANK[card] >= rest), key=_low_first)
    blocks.append(base + [last])
    unique: list[Hand] = []
    for block in blocks:
        ordered = tuple(sorted(block))
        if ordered not in unique:
            unique.append(ordered)
    return unique


def _high_first(card: int) -> tuple[int, int]:
    return (-RANK[card], card)


def _low_first(card: int) -> tuple[int, int]:
    return (RANK[card], card)


def _reachable(cards: list[int]) -> list[int]:
    """reach[i]: bit s is set when some subset of cards[:i] sums to s."""
    reach = [1]
    bits = 1
    for card in cards:
        bits |= bits << RANK[card]
        reach.append(bits)
    return reach


def _subset(cards: list[int], reach: list[int], total: int) -> list[int]:
    """A subset of `cards` summing to `total`, keeping the earliest cards it can."""
    chosen = []
    for index in range(len(cards), 0, -1):
        if not (reach[index - 1] >> total) & 1:
            card = cards[index - 1]
            chosen.append(card)
            total -= RANK[card]
    return chosen


# --- applying -----------------------------------------------------------------------------


def apply(state: HaymakerState, seat: int, move: Move) -> tuple[HaymakerState, list[Event]]:
    kind, cards = check(state, seat, move)
    if kind in (ATTACK, HAYMAKER):
        return _attack(state, seat, kind, tuple(sorted(cards)))
    if kind == BLOCK:
        return _block(state, seat, tuple(sorted(cards)))
    if kind == TAKE_HIT:
        return _take_hit(state, seat)
    return _pass(state, seat)


def _attack(
    state: HaymakerState, seat: int, kind: str, cards: Hand
) -> tuple[HaymakerState, list[Event]]:
    played = mask(cards)
    hand = tuple(card for card in state.hands[seat] if not BIT[card] & played)
    after = state.replace(
        hands=_put(state.hands, seat, hand),
        revealed=_put(state.revealed, seat, state.revealed[seat] & ~played),
        table=cards,
        ply=state.ply + 1,
    )
    events = [Event(kind, {"seat": seat, "cards": names(cards), "strength": strength(cards)})]
    if not state.hands[1 - seat]:  # the defender must take the hit, with nothing to give
        return _knockout(after, events)
    return after, events


def _block(state: HaymakerState, seat: int, cards: Hand) -> tuple[HaymakerState, list[Event]]:
    attacker, table = state.attacker, state.table
    needed, power = strength(table), strength(cards)
    reasons = [
        reason
        for reason, holds in (
            ("equal", power == needed),
            ("haymaker", len(table) > 1),
            ("attacker_empty", not state.hands[attacker]),
        )
        if holds
    ]
    played = mask(cards)
    hands = _put(state.hands, seat, tuple(c for c in state.hands[seat] if not BIT[c] & played))
    revealed = _put(state.revealed, seat, state.revealed[seat] & ~played)
    events = [
        Event(
            "block",
            {"seat": seat, "cards": names(cards), "strength": power, "attack_strength": needed},
        )
    ]
    if reasons:
        events.append(Event("reversal", {"seat": seat, "reasons": reasons}))
    if state.discard_rule == DISCARDS_OWN:
        discards = _discard(state.discards, attacker, table, events)
        discards = _discard(discards, seat, cards, events)
    else:
        discards = _discard(state.discards, seat if reasons else attacker, table + cards, events)
    deck, drawn = state.deck, [0, 0]
    if reasons:  # both draw (the attacker of this turn first), then the roles switch
        deck, hands = _draw(deck, hands, attacker, drawn, events)
        deck, hands = _draw(deck, hands, seat, drawn, events)
        events.append(Event("roles_switched", {"attacker": seat, "defender": attacker}))
    last = _last_turn(state, "block", cards, bool(reasons), (), drawn)
    after = state.replace(
        hands=hands,
        revealed=revealed,
        deck=deck,
        discards=discards,
        table=(),
        attacker=seat if reasons else attacker,
        attacked_last=not reasons,
        turn=state.turn + 1,
        ply=state.ply + 1,
        last=last,
    )
    return _begin_turn(after, events)


def _take_hit(state: HaymakerState, seat: int) -> tuple[HaymakerState, list[Event]]:
    attacker, table = state.attacker, state.table
    count = 2 if len(table) > 1 else 1
    hand = state.hands[seat]
    if len(hand) < count:
        return _knockout(state.replace(ply=state.ply + 1), [])
    chance = Chance(state.seed, f"haymaker/hit/{state.ply}")
    pool = list(hand)
    taken = tuple(sorted(pool.pop(chance.randbelow(len(pool))) for _ in range(count)))
    gained = mask(taken)
    hands = _put(state.hands, seat, tuple(pool))
    hands = _put(hands, attacker, tuple(sorted(hands[attacker] + taken)))
    revealed = _put(state.revealed, seat, state.revealed[seat] & ~gained)
    revealed = _put(revealed, attacker, revealed[attacker] | gained)
    events = [
        Event("hit", {"seat": seat, "attacker": attacker, "count": count}),
        Event("cards_taken", {"from": seat, "to": attacker, "cards": names(taken)}, (0, 1)),
    ]
    discards = _discard(state.discards, attacker, table, events)
    after = state.replace(
        hands=hands,
        revealed=revealed,
        discards=discards,
        table=(),
        attacked_last=True,
        turn=state.turn + 1,
        ply=state.ply + 1,
        last=_last_turn(state, TAKE_HIT, (), False, taken, [0, 0]),
    )
    return _begin_turn(after, events)


def _pass(state: HaymakerState, seat: int) -> tuple[HaymakerState, list[Event]]:
    defender = 1 - seat
    events = [Event("pass", {"seat": seat})]
    drawn = [0, 0]
    deck, hands = _draw(state.deck, state.hands, seat, drawn, events)
    deck, hands = _draw(deck, hands, defender, drawn, events)
    events.append(Event("roles_switched", {"attacker": defender, "defender": seat}))
    after = state.replace(
        hands=hands,
        deck=deck,
        attacker=defender,
        attacked_last=False,
        turn=state.turn + 1,
        ply=state.ply + 1,
        last=_last_turn(state, PASS, (), False, (), drawn),
    )
    return _begin_turn(after, events)


def _begin_turn(state: HaymakerState, events: list[Event]) -> tuple[HaymakerState, list[Event]]:
    """Step 1 of a turn: the match goes on while someone holds cards and the attacker can move."""
    hands = state.hands
    if not hands[0] and not hands[1]:
        scores = (len(state.discards[0]), len(state.discards[1]))
        if scores[0] == scores[1]:
            outcome = Outcome(winners=(), ranking=((0, 1),), reason="draw", scores=scores)
        else:
            winner = 0 if scores[0] > scores[1] else 1
            ranking = ((winner,), (1 - winner,))
            outcome = Outcome(winners=(winner,), ranking=ranking, reason="decision", scores=scores)
        winners = list(outcome.winners)
        events.append(Event("decision", {"discards": list(scores), "winners": winners}))
        return state.replace(result=outcome), events
    attacker = state.attacker
    if not hands[attacker] and not state.attacked_last:  # no attack, no pass: no legal move
        winner = 1 - attacker
        events.append(Event("technical_knockout", {"winner": winner, "loser": attacker}))
        outcome = Outcome(
            winners=(winner,), ranking=((winner,), (attacker,)), reason="technical_knockout"
        )
        return state.replace(result=outcome), events
    return state, events


def _knockout(state: HaymakerState, events: list[Event]) -> tuple[HaymakerState, list[Event]]:
    """The defender takes the hit without the cards to give: the attacker wins.

    The attack stays on the table, as the blow that ended the match.
    """
    winner, loser = state.attacker, 1 - state.attacker
    count = 2 if len(state.table) > 1 else 1
    events.append(Event("hit", {"seat": loser, "attacker": winner, "count": count}))
    events.append(
        Event("knockout", {"winner": winner, "loser": loser, "cards_left": len(state.hands[loser])})
    )
    outcome = Outcome(winners=(winner,), ranking=((winner,), (loser,)), reason="knockout")
    last = _last_turn(state, TAKE_HIT, (), False, (), [0, 0])
    return state.replace(result=outcome, last=last), events


def _last_turn(
    state: HaymakerState,
    response: str,
    block: Hand,
    is_reversal: bool,
    taken: Hand,
    drawn: list[int],
) -> dict[str, Any]:
    """What the view shows of the turn just resolved (`taken` is cut for spectators)."""
    table = state.table
    if response == PASS:
        action: str = PASS
    else:
        action = HAYMAKER if len(table) > 1 else ATTACK
    return {
        "turn": state.turn,
        "attacker": state.attacker,
        "action": action,
        "attack": names(table),
        "strength": strength(table),
        "response": None if response == PASS else response,
        "block": names(block),
        "block_strength": strength(block),
        "is_reversal": is_reversal,
        "taken": names(taken),
        "taken_count": len(taken),
        "drawn": drawn,
    }


# --- how a match ends ---------------------------------------------------------------------


def outcome(state: HaymakerState) -> Outcome | None:
    return state.result


def forfeit(state: HaymakerState, seat: int, reason: str) -> Outcome:
    """Resigning or timing out: the other seat wins, whatever the position."""
    return forfeit_two_player(seat, reason)


# --- small helpers ------------------------------------------------------------------------


def _put(pair: tuple[Any, Any], seat: int, value: Any) -> tuple[Any, Any]:
    return (value, pair[1]) if seat == 0 else (pair[0], value)


def _discard(
    discards: tuple[Hand, Hand], seat: int, cards: Hand, events: list[Event]
) -> tuple[Hand, Hand]:
    pile = discards[seat] + cards
    events.append(Event("discarded", {"seat": seat, "cards": names(cards), "count": len(pile)}))
    return _put(discards, seat, pile)


def _draw(
    deck: Hand, hands: tuple[Hand, Hand], seat: int, drawn: list[int], events: list[Event]
) -> tuple[Hand, tuple[Hand, Hand]]:
    """`seat` draws the top card if there is one; only that seat learns which."""
    if not deck:
        return deck, hands
    card = deck[0]
    drawn[seat] += 1
    events.append(Event("card_drawn", {"seat": seat, "deck_count": len(deck) - 1}))
    events.append(Event("drew", {"seat": seat, "card": NAMES[card]}, (seat,)))
    return deck[1:], _put(hands, seat, tuple(sorted(hands[seat] + (card,))))
