"""High Card: each player draws, the higher card wins the round, best of five.

Invariants: two seats; a 52-card deck (ranks 2 to 14, four suits) shuffled from the match
seed; a round is two draws, the round's first drawer alternating (seat 0 first); the higher
rank takes the round and equal ranks take nothing; the first to three rounds wins, and if
the deck runs out first the most rounds win (equal: a draw). The deck's order is the only
hidden thing. Pure: imports the standard library and `games.engine.core` only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from games.engine.core import (
    Chance,
    Event,
    IllegalMove,
    InvalidOptions,
    Move,
    Outcome,
    forfeit_two_player,
)

WINS_NEEDED = 3
SUITS = "CDHS"
DECK = tuple(f"{rank}{suit}" for rank in range(2, 15) for suit in SUITS)
DRAW = {"type": "draw"}


def rank(card: str) -> int:
    return int(card[:-1])


@dataclass(frozen=True)
class HighCardState:
    deck: tuple[str, ...]  # top first; hidden
    table: tuple[str | None, str | None]  # this round's cards, by seat
    wins: tuple[int, int]
    rounds: int  # rounds played
    winner: int | None = None
    is_over: bool = False


class HighCard:
    slug = "highcard"
    name = "High Card"
    min_seats = 2
    max_seats = 2

    def new(
        self, seats: int, seed: bytes, options: Mapping[str, Any] | None = None
    ) -> HighCardState:
        if seats != 2:
            raise InvalidOptions("High Card is for two players.")
        deal = (options or {}).get("deal")
        deck = tuple(deal) if deal else tuple(Chance(seed, "highcard/setup").shuffle(list(DECK)))
        return HighCardState(deck=deck, table=(None, None), wins=(0, 0), rounds=0)

    def to_act(self, state: HighCardState) -> tuple[int, ...]:
        if state.is_over:
            return ()
        first = state.rounds % 2
        return (first,) if state.table[first] is None else (1 - first,)

    def legal_moves(self, state: HighCardState, seat: int) -> list[Move]:
        return [dict(DRAW)] if seat in self.to_act(state) else []

    def is_legal(self, state: HighCardState, seat: int, move: Move) -> bool:
        return seat in self.to_act(state) and move == DRAW

    def apply(
        self, state: HighCardState, seat: int, move: Move
    ) -> tuple[HighCardState, list[Event]]:
        if state.is_over:
            raise IllegalMove("The match is over.")
        if seat not in self.to_act(state):
            raise IllegalMove("It is not your turn to draw.")
        if move != DRAW:
            raise IllegalMove("In High Card the only move is to draw.")
        card, deck = state.deck[0], state.deck[1:]
        table = list(state.table)
        table[seat] = card
        events = [Event("drawn", {"seat": seat, "card": card})]
        if None in table:
            return replace(state, deck=deck, table=(table[0], table[1])), events
        return self._round_over(state, deck, (table[0], table[1]), events)

    def _round_over(
        self,
        state: HighCardState,
        deck: tuple[str, ...],
        table: tuple[str | None, str | None],
        events: list[Event],
    ) -> tuple[HighCardState, list[Event]]:
        ranks = [rank(card or "0X") for card in table]
        wins = list(state.wins)
        taker = None if ranks[0] == ranks[1] else (0 if ranks[0] > ranks[1] else 1)
        if taker is not None:
            wins[taker] += 1
        events.append(Event("round", {"seat": taker, "cards": list(table)}))
        is_over = max(wins) >= WINS_NEEDED or len(deck) < 2
        winner = None
        if is_over and wins[0] != wins[1]:
            winner = 0 if wins[0] > wins[1] else 1
        after = HighCardState(
            deck=deck,
            table=(None, None),
            wins=(wins[0], wins[1]),
            rounds=state.rounds + 1,
            winner=winner,
            is_over=is_over,
        )
        return after, events

    def outcome(self, state: HighCardState) -> Outcome | None:
        if not state.is_over:
            return None
        scores = state.wins
        if state.winner is None:
            return Outcome(winners=(), ranking=((0, 1),), reason="best_of_five", scores=scores)
        loser = 1 - state.winner
        return Outcome(
            winners=(state.winner,),
            ranking=((state.winner,), (loser,)),
            reason="best_of_five",
            scores=scores,
        )

    def forfeit(self, state: HighCardState, seat: int, reason: str) -> Outcome:
        return forfeit_two_player(seat, reason)

    def view(self, state: HighCardState, seat: int | None) -> dict[str, Any]:
        return {
            "seat": seat,
            "table": list(state.table),
            "wins": list(state.wins),
            "rounds": state.rounds,
            "deck_count": len(state.deck),
            "to_act": list(self.to_act(state)),
            "outcome": self.outcome(state).to_json() if state.is_over else None,
        }

    def revealed_view(self, state: HighCardState) -> dict[str, Any]:
        hidden = [{"pile": "deck", "seat": None, "order": "top first", "cards": list(state.deck)}]
        return {**self.view(state, None), "revealed": True, "hidden": hidden}

    def sample_hidden(self, state: HighCardState, seat: int, chance: Chance) -> HighCardState:
        return replace(state, deck=tuple(chance.shuffle(list(state.deck))))
