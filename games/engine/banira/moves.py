"""What BaniraCards' moves cost, and the list of legal moves.

Decisions are in docs/rules/banira.md; the move vocabulary is in docs/move-log.md.
Invariants:
- The next unlock costs (slots unlocked + 1) points; the next play onto an empty slot
  costs (slots covered + 1) stamina; stacking costs `STACK_COST` of the top card's rarity.
- A play pays its stamina cost first, then gains the card's stats: it is affordable when
  the cost is at most the stamina held and neither points nor stamina would end below
  zero. `placement` and `affordability` say why not, in words a player can read.
- `legal_moves` lists exactly the moves `rules.check` accepts, in a fixed order, and at
  most 7 x 3 + 10 + 7 + 2 of them (a card fits three slots at most). `has_legal_move`
  answers the same question without building the list (it ends stuck runs).
"""

from __future__ import annotations

from functools import lru_cache

from games.engine.banira.cards import (
    ACCEPTED_RARITIES,
    ACCEPTS,
    ALL_SLOTS_MASK,
    ELEMENTS,
    RARITIES,
    SLOT_COUNT,
    SLOT_LABELS,
    SLOTS,
    STACK_COST,
    TYPES,
    Card,
)
from games.engine.banira.state import HAND_LIMIT, BaniraState
from games.engine.core import Move

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
