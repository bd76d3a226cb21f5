"""A Shield position, and how a match starts: the options, the deal and the fixed deals.

Invariants:
- Every one of the 52 cards is in exactly one place: a setup hand (`dealt`, during the
  setup only), a shield, a row of HP cards, a pile of stored cards, the draw pile, the
  discard pile, or the attack on the table (`attack`, while the attacker may still boost).
- Setup hands (and so HP rows) are sorted by card id. The draw pile is drawn from its
  front; the discard pile and each pile of stored cards grow at their end (the top).
- A state is never changed once `apply` has returned it: `apply` fills in a fresh
  `copy()` and shares every tuple it did not change.
- `step` is "setup" until every seat still in the match has confirmed its shield, then
  "action", "boost" (an attack drawn, its attacker may add stored cards) or "give" (after
  an action, its player may give stored cards away), and "over" once `result` is set.
- `hp` is a number (docs/rules/shield.md): the HP cards stay in the row they were laid in.
  A seat is out once its HP reaches 0 or it forfeits; `out` lists the seats that are out,
  in the order they went. An out seat has no shield, HP cards or stored cards.
- `seed` keys the deal (label "shield/setup"), the start tie-break ("shield/start") and
  every reshuffle ("shield/reshuffle/<n>", n = `reshuffles` so far); it never leaves
  the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.engine.chance import Chance
from games.engine.core import InvalidOptions, Outcome
from games.engine.shield.cards import ALL_CARDS, CARD_COUNT, VALUE, parse, total

HAND_SIZE = 4
MIN_SEATS = 2
MAX_SEATS = 8

SETUP = "setup"
ACTION = "action"
BOOST = "boost"
GIVE = "give"
OVER = "over"

AFTER_DRAW = "after_draw"  # stored cards join an attack after its draw is seen (the example)
BEFORE_DRAW = "before_draw"  # they are committed with the attack, before the draw
BOOST_RULES = (AFTER_DRAW, BEFORE_DRAW)
TIE_SHIELD = "shield"  # tied lowest HP: the lower shield starts, then the seed decides
TIE_RANDOM = "random"  # tied lowest HP: the seed decides among them
START_TIE_RULES = (TIE_SHIELD, TIE_RANDOM)
OPTION_NAMES = ("boost", "start_tie", "deal")

Cards = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Rules:
    """The match options that change how the rules play (fixed for the whole match)."""

    boost: str = AFTER_DRAW
    start_tie: str = TIE_SHIELD

    def to_json(self) -> dict[str, str]:
        return {"boost": self.boost, "start_tie": self.start_tie}


class ShieldState:
    """One position. Immutable by convention: `apply` builds a new one."""

    __slots__ = (
        "rules",
        "seats",
        "dealt",
        "picks",
        "confirmed",
        "shields",
        "hp_cards",
        "hp",
        "stored",
        "deck",
        "discard",
        "out",
        "turn",
        "step",
        "attack",
        "last",
        "ply",
        "reshuffles",
        "result",
        "seed",
    )

    def __init__(
        self,
        rules: Rules,
        seats: int,
        dealt: tuple[Cards, ...],
        picks: tuple[int | None, ...],
        confirmed: tuple[bool, ...],
        shields: tuple[int | None, ...],
        hp_cards: tuple[Cards, ...],
        hp: tuple[int, ...],
        stored: tuple[Cards, ...],
        deck: Cards,
        discard: Cards,
        out: tuple[int, ...],
        turn: int | None,
        step: str,
        attack: tuple[int, Cards] | None,
        last: dict[str, Any] | None,
        ply: int,
        reshuffles: int,
        result: Outcome | None,
        seed: bytes,
    ) -> None:
        self.rules = rules
        self.seats = seats
        self.dealt = dealt
        self.picks = picks
        self.confirmed = confirmed
        self.shields = shields
        self.hp_cards = hp_cards
        self.hp = hp
        self.stored = stored
        self.deck = deck
        self.discard = discard
        self.out = out
        self.turn = turn
        self.step = step
        self.attack = attack
        self.last = last
        self.ply = ply
        self.reshuffles = reshuffles
        self.result = result
        self.seed = seed

    def replace(self, **changes: Any) -> ShieldState:
        """A copy with some fields changed (spelled out: this is on every move's path)."""
        get = changes.get
        return ShieldState(
            get("rules", self.rules),
            get("seats", self.seats),
            get("dealt", self.dealt),
            get("picks", self.picks),
            get("confirmed", self.confirmed),
            get("shields", self.shields),
            get("hp_cards", self.hp_cards),
            get("hp", self.hp),
            get("stored", self.stored),
            get("deck", self.deck),
            get("discard", self.discard),
            get("out", self.out),
            get("turn", self.turn),
            get("step", self.step),
            get("attack", self.attack),
            get("last", self.last),
            get("ply", self.ply),
            get("reshuffles", self.reshuffles),
            get("result", self.result),
            get("seed", self.seed),
        )

    def copy(self) -> ShieldState:
        """A fresh copy for `apply` to fill in: a state is only ever changed between its
        creation here and its return from `apply`, never after (spelled out for speed)."""
        new = ShieldState.__new__(ShieldState)
        new.rules = self.rules
        new.seats = self.seats
        new.dealt = self.dealt
        new.picks = self.picks
        new.confirmed = self.confirmed
        new.shields = self.shields
        new.hp_cards = self.hp_cards
        new.hp = self.hp
        new.stored = self.stored
        new.deck = self.deck
        new.discard = self.discard
        new.out = self.out
        new.turn = self.turn
        new.step = self.step
        new.attack = self.attack
        new.last = self.last
        new.ply = self.ply
        new.reshuffles = self.reshuffles
        new.result = self.result
        new.seed = self.seed
        return new

    def living(self) -> list[int]:
        """The seats still in the match, in seat (clockwise) order."""
        out = self.out
        return [seat for seat in range(self.seats) if seat not in out]

    def every_card(self) -> list[int]:
        """All the cards of the position, wherever they are (for invariant checks)."""
        cards: list[int] = [*self.deck, *self.discard]
        for seat in range(self.seats):
            cards += self.dealt[seat]
            cards += self.hp_cards[seat]
            cards += self.stored[seat]
            shield = self.shields[seat]
            if shield is not None:
                cards.append(shield)
        if self.attack is not None:
            cards += self.attack[1]
        return cards

    def _key(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ShieldState):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash((self.shields, self.hp, self.deck, self.ply))

    def __repr__(self) -> str:
        return (
            f"ShieldState(ply={self.ply}, step={self.step}, turn={self.turn}, hp={self.hp}, "
            f"stored={tuple(len(pile) for pile in self.stored)}, deck={len(self.deck)}, "
            f"discard={len(self.discard)}, out={self.out})"
        )


# --- a new match ----------------------------------------------------------------------------


def parse_options(options: Mapping[str, Any] | None) -> tuple[Rules, Any]:
    """(the rules options, the fixed deal or None), each checked."""
    options = options or {}
    if not isinstance(options, Mapping):
        raise InvalidOptions("Shield's options are a JSON object.")
    for name in options:
        if name not in OPTION_NAMES:
            raise InvalidOptions(f"Shield has no option “{name}” (known: boost, start_tie, deal).")
    boost = options.get("boost", AFTER_DRAW)
    if boost not in BOOST_RULES:
        raise InvalidOptions('The "boost" option is "after_draw" or "before_draw".')
    start_tie = options.get("start_tie", TIE_SHIELD)
    if start_tie not in START_TIE_RULES:
        raise InvalidOptions('The "start_tie" option is "shield" or "random".')
    return Rules(boost, start_tie), options.get("deal")


def new_state(seats: int, seed: bytes, options: Mapping[str, Any] | None) -> ShieldState:
    if type(seats) is not int or not MIN_SEATS <= seats <= MAX_SEATS:
        raise InvalidOptions("Shield is played by 2 to 8 players.")
    rules, deal = parse_options(options)
    if deal is None:
        order = Chance(seed, "shield/setup").shuffle(ALL_CARDS)
        dealt = tuple(
            tuple(sorted(order[HAND_SIZE * s : HAND_SIZE * (s + 1)])) for s in range(seats)
        )
        return _setup_state(rules, seats, seed, dealt, tuple(order[HAND_SIZE * seats :]), ())
    return _fixed_state(rules, seats, seed, deal)


def _setup_state(
    rules: Rules,
    seats: int,
    seed: bytes,
    dealt: tuple[Cards, ...],
    deck: Cards,
    discard: Cards,
    stored: tuple[Cards, ...] | None = None,
) -> ShieldState:
    empty: tuple[Cards, ...] = ((),) * seats
    return ShieldState(
        rules=rules,
        seats=seats,
        dealt=dealt,
        picks=(None,) * seats,
        confirmed=(False,) * seats,
        shields=(None,) * seats,
        hp_cards=empty,
        hp=(0,) * seats,
        stored=stored if stored is not None else empty,
        deck=deck,
        discard=discard,
        out=(),
        turn=None,
        step=SETUP,
        attack=None,
        last=None,
        ply=0,
        reshuffles=0,
        result=None,
        seed=bytes(seed),
    )


def first_player(rules: Rules, state_seed: bytes, shields: tuple[int | None, ...], hp: Any) -> int:
    """Who starts: the lowest HP; a tie by the match's `start_tie` rule (docs/rules/shield.md)."""
    living = [seat for seat, shield in enumerate(shields) if shield is not None]
    lowest = min(hp[seat] for seat in living)
    tied = [seat for seat in living if hp[seat] == lowest]
    if rules.start_tie == TIE_SHIELD and len(tied) > 1:
        values = {seat: VALUE[shields[seat]] for seat in tied}  # type: ignore[index]
        weakest = min(values.values())
        tied = [seat for seat in tied if values[seat] == weakest]
    if len(tied) == 1:
        return tied[0]
    return tied[Chance(state_seed, "shield/start").randbelow(len(tied))]


# --- fixed deals ------------------------------------------------------------------------------

DEAL_KEYS = ("deck", "hands", "discard", "stored", "shields", "hp")
DEAL_HELP = (
    'A Shield deal is {"deck": [52 card names]} (four cards each in seat order, the rest to '
    'draw, top first) or {"hands": [[4 cards] per seat], "deck": [...]} with optional '
    '"discard" (bottom first), "stored" ([[...] per seat]), "shields" (one card of each hand: '
    'skips the setup) and "hp" (per seat, with "shields").'
)


def _cards(raw: Any, where: str) -> Cards:
    cards = parse(raw)
    if isinstance(cards, str):
        raise InvalidOptions(f"In the deal's {where}: {cards}")
    return cards


def _per_seat(deal: Mapping[str, Any], key: str, seats: int) -> list[Any]:
    raw = deal[key]
    if not isinstance(raw, list | tuple) or len(raw) != seats:
        raise InvalidOptions(f"The deal's “{key}” lists exactly one entry per seat ({seats}).")
    return list(raw)


def _fixed_state(rules: Rules, seats: int, seed: bytes, deal: Any) -> ShieldState:
    if not isinstance(deal, Mapping) or "deck" not in deal:
        raise InvalidOptions(DEAL_HELP)
    for key in deal:
        if key not in DEAL_KEYS:
            raise InvalidOptions(f"A Shield deal has no “{key}”. {DEAL_HELP}")
    deck = _cards(deal["deck"], "deck")
    if "hands" not in deal:
        if set(deal) != {"deck"} or len(deck) != CARD_COUNT or len(set(deck)) != CARD_COUNT:
            raise InvalidOptions(f"A Shield deck alone lists all 52 cards once. {DEAL_HELP}")
        dealt = tuple(
            tuple(sorted(deck[HAND_SIZE * s : HAND_SIZE * (s + 1)])) for s in range(seats)
        )
        return _setup_state(rules, seats, seed, dealt, deck[HAND_SIZE * seats :], ())
    hands = tuple(
        tuple(sorted(_cards(hand, f"hand of seat {seat}")))
        for seat, hand in enumerate(_per_seat(deal, "hands", seats))
    )
    if any(len(hand) != HAND_SIZE for hand in hands):
        raise InvalidOptions("Each hand of a Shield deal has exactly four cards.")
    discard = _cards(deal.get("discard", []), "discard pile")
    stored: tuple[Cards, ...] = ((),) * seats
    if "stored" in deal:
        stored = tuple(
            _cards(pile, f"stored cards of seat {seat}")
            for seat, pile in enumerate(_per_seat(deal, "stored", seats))
        )
    placed = [card for hand in hands for card in hand] + list(deck) + list(discard)
    placed += [card for pile in stored for card in pile]
    if len(placed) != CARD_COUNT or len(set(placed)) != CARD_COUNT:
        raise InvalidOptions(f"A Shield deal places all 52 cards exactly once. {DEAL_HELP}")
    state = _setup_state(rules, seats, seed, hands, deck, discard, stored)
    if "shields" in deal:
        return _laid_out(state, deal, seats)
    if "hp" in deal:
        raise InvalidOptions('A deal sets "hp" only together with "shields".')
    return state


def _laid_out(state: ShieldState, deal: Mapping[str, Any], seats: int) -> ShieldState:
    """A fixed deal with every shield chosen: the match starts in play, setup skipped."""
    shields = _cards(_per_seat(deal, "shields", seats), "shields")
    rows = []
    for seat, shield in enumerate(shields):
        if shield not in state.dealt[seat]:
            raise InvalidOptions(f"The shield of seat {seat} must be one of its four cards.")
        rows.append(tuple(card for card in state.dealt[seat] if card != shield))
    hp = [total(row) for row in rows]
    if "hp" in deal:
        hp = _per_seat(deal, "hp", seats)
        if any(type(value) is not int or not 1 <= value <= 999 for value in hp):
            raise InvalidOptions("HP in a Shield deal are whole numbers from 1 to 999.")
    first = first_player(state.rules, state.seed, tuple(shields), hp)
    return state.replace(
        dealt=((),) * seats,
        picks=tuple(shields),
        confirmed=(True,) * seats,
        shields=tuple(shields),
        hp_cards=tuple(rows),
        hp=tuple(hp),
        turn=first,
        step=ACTION,
    )
