"""How much can any fair Grimhand Tactics strategy win against Normal and against Easy?

Grimhand's AI ladder target asks Hard for 53% against Normal (docs/benchmarks.md, "AI
ladder"). This script bounds what is possible by solving a model of the game exactly.

The model is the death-card game: Grimhand with HP left out, which is how 92.5% of
Normal-v-Normal matches end (the rest end on HP). A position is what both players know:
per deck the cards left, the Death cards (13s) and Lucky 7s among them; per player the
Lucky slot (full or empty) and whether the attack hand holds a card. Every order of the
unseen cards is equally likely, so a draw is a 13 with probability 13s/cards, a 7 with
7s/cards, else a plain card. A 13 ends the match unless a 7 sits in the drawer's slot
(then both are spent); a 7 fills an empty slot; a plain attack card makes an attack
possible next turn; an attack spends the attack hand. Reshuffles are left out: a 52-card
deck is rarely drawn through (a deck that runs out can no longer be drawn from). With no
13 left in either deck nobody can lose: the match counts as a draw (0.5).

Normal is modelled move for move from `games.ai.grimhand_greedy` on such a position (its
HP terms, the sure kill and the guard, never apply without HP): attack when it can,
otherwise draw from the deck whose Death chance (halved with a full slot), less the
attack card's `SAFE_TURN` bonus, is lowest. Easy picks uniformly among the legal moves,
like the random bot. The best response is computed by expectimax: at each of its turns it
takes the move with the highest chance to win against the opponent's known policy, so
in the model no strategy that sees only what a seat may see wins more, searching or not.
(HP adds what the model leaves out: tests/engine/grimhand/test_ceiling_model.py checks
the model against the engine on decks where HP never decides.)

Run: `.venv/bin/python benchmarks/grimhand_ceiling.py` (13 minutes and 4.5 GB of memory;
the largest solve, the best response against Easy, visits 17 million positions). It writes
`results/grimhand_ceiling.json` and never fails: it measures a bound, it has no target.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

import common

from games.ai.grimhand_greedy import LUCKY_DEATH_COST, SAFE_TURN

COPIES = 4  # the default deck: four of each value per deck
ATTACK, DEFENSE, STRIKE = 0, 1, 2  # draw from the attack deck, the defense deck; attack

# A position: (attack cards, 13s, 7s, defense cards, 13s, 7s, slot 0, slot 1, armed 0,
# armed 1), "armed" meaning the attack hand holds at least one card.
Position = tuple[int, int, int, int, int, int, bool, bool, bool, bool]
Policy = Callable[[Position, int], list[tuple[float, int]]]  # (probability, move) pairs
START: Position = (13 * COPIES, COPIES, COPIES, 13 * COPIES, COPIES, COPIES) + (False,) * 4


def legal(position: Position, seat: int) -> list[int]:
    moves = [kind for kind in (ATTACK, DEFENSE) if position[3 * kind]]
    if position[8 + seat]:
        moves.append(STRIKE)
    return moves


def normal(position: Position, seat: int) -> list[tuple[float, int]]:
    """Normal's move (the greedy heuristic without its HP terms)."""
    if position[8 + seat]:
        return [(1.0, STRIKE)]
    cost = LUCKY_DEATH_COST if position[6 + seat] else 1.0
    scores = {
        kind: (SAFE_TURN if kind == ATTACK else 0.0) - position[3 * kind + 1] / cards * cost
        for kind in (ATTACK, DEFENSE)
        if (cards := position[3 * kind])
    }
    return [(1.0, max(scores, key=scores.__getitem__))]


def easy(position: Position, seat: int) -> list[tuple[float, int]]:
    """Easy's moves, each equally likely."""
    moves = legal(position, seat)
    return [(1 / len(moves), move) for move in moves]


def results(position: Position, seat: int, move: int) -> list[tuple[float, Position | None]]:
    """What `move` may lead to: (probability, position), None for the mover's loss."""
    fields = list(position)
    if move == STRIKE:
        fields[8 + seat] = False
        return [(1.0, tuple(fields))]  # type: ignore[list-item]
    cards, deaths, sevens = fields[3 * move : 3 * move + 3]
    outcomes: list[tuple[float, Position | None]] = []

    def after(deaths_left: int, sevens_left: int, slot: bool, armed: bool) -> Position:
        changed = list(fields)
        changed[3 * move : 3 * move + 3] = [cards - 1, deaths_left, sevens_left]
        changed[6 + seat] = slot
        changed[8 + seat] = armed
        return tuple(changed)  # type: ignore[return-value]

    slot, armed = fields[6 + seat], fields[8 + seat]
    if deaths:
        saved = after(deaths - 1, sevens, False, armed) if slot else None
        outcomes.append((deaths / cards, saved))
    if sevens:  # into an empty slot; with the slot full, a plain card
        seven = after(deaths, sevens - 1, True, armed or (slot and move == ATTACK))
        outcomes.append((sevens / cards, seven))
    plain = cards - deaths - sevens
    if plain:
        outcomes.append((plain / cards, after(deaths, sevens, slot, armed or move == ATTACK)))
    return outcomes


def solve(
    first: Policy | None, second: Policy, start: Position = START, movers: tuple[int, ...] = (0, 1)
) -> float:
    """Seat 0's chance to win from `start`, averaged over who moves first (`movers`).

    `first` is seat 0's policy, None for the best response; `second` is seat 1's.
    """
    memo: dict[tuple[Position, int], float] = {}

    def value(position: Position, turn: int) -> float:
        key = (position, turn)
        known = memo.get(key)
        if known is not None:
            return known
        if not position[1] and not position[4]:
            found = 0.5
        elif turn == 0 and first is None:
            found = max(worth(position, 0, move) for move in legal(position, 0))
        else:
            policy = first if turn == 0 else second
            assert policy is not None
            found = sum(p * worth(position, turn, move) for p, move in policy(position, turn))
        memo[key] = found
        return found

    def worth(position: Position, turn: int, move: int) -> float:
        total = 0.0
        for probability, following in results(position, turn, move):
            if following is None:
                total += probability * (0.0 if turn == 0 else 1.0)
            else:
                total += probability * value(following, 1 - turn)
        return total

    chance = sum(value(start, turn) for turn in movers) / len(movers)
    solve.positions = len(memo)  # type: ignore[attr-defined]
    return chance


def main() -> None:
    sys.setrecursionlimit(10_000)
    pairs = {
        "normal_v_normal": (normal, normal),
        "normal_v_easy": (normal, easy),
        "best_v_easy": (None, easy),
        "best_v_normal": (None, normal),
    }
    sections = {}
    for name, (first, second) in pairs.items():
        started = time.perf_counter()
        chance = solve(first, second)
        sections[name] = {
            "seat_0_wins": round(chance, 5),
            "positions": solve.positions,  # type: ignore[attr-defined]
            "seconds": round(time.perf_counter() - started, 1),
        }
        print(name, sections[name], flush=True)
    common.finish(common.result("grimhand_ceiling", copies=COPIES, **sections))


if __name__ == "__main__":
    main()
