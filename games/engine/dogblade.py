"""Dog Blade: two decks of random ATK/HP monsters fight one at a time (rules/dog-blade.md).

Decisions are in docs/rules/dogblade.md. Invariants:
- Two seats. Each deck is a fixed tuple of (atk, hp) cards, made once in `new` from the
  chance source (or given by `options["deal"]`); play never reorders it, so states share it.
- `drawn[s]` counts the cards seat s has put into play; its active monster is
  `decks[s][drawn[s] - 1]` with `hp[s]` left. A monster at 0 HP or below is defeated and the
  next card enters at full HP; excess damage does not carry over.
- The only move is {"type": "attack"}, by the seat whose turn it is; turns always alternate,
  so the side whose monster just fell attacks next with its fresh monster (the "defender's
  advantage" of the rules).
- A side whose monster falls with nothing left to draw has run out of cards and loses.
  Only one monster falls per move, so there are no draws.
- Undrawn cards are hidden from both seats (nobody knows the order or stats of a face-down
  deck, not even its owner); active and defeated monsters are public.
"""

from __future__ import annotations

from collections.abc import Mapping
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

DECK_SIZE = 20
ATK_VALUES = tuple(range(10, 61, 10))  # 10..60, as the example's 50 and 30
HP_VALUES = tuple(range(30, 151, 10))  # 30..150, as the example's 60 and 120
ATTACK: Move = {"type": "attack"}

Card = tuple[int, int]  # (atk, hp)


class DogBladeState:
    """One position. Immutable by convention: `apply` builds a new one."""

    __slots__ = ("decks", "drawn", "hp", "turn", "ply", "winner")

    def __init__(
        self,
        decks: tuple[tuple[Card, ...], tuple[Card, ...]],
        drawn: tuple[int, int],
        hp: tuple[int, int],
        turn: int,
        ply: int,
        winner: int | None,
    ) -> None:
        self.decks = decks
        self.drawn = drawn
        self.hp = hp
        self.turn = turn
        self.ply = ply
        self.winner = winner

    def active(self, seat: int) -> Card:
        return self.decks[seat][self.drawn[seat] - 1]

    def _key(self) -> tuple[Any, ...]:
        return (self.decks, self.drawn, self.hp, self.turn, self.ply, self.winner)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DogBladeState) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"DogBladeState(drawn={self.drawn}, hp={self.hp}, turn={self.turn}, ply={self.ply})"


def random_card(chance: Chance) -> Card:
    return (chance.choice(ATK_VALUES), chance.choice(HP_VALUES))


def _deal_from_options(deal: Any) -> tuple[tuple[tuple[Card, ...], tuple[Card, ...]], int | None]:
    if not isinstance(deal, Mapping) or "decks" not in deal:
        raise InvalidOptions('A Dog Blade deal is {"decks": [[[atk, hp], ...], [...]]}.')
    decks = deal["decks"]
    if not isinstance(decks, list | tuple) or len(decks) != 2:
        raise InvalidOptions("A Dog Blade deal needs exactly two decks.")
    parsed: list[tuple[Card, ...]] = []
    for deck in decks:
        if not isinstance(deck, list | tuple) or not deck:
            raise InvalidOptions("Each deck of a Dog Blade deal needs at least one card.")
        cards = []
        for card in deck:
            if (
                not isinstance(card, list | tuple)
                or len(card) != 2
                or not all(type(stat) is int and stat > 0 for stat in card)
            ):
                raise InvalidOptions(
                    "Each Dog Blade card is [atk, hp] with positive whole numbers."
                )
            cards.append((card[0], card[1]))
        parsed.append(tuple(cards))
    first = deal.get("first")
    if first not in (None, 0, 1):
        raise InvalidOptions("The first seat of a Dog Blade deal is 0 or 1.")
    return (parsed[0], parsed[1]), first


class DogBlade:
    slug = "dogblade"
    name = "Dog Blade"
    min_seats = 2
    max_seats = 2
    has_choices = False  # every move is forced: players may switch on auto-play

    def new(
        self, seats: int, seed: bytes, options: Mapping[str, Any] | None = None
    ) -> DogBladeState:
        if seats != 2:
            raise InvalidOptions("Dog Blade is played by exactly two players.")
        options = options or {}
        chance = Chance(seed, "dogblade/setup")
        first: int | None = None
        if "deal" in options:
            decks, first = _deal_from_options(options["deal"])
        else:
            decks = (
                tuple(random_card(chance) for _ in range(DECK_SIZE)),
                tuple(random_card(chance) for _ in range(DECK_SIZE)),
            )
        if first is None:
            first = chance.randbelow(2)
        return DogBladeState(decks, (1, 1), (decks[0][0][1], decks[1][0][1]), first, 0, None)

    def to_act(self, state: DogBladeState) -> tuple[int, ...]:
        return () if state.winner is not None else (state.turn,)

    def legal_moves(self, state: DogBladeState, seat: int) -> list[Move]:
        if state.winner is None and seat == state.turn:
            return [{"type": "attack"}]
        return []

    def is_legal(self, state: DogBladeState, seat: int, move: Move) -> bool:
        try:
            self._check(state, seat, move)
        except IllegalMove:
            return False
        return True

    def _check(self, state: DogBladeState, seat: int, move: Move) -> None:
        if state.winner is not None:
            raise IllegalMove("The match is over.")
        if seat != state.turn:
            raise IllegalMove("It is not your turn.")
        if not isinstance(move, Mapping) or move.get("type") != "attack":
            raise IllegalMove("In Dog Blade the only move is to attack.")

    def apply(
        self, state: DogBladeState, seat: int, move: Move
    ) -> tuple[DogBladeState, list[Event]]:
        self._check(state, seat, move)
        target = 1 - seat
        atk = state.active(seat)[0]
        left = state.hp[target] - atk
        events = [
            Event("attack", {"seat": seat, "target": target, "damage": atk, "hp": max(left, 0)})
        ]
        drawn = state.drawn
        winner = None
        if left <= 0:
            events.append(
                Event("monster_defeated", {"seat": target, "card": list(state.active(target))})
            )
            if drawn[target] < len(state.decks[target]):
                card = state.decks[target][drawn[target]]
                left = card[1]
                drawn = (drawn[0] + 1, drawn[1]) if target == 0 else (drawn[0], drawn[1] + 1)
                events.append(Event("monster_drawn", {"seat": target, "card": list(card)}))
            else:
                left = 0
                winner = seat
                events.append(Event("out_of_cards", {"seat": target, "winner": seat}))
        hp = (left, state.hp[1]) if target == 0 else (state.hp[0], left)
        return DogBladeState(state.decks, drawn, hp, target, state.ply + 1, winner), events

    def outcome(self, state: DogBladeState) -> Outcome | None:
        if state.winner is None:
            return None
        loser = 1 - state.winner
        return Outcome(
            winners=(state.winner,), ranking=((state.winner,), (loser,)), reason="out_of_cards"
        )

    def forfeit(self, state: DogBladeState, seat: int, reason: str) -> Outcome:
        return forfeit_two_player(seat, reason)

    def view(self, state: DogBladeState, seat: int | None) -> dict[str, Any]:
        outcome = self.outcome(state)
        return {
            "game": self.slug,
            "ply": state.ply,
            "seat": seat,
            "to_act": list(self.to_act(state)),
            "sides": [self._side_view(state, side) for side in (0, 1)],
            "outcome": outcome.to_json() if outcome else None,
        }

    def revealed_view(self, state: DogBladeState) -> dict[str, Any]:
        """The spectator view and every undrawn card, in the order it would enter play."""
        hidden = [
            {
                "pile": "deck",
                "seat": side,
                "order": "next first",
                "cards": [list(card) for card in state.decks[side][state.drawn[side] :]],
            }
            for side in (0, 1)
        ]
        return {**self.view(state, None), "revealed": True, "hidden": hidden}

    def _side_view(self, state: DogBladeState, side: int) -> dict[str, Any]:
        drawn = state.drawn[side]
        is_out = state.winner is not None and state.winner != side
        atk, max_hp = state.active(side)
        defeated = state.decks[side][: drawn if is_out else drawn - 1]
        return {
            "seat": side,
            "active": None if is_out else {"atk": atk, "hp": state.hp[side], "max_hp": max_hp},
            "deck_count": len(state.decks[side]) - drawn,
            "cards_left": len(state.decks[side]) - drawn + (0 if is_out else 1),
            "defeated": [list(card) for card in defeated],
        }

    def sample_hidden(self, state: DogBladeState, seat: int, chance: Chance) -> DogBladeState:
        """Redraw every undrawn card (hidden from both seats) from the deck distribution."""
        decks = tuple(
            deck[: state.drawn[side]]
            + tuple(random_card(chance) for _ in deck[state.drawn[side] :])
            for side, deck in enumerate(state.decks)
        )
        return DogBladeState(decks, state.drawn, state.hp, state.turn, state.ply, state.winner)  # type: ignore[arg-type]
