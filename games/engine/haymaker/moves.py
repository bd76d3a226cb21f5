"""The bounded list of Haymaker's legal moves: the choices that matter, never every subset.

Invariants:
- Every listed move passes `rules.check`, so `apply` accepts it; `apply` also accepts
  every legal move that is not listed (any block, any haymaker).
- The attacker's list has at most n + 13 moves for a hand of n cards, the defender's at
  most 4 (docs/rules/haymaker.md, "The bounded list of legal moves").
- Blocks are found with a subset-sum bit set, one shift per card: the cost grows with
  the hand size, never with the number of its subsets.
"""

from __future__ import annotations

from games.engine.core import Move
from games.engine.haymaker.cards import NAMES, RANK, SUIT, names, strength
from games.engine.haymaker.rules import ATTACK, BLOCK, HAYMAKER, PASS, TAKE_HIT, to_act
from games.engine.haymaker.state import Hand, HaymakerState


def legal_moves(state: HaymakerState, seat: int) -> list[Move]:
    """A bounded set covering the choices that matter (docs/rules/haymaker.md, "Moves").

    Attacker: every one-card attack, per suit the full-suit haymaker and the weakest and
    strongest two-card ones, and the pass when allowed: at most n + 13 moves for a hand of
    n cards. Defender: take the hit and at most three blocks: at most 4 moves.
    """
    if seat != to_act(state):
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
