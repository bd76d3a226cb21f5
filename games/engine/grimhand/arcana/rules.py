"""Grimhand Arcana rules: whose turn it is, which moves are legal, what a move does, and
how a match ends.

Decisions are in docs/rules/grimhand.md, part "Arcana". Invariants:
- A turn: any number of ability plays (`play`, each paid with energy, the turn goes on),
  then exactly one main action that ends it: `draw` (attack, defense or arcana deck) or
  `attack`. `pass` is legal only when no main action is (a fixed deal without cards).
  No two arcana draws in a row (from the rules' edition 2 on): a seat whose last main
  action was the arcana draw may not draw from the arcana deck this turn
  (`state.arcana_barred`; a stalling pair of safe draws could otherwise go on for ever).
  From edition 3 on, a seat's turns past its 20th start with HP lost, 1 more each turn
  (`state.fatigue`): two seats holding more defense than any attack cannot stall either.
- A seat that owes a choice (`pending`) may only `choose`; while any seat owes one, only
  the seats that owe one act (Swap Hands: both at once).
- `check` is the only gate: `apply` and `is_legal` go through it, and `legal_moves` lists
  moves it accepts (every play with every target, every choice).
- Every numbered card returns to the discard pile of the hand or deck it leaves; every
  ability card to its owner's ability discard pile (face up). A spent deck takes its
  discard pile back, shuffled, at once; so does a seat's spent ability deck when it must
  draw. The n-th shuffle or random pick of the match uses `Chance(seed,
  f"arcana/chance/{n}")`.
- A turn starts (for the seat to move next): the seat's turn count goes up, its energy is
  set (the other seat's unspent energy is lost), the match event heals, then its
  statuses tick (Bleed hits, turns go down, a status at 0 ends). HP stays within
  0..starting HP; the match ends at 0 HP or an unsaved Death card; exactly one seat wins.
- `apply` never mutates its input: a move works on a `_Table`, a mutable copy frozen into
  the new state at the end.
- Pure: imports the standard library, `games.engine.core` and this package's `state`,
  `cards`, `statuses`, `events` and `bosses`.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Mapping
from itertools import permutations
from typing import Any

from games.engine.core import Chance, Event, IllegalMove, Move, Outcome, forfeit_two_player
from games.engine.grimhand.arcana import statuses as st
from games.engine.grimhand.arcana.cards import EFFECTS, CardDef, Clash
from games.engine.grimhand.arcana.state import (
    ABILITY_HAND_LIMIT,
    ATTACK,
    BOSS_BLEED_TURNS,
    COMBO_BONUS,
    COMBO_STREAK,
    DEATH,
    DECKS,
    DEFENSE,
    ENERGY_MAX,
    HAND_LIMIT,
    LUCKY,
    ArcanaState,
    Hand,
    Ids,
    arcana_barred,
    fatigue,
)

EMPTY_DECK = "That deck and its discard pile are both empty."
ARCANA_TWICE = (
    "You drew from the arcana deck last turn: draw from the attack or the defense deck, or attack."
)
DRAW_DECKS = ("attack", "defense", "arcana")
_STATUS_TRIGGERS_ON_DRAW = (("hex", "draw"), ("mist", "draw_attack"), ("guardian", "draw_defense"))


class _Table:
    """The fields of a state that a move may change, mutable while the move resolves."""

    def __init__(self, state: ArcanaState, events: list[Event]) -> None:
        self.setup = state.setup
        self.events = events
        self.decks = list(state.decks)
        self.discards = list(state.discards)
        hands, mods = state.hands, state.mods
        self.hands = [[hands[0][0], hands[0][1]], [hands[1][0], hands[1][1]]]
        self.mods = [[mods[0][0], mods[0][1]], [mods[1][0], mods[1][1]]]
        self.lucky = list(state.lucky)
        self.hp = list(state.hp)
        self.abilities = list(state.abilities)
        self.ability_decks = list(state.ability_decks)
        self.ability_discards = list(state.ability_discards)
        lines = state.lines
        self.lines = [[lines[0][0], lines[0][1]], [lines[1][0], lines[1][1]]]
        self.statuses = list(state.statuses)
        self.energy = list(state.energy)
        self.turns_taken = list(state.turns_taken)
        self.streak = list(state.streak)
        self.drew_arcana = list(state.drew_arcana)
        self.pending = list(state.pending)
        known = state.known
        self.known = [[known[0][0], known[0][1]], [known[1][0], known[1][1]]]
        self.turn = state.turn
        self.chances = state.chances
        self.winner: int | None = None
        self.reason: str | None = None

    def freeze(self, ply: int) -> ArcanaState:
        h, m, li, k = self.hands, self.mods, self.lines, self.known
        return ArcanaState(
            self.setup,
            (self.decks[0], self.decks[1]),
            (self.discards[0], self.discards[1]),
            ((h[0][0], h[0][1]), (h[1][0], h[1][1])),
            ((m[0][0], m[0][1]), (m[1][0], m[1][1])),
            (self.lucky[0], self.lucky[1]),
            (self.hp[0], self.hp[1]),
            (self.abilities[0], self.abilities[1]),
            (self.ability_decks[0], self.ability_decks[1]),
            (self.ability_discards[0], self.ability_discards[1]),
            ((li[0][0], li[0][1]), (li[1][0], li[1][1])),
            (self.statuses[0], self.statuses[1]),
            (self.energy[0], self.energy[1]),
            (self.turns_taken[0], self.turns_taken[1]),
            (self.streak[0], self.streak[1]),
            (self.pending[0], self.pending[1]),
            ((k[0][0], k[0][1]), (k[1][0], k[1][1])),
            self.turn,
            ply,
            self.chances,
            self.winner,
            self.reason,
            (self.drew_arcana[0], self.drew_arcana[1]),
        )

    # --- The `cards.Table` protocol: what effects may do ---------------------------------

    def add_status(self, seat: int, key: str, turns: int, amount: int) -> None:
        self.statuses[seat] = st.add(self.statuses[seat], key, turns, amount)
        entry = st.find(self.statuses[seat], key)
        assert entry is not None
        self.events.append(
            Event(
                "status_added", {"seat": seat, "status": key, "turns": entry[1], "amount": entry[2]}
            )
        )

    def lose_hp(self, seat: int, amount: int, cause: str) -> None:
        if amount <= 0:
            return
        hp = max(0, self.hp[seat] - amount)
        self.hp[seat] = hp
        self.events.append(
            Event("hp_lost", {"seat": seat, "amount": amount, "cause": cause, "hp": hp})
        )
        if hp == 0 and self.winner is None:
            self.end(1 - seat, "hp")

    def heal(self, seat: int, amount: int) -> None:
        healed = min(amount, self.setup.start_hp[seat] - self.hp[seat])
        if healed > 0:
            self.hp[seat] += healed
            self.events.append(
                Event("healed", {"seat": seat, "amount": healed, "hp": self.hp[seat]})
            )

    def draw_abilities(self, seat: int, count: int) -> list[str]:
        drawn: list[str] = []
        for _ in range(count):
            if not self.ability_decks[seat]:
                pile = self.ability_discards[seat]
                if not pile:
                    break
                self.ability_decks[seat] = tuple(self.chance().shuffle(sorted(pile)))
                self.ability_discards[seat] = ()
                self.events.append(Event("ability_reshuffled", {"seat": seat, "count": len(pile)}))
            deck = self.ability_decks[seat]
            card = deck[0]
            self.ability_decks[seat] = deck[1:]
            self.abilities[seat] = tuple(sorted((*self.abilities[seat], card)))
            drawn.append(card)
            self.events.append(Event("ability_drawn", {"seat": seat}))
            self.events.append(Event("ability_to_hand", {"seat": seat, "card": card}, (seat,)))
        return drawn

    def discard_ability(self, seat: int, card: str, reason: str) -> None:
        self.abilities[seat] = _without(self.abilities[seat], card)
        self.ability_discards[seat] += (card,)
        self.events.append(
            Event("ability_discarded", {"seat": seat, "card": card, "reason": reason})
        )

    def random_below(self, n: int) -> int:
        return self.chance().randbelow(n)

    def set_pending(self, seat: int, kind: str, data: Mapping[str, Any]) -> None:
        if kind == "discard_ability":
            self.pending[seat] = ("discard",)
            self.events.append(Event("choice", {"seat": seat, "kind": "discard"}))

    def fate_twist(self, seat: int) -> None:
        attack, defense = self.decks
        if attack and defense and attack[0] != DEATH and defense[0] != DEATH:
            self.decks[ATTACK] = (defense[0], *attack[1:])
            self.decks[DEFENSE] = (attack[0], *defense[1:])
        self.known = [[0, 0], [0, 0]]  # nobody may still rely on the old tops
        self.events.append(Event("fate_twist", {"seat": seat}))

    def purge(self, seat: int, deck: int, value: int) -> None:
        self.hands[seat][deck] = _without(self.hands[seat][deck], value)
        self.discards[deck] += (value,)
        self.events.append(
            Event(
                "card_discarded",
                {"seat": seat, "deck": DECKS[deck], "value": value, "reason": "purge"},
            )
        )
        self.refresh()
        if self.decks[deck]:
            self.draw(seat, deck)

    def start_swap(self, seat: int) -> None:
        self.pending = [("swap",), ("swap",)]
        self.events.append(Event("choice", {"seat": None, "kind": "swap"}))

    def slot_lucky(self, seat: int, card: str) -> None:
        self.lucky[seat] = card
        self.events.append(Event("lucky_slotted", {"seat": seat, "card": card}))

    # --- Helpers ----------------------------------------------------------------------------

    def end(self, winner: int, reason: str) -> None:
        self.winner = winner
        self.reason = reason

    def chance(self) -> Chance:
        chance = Chance(self.setup.seed, f"arcana/chance/{self.chances}")
        self.chances += 1
        return chance

    def use_status(self, seat: int, key: str) -> int | None:
        """The amount of `seat`'s status `key`, which ends as it is used; None if absent."""
        entry = st.find(self.statuses[seat], key)
        if entry is None:
            return None
        self.statuses[seat] = st.remove(self.statuses[seat], key)
        self.events.append(
            Event("status_ended", {"seat": seat, "status": key, "turns": entry[1], "used": True})
        )
        return entry[2]

    def refresh(self) -> None:
        for kind in (ATTACK, DEFENSE):
            if not self.decks[kind] and self.discards[kind]:
                self.decks[kind] = tuple(self.chance().shuffle(self.discards[kind]))
                self.discards[kind] = ()
                self.known[0][kind] = self.known[1][kind] = 0
                self.events.append(
                    Event("reshuffled", {"deck": DECKS[kind], "count": len(self.decks[kind])})
                )

    def draw(self, seat: int, kind: int) -> None:
        """Draw the top numbered card of deck `kind` (it is not empty)."""
        deck = self.decks[kind]
        value = deck[0]
        self.decks[kind] = deck[1:]
        for known in self.known:
            if known[kind]:
                known[kind] -= 1
        name = DECKS[kind]
        self.events.append(Event("draw", {"seat": seat, "deck": name}))
        if value == DEATH:
            self._death_card(seat, kind)
            return
        if value == LUCKY and self.lucky[seat] is None:
            if self.use_status(seat, "doom") is None:
                self.lucky[seat] = kind
                self.events.append(Event("lucky_slotted", {"seat": seat, "deck": name}))
                return
            self.events.append(Event("doomed", {"seat": seat, "deck": name}))
        delta = 0
        for key, trigger in _STATUS_TRIGGERS_ON_DRAW:
            if trigger == "draw" or trigger == ("draw_attack", "draw_defense")[kind]:
                amount = self.use_status(seat, key)
                if amount is not None:
                    delta += st.STATUSES[key].modify(value + delta, amount)
        if delta:
            self.mods[seat][kind] += delta
        hand = list(self.hands[seat][kind])
        insort(hand, value)
        self.events.append(
            Event(
                "card_to_hand",
                {"seat": seat, "deck": name, "value": value, "modifier": delta},
                (seat,),
            )
        )
        if len(hand) > HAND_LIMIT:
            lowest = hand.pop(0)
            self.discards[kind] += (lowest,)
            self.events.append(
                Event(
                    "card_discarded",
                    {"seat": seat, "deck": name, "value": lowest, "reason": "hand_limit"},
                )
            )
        self.hands[seat][kind] = tuple(hand)

    def _death_card(self, seat: int, kind: int) -> None:
        self.events.append(Event("death_card", {"seat": seat, "deck": DECKS[kind]}))
        self.discards[kind] += (DEATH,)
        slot = self.lucky[seat]
        if slot is None:
            self.events.append(Event("death", {"seat": seat}))
            self.end(1 - seat, "death_card")
            return
        if isinstance(slot, str):
            self.ability_discards[seat] += (slot,)
        else:
            self.discards[slot] += (LUCKY,)
        self.lucky[seat] = None
        self.events.append(Event("lucky_saved", {"seat": seat}))

    def card(self, seat: int, card: str) -> CardDef:
        return self.setup.cards[seat][card]

    def start_turn(self, seat: int) -> None:
        """`seat` is to move: turn count, energy, the event's heal, fatigue (edition 3 on),
        its statuses tick."""
        setup = self.setup
        self.turn = seat
        self.turns_taken[seat] += 1
        energy = min(self.turns_taken[seat], ENERGY_MAX) + setup.event.energy
        if setup.boss is not None and seat == 1:
            energy += setup.boss.energy
        self.energy[seat] = energy
        self.energy[1 - seat] = 0
        if setup.event.heal:
            self.heal(seat, setup.event.heal)
        self.lose_hp(seat, fatigue(setup.options["edition"], self.turns_taken[seat]), "fatigue")
        if self.winner is not None:
            return
        if not self.statuses[seat]:
            return
        kept: list[tuple[str, int, int]] = []
        for key, turns, amount in self.statuses[seat]:
            if key == "bleed":
                self.lose_hp(seat, amount, "bleed")
            turns -= 1
            data = {"seat": seat, "status": key, "turns": turns}
            if turns > 0:
                kept.append((key, turns, amount))
                self.events.append(Event("status_ticked", data))
            else:
                self.events.append(Event("status_ended", {**data, "used": False}))
        self.statuses[seat] = tuple(kept)


def _without(cards: tuple[Any, ...], card: Any) -> tuple[Any, ...]:
    index = cards.index(card)
    return cards[:index] + cards[index + 1 :]


# --- Whose move, and which ------------------------------------------------------------------


def to_act(state: ArcanaState) -> tuple[int, ...]:
    if state.winner is not None:
        return ()
    pending = state.pending
    if pending[0] is not None or pending[1] is not None:
        return tuple(seat for seat in (0, 1) if _owes(pending[seat]))
    return (state.turn,)


def _owes(pending: tuple[Any, ...] | None) -> bool:
    return pending is not None and not (pending[0] == "swap" and len(pending) > 1)


def _main_actions(state: ArcanaState, seat: int) -> list[Move]:
    moves: list[Move] = []
    if state.decks[ATTACK]:
        moves.append({"type": "draw", "deck": "attack"})
    if state.decks[DEFENSE]:
        moves.append({"type": "draw", "deck": "defense"})
    if _can_draw_arcana(state, seat):
        moves.append({"type": "draw", "deck": "arcana"})
    if state.hands[seat][ATTACK] or state.lines[seat][ATTACK]:
        moves.append({"type": "attack"})
    return moves


def _can_draw_arcana(state: ArcanaState, seat: int) -> bool:
    return (
        not arcana_barred(state, seat)
        and len(state.abilities[seat]) < ABILITY_HAND_LIMIT
        and bool(state.ability_decks[seat] or state.ability_discards[seat])
    )


def _numbered_cards(state: ArcanaState, seat: int) -> list[tuple[int, int]]:
    """The distinct (deck index, value) of `seat`'s numbered hands."""
    return [
        (kind, value)
        for kind in (ATTACK, DEFENSE)
        for value in sorted(set(state.hands[seat][kind]))
    ]


def _plays(state: ArcanaState, seat: int) -> list[Move]:
    moves: list[Move] = []
    energy = state.energy[seat]
    for card_id in sorted(set(state.abilities[seat])):
        card = state.setup.cards[seat][card_id]
        if card.cost > energy or _play_problem(state, seat, card) is not None:
            continue
        target = EFFECTS[card.effect].target
        if target == "deck":
            moves.extend(
                {"type": "play", "card": card_id, "deck": DECKS[kind]}
                for kind in (ATTACK, DEFENSE)
                if state.decks[kind]
            )
        elif target == "hand_card":
            moves.extend(
                {"type": "play", "card": card_id, "deck": DECKS[kind], "value": value}
                for kind, value in _numbered_cards(state, seat)
            )
        else:
            moves.append({"type": "play", "card": card_id})
    return moves


def _play_problem(state: ArcanaState, seat: int, card: CardDef) -> str | None:
    """Why `card` cannot be played now whatever its target (None: it can)."""
    effect = card.effect
    if card.slot == "lucky" and state.lucky[seat] is not None:
        return "Your Lucky slot is full."
    if effect == "pact" and state.hp[seat] <= card.param("hp_cost"):
        return f"You need more than {card.param('hp_cost')} HP to sign a Blood Pact."
    if effect == "twist" and not (state.decks[ATTACK] and state.decks[DEFENSE]):
        return "Fate Twist needs cards in both decks."
    if effect == "swap" and not (state.hands[seat][ATTACK] or state.hands[seat][DEFENSE]):
        return "You have no numbered card to swap."
    if effect == "purge" and not (state.hands[seat][ATTACK] or state.hands[seat][DEFENSE]):
        return "You have no numbered card to purge."
    return None


def _choices(state: ArcanaState, seat: int) -> list[Move]:
    pending = state.pending[seat]
    assert pending is not None
    if pending[0] == "scry":
        return [
            {"type": "choose", "order": list(order)} for order in permutations(range(pending[2]))
        ]
    if pending[0] == "discard":
        return [{"type": "choose", "card": card} for card in sorted(set(state.abilities[seat]))]
    cards = _numbered_cards(state, seat)
    if not cards:
        return [{"type": "choose", "deck": "none"}]
    return [{"type": "choose", "deck": DECKS[kind], "value": value} for kind, value in cards]


def legal_moves(state: ArcanaState, seat: int) -> list[Move]:
    if seat not in to_act(state):
        return []
    if state.pending[seat] is not None:
        return _choices(state, seat)
    main = _main_actions(state, seat)
    return _plays(state, seat) + (main or [{"type": "pass"}])


def is_legal(state: ArcanaState, seat: int, move: Move) -> bool:
    try:
        check(state, seat, move)
    except IllegalMove:
        return False
    return True


def _deck_of(move: Mapping[str, Any], decks: tuple[str, ...], message: str) -> int:
    deck = move.get("deck")
    if not isinstance(deck, str) or deck not in decks:
        raise IllegalMove(message)
    return decks.index(deck)


def check(state: ArcanaState, seat: int, move: Move) -> tuple[Any, ...]:
    """What `move` is, parsed (a tuple starting with its type), or IllegalMove saying why."""
    if state.winner is not None:
        raise IllegalMove("The match is over.")
    if not isinstance(move, Mapping):
        raise IllegalMove("A move is an object with a type.")
    kind = move.get("type")
    no_choices = state.pending[0] is None and state.pending[1] is None
    if (seat != state.turn) if no_choices else (seat not in to_act(state)):
        if state.pending[1 - seat] is not None and seat in (0, 1):
            raise IllegalMove("Wait: your opponent is making a choice.")
        raise IllegalMove("It is not your turn.")
    pending = None if no_choices else state.pending[seat]
    if pending is not None:
        if kind != "choose":
            raise IllegalMove("Make your choice first.")
        return _check_choice(state, seat, pending, move)
    if kind == "draw":
        index = _deck_of(move, DRAW_DECKS, "Draw from the attack, the defense or the arcana deck.")
        if index == 2:
            if len(state.abilities[seat]) >= ABILITY_HAND_LIMIT:
                raise IllegalMove(f"Your ability hand is full ({ABILITY_HAND_LIMIT} cards).")
            if arcana_barred(state, seat):
                raise IllegalMove(ARCANA_TWICE)
            if not _can_draw_arcana(state, seat):
                raise IllegalMove("Your arcana deck and its discard pile are both empty.")
        elif not state.decks[index]:
            raise IllegalMove(EMPTY_DECK)
        return ("draw", index)
    if kind == "attack":
        if not (state.hands[seat][ATTACK] or state.lines[seat][ATTACK]):
            raise IllegalMove("You have no attack cards to attack with.")
        return ("attack",)
    if kind == "play":
        return _check_play(state, seat, move)
    if kind == "pass":
        if _main_actions(state, seat):
            raise IllegalMove("You may only pass when you can neither draw nor attack.")
        return ("pass",)
    if kind == "choose":
        raise IllegalMove("There is nothing to choose now.")
    raise IllegalMove("Draw a card, attack, or play an ability card.")


def _check_play(state: ArcanaState, seat: int, move: Mapping[str, Any]) -> tuple[Any, ...]:
    card_id = move.get("card")
    if not isinstance(card_id, str) or card_id not in state.abilities[seat]:
        raise IllegalMove("You do not hold that ability card.")
    card = state.setup.cards[seat][card_id]
    if card.cost > state.energy[seat]:
        raise IllegalMove(f"{card.name} costs {card.cost} energy; you have {state.energy[seat]}.")
    problem = _play_problem(state, seat, card)
    if problem is not None:
        raise IllegalMove(problem)
    target = EFFECTS[card.effect].target
    allowed = {"type", "card"}
    parsed: tuple[Any, ...] = ("play", card_id)
    if target == "deck":
        allowed.add("deck")
        index = _deck_of(move, DECKS, f"Name the deck {card.name} looks at: attack or defense.")
        if not state.decks[index]:
            raise IllegalMove(EMPTY_DECK)
        parsed = ("play", card_id, index)
    elif target == "hand_card":
        allowed |= {"deck", "value"}
        index = _deck_of(move, DECKS, f"Name the card {card.name} discards: its deck and value.")
        value = move.get("value")
        if type(value) is not int or value not in state.hands[seat][index]:
            raise IllegalMove(f"You hold no {value!r} in your {DECKS[index]} hand.")
        parsed = ("play", card_id, index, value)
    extra = sorted(set(move) - allowed)
    if extra:
        raise IllegalMove(f"{card.name} takes no “{extra[0]}”.")
    return parsed


def _check_choice(
    state: ArcanaState, seat: int, pending: tuple[Any, ...], move: Mapping[str, Any]
) -> tuple[Any, ...]:
    if pending[0] == "scry":
        order = move.get("order")
        count = pending[2]
        if (
            not isinstance(order, list)
            or any(type(i) is not int for i in order)
            or sorted(order) != list(range(count))
        ):
            raise IllegalMove(
                f"Give the new order of the {count} cards you saw as positions 0 to "
                f"{count - 1}, top first, each once."
            )
        return ("choose", "scry", tuple(order))
    if pending[0] == "discard":
        card = move.get("card")
        if not isinstance(card, str) or card not in state.abilities[seat]:
            raise IllegalMove("Choose an ability card from your hand to discard.")
        return ("choose", "discard", card)
    deck = move.get("deck")
    if deck == "none":
        if state.hands[seat][ATTACK] or state.hands[seat][DEFENSE]:
            raise IllegalMove("Choose a card from your hands to give.")
        return ("choose", "swap", -1, 0)
    index = _deck_of(move, DECKS, "Choose the card to give: its deck and value.")
    value = move.get("value")
    if type(value) is not int or value not in state.hands[seat][index]:
        raise IllegalMove(f"You hold no {value!r} in your {DECKS[index]} hand.")
    return ("choose", "swap", index, value)


# --- What moves do ----------------------------------------------------------------------------


def apply(state: ArcanaState, seat: int, move: Move) -> tuple[ArcanaState, list[Event]]:
    action = check(state, seat, move)
    events: list[Event] = []
    table = _Table(state, events)
    kind = action[0]
    if kind == "play":
        _play(table, seat, action)
        return table.freeze(state.ply + 1), events
    if kind == "choose":
        _choose(table, seat, action)
        return table.freeze(state.ply + 1), events
    table.drew_arcana[seat] = kind == "draw" and action[1] == 2  # a main action, from here
    if kind == "draw":
        index = action[1]
        if index == 2:
            table.draw_abilities(seat, 1)
            table.streak[seat] = 0
        else:
            table.draw(seat, index)
            table.streak[seat] = table.streak[seat] + 1 if index == ATTACK else 0
    elif kind == "attack":
        _attack(table, seat)
    else:
        events.append(Event("pass", {"seat": seat}))
        table.streak[seat] = 0
    if table.winner is None:
        table.refresh()
        table.start_turn(1 - seat)
    return table.freeze(state.ply + 1), events


def _play(table: _Table, seat: int, action: tuple[Any, ...]) -> None:
    card_id = action[1]
    card = table.card(seat, card_id)
    effect = EFFECTS[card.effect]
    table.energy[seat] -= card.cost
    table.abilities[seat] = _without(table.abilities[seat], card_id)
    data: dict[str, Any] = {"seat": seat, "card": card_id, "slot": card.slot, "cost": card.cost}
    if len(action) > 2:
        data["deck"] = DECKS[action[2]]
    if len(action) > 3:
        data["value"] = action[3]
    table.events.append(Event("card_played", data))
    if card.slot in ("attack", "defense"):
        line = ATTACK if card.slot == "attack" else DEFENSE
        table.lines[seat][line] = (*table.lines[seat][line], card_id)
    if effect.key == "scry":
        deck = action[2]
        count = min(card.param("count"), len(table.decks[deck]))
        table.pending[seat] = ("scry", deck, count)
        table.events.append(
            Event(
                "scry_cards",
                {"seat": seat, "deck": DECKS[deck], "values": list(table.decks[deck][:count])},
                (seat,),
            )
        )
    elif effect.key == "purge":
        table.purge(seat, action[2], action[3])
    elif effect.play is not None:
        effect.play(table, seat, card)
    if card.slot == "spell":
        table.ability_discards[seat] += (card_id,)


def _choose(table: _Table, seat: int, action: tuple[Any, ...]) -> None:
    what = action[1]
    if what == "scry":
        pending = table.pending[seat]
        assert pending is not None
        deck, count = pending[1], pending[2]
        top = table.decks[deck][:count]
        table.decks[deck] = tuple(top[i] for i in action[2]) + table.decks[deck][count:]
        table.known[seat][deck] = count
        table.known[1 - seat][deck] = 0
        table.pending[seat] = None
        table.events.append(Event("scried", {"seat": seat, "deck": DECKS[deck], "count": count}))
        return
    if what == "discard":
        table.pending[seat] = None
        table.discard_ability(seat, action[2], "fortune_surge")
        return
    table.pending[seat] = ("swap", action[2], action[3])
    table.events.append(Event("swap_chosen", {"seat": seat}))
    other = table.pending[1 - seat]
    if other is not None and len(other) > 1:
        _swap(table)


def _swap(table: _Table) -> None:
    given: list[tuple[int, int]] = []
    for seat in (0, 1):
        pending = table.pending[seat]
        assert pending is not None
        given.append((pending[1], pending[2]))
        if pending[1] >= 0:
            table.hands[seat][pending[1]] = _without(table.hands[seat][pending[1]], pending[2])
    table.pending = [None, None]
    table.events.append(
        Event("hands_swapped", {"gave": [DECKS[kind] if kind >= 0 else None for kind, _ in given]})
    )
    for seat in (0, 1):
        kind, value = given[1 - seat]
        if kind < 0:
            continue
        hand = list(table.hands[seat][kind])
        insort(hand, value)
        table.events.append(
            Event("card_received", {"seat": seat, "deck": DECKS[kind], "value": value}, (seat,))
        )
        if len(hand) > HAND_LIMIT:
            lowest = hand.pop(0)
            table.discards[kind] += (lowest,)
            table.events.append(
                Event(
                    "card_discarded",
                    {"seat": seat, "deck": DECKS[kind], "value": lowest, "reason": "hand_limit"},
                )
            )
        table.hands[seat][kind] = tuple(hand)


def _line_value(table: _Table, seat: int, line: Ids) -> int:
    cards = table.setup.cards[seat]
    return sum(cards[card].value for card in line)


def _attack(table: _Table, seat: int) -> None:
    setup = table.setup
    target = 1 - seat
    attack: Hand = table.hands[seat][ATTACK]
    defense: Hand = table.hands[target][DEFENSE]
    blades: Ids = table.lines[seat][ATTACK]
    guards: Ids = table.lines[target][DEFENSE]
    attack_total = sum(attack) + table.mods[seat][ATTACK] + _line_value(table, seat, blades)
    attack_total += setup.event.attack_bonus
    combo = table.streak[seat] >= COMBO_STREAK
    if combo:
        attack_total += COMBO_BONUS
        table.events.append(Event("combo", {"seat": seat, "bonus": COMBO_BONUS}))
    for key in ("pact", "weakness"):
        amount = table.use_status(seat, key)
        if amount is not None:
            attack_total = st.STATUSES[key].modify(attack_total, amount)
    defense_total = sum(defense) + table.mods[target][DEFENSE]
    defense_total += _line_value(table, target, guards)
    if defense or guards:
        defense_total += setup.event.defense_bonus
    for key in ("fortify", "expose"):
        amount = table.use_status(target, key)
        if amount is not None:
            defense_total = st.STATUSES[key].modify(max(0, defense_total), amount)
    clash = Clash(seat, target, attack_total, max(0, defense_total), len(attack) + len(blades))
    own = sorted(
        ((table.card(seat, c), seat) for c in blades), key=lambda x: EFFECTS[x[0].effect].order
    )
    theirs = [(table.card(target, c), target) for c in guards]
    for card, _owner in own + theirs:
        hook = EFFECTS[card.effect].clash
        if hook is not None:
            hook(clash, card)
    attack_total = max(0, clash.attack_total)
    defense_total = clash.defense_total
    damage = max(0, attack_total - defense_total)
    reflected = 0
    mirror = table.use_status(target, "mirror")
    if mirror is not None:
        reflected = st.STATUSES["mirror"].modify(damage, mirror)
        damage -= reflected
    clash.attack_total, clash.damage = attack_total, damage
    table.events.append(
        Event(
            "attack",
            {
                "seat": seat,
                "target": target,
                "attack": list(attack),
                "abilities": list(blades),
                "defense": list(defense),
                "guards": list(guards),
                "attack_total": attack_total,
                "defense_total": defense_total,
                "combo": combo,
                "damage": damage,
                "reflected": reflected,
            },
        )
    )
    if defense_total:
        table.events.append(
            Event("blocked", {"seat": target, "amount": min(attack_total, defense_total)})
        )
    table.lose_hp(target, damage, "attack")
    if table.winner is None:
        table.lose_hp(seat, reflected, "mirror")
    for card, owner in own + theirs:
        hook_after = EFFECTS[card.effect].after
        if hook_after is not None and table.winner is None:
            hook_after(table, clash, card, owner)
    boss = setup.boss
    if boss is not None and seat == 1 and boss.attack_bleed and damage and table.winner is None:
        table.add_status(target, "bleed", BOSS_BLEED_TURNS, boss.attack_bleed)
    table.discards[ATTACK] += attack
    table.discards[DEFENSE] += defense
    table.ability_discards[seat] += blades
    table.ability_discards[target] += guards
    table.hands[seat][ATTACK] = ()
    table.hands[target][DEFENSE] = ()
    table.lines[seat][ATTACK] = ()
    table.lines[target][DEFENSE] = ()
    table.mods[seat][ATTACK] = 0
    table.mods[target][DEFENSE] = 0
    table.streak[seat] = 0


def outcome(state: ArcanaState) -> Outcome | None:
    if state.winner is None:
        return None
    loser = 1 - state.winner
    return Outcome(
        winners=(state.winner,), ranking=((state.winner,), (loser,)), reason=state.reason or ""
    )


def forfeit(state: ArcanaState, seat: int, reason: str) -> Outcome:
    return forfeit_two_player(seat, reason)
