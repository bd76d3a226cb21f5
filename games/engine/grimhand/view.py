"""What each seat may know of a Grimhand Tactics position: views, the attack preview, and
determinized samples for fair AI.

Invariants:
- Hidden from everyone: deck orders. Hidden from the opponent and spectators: a seat's
  hands, of which they see only the counts. Public: HP, Lucky slots, discard piles (face up,
  in order), deck sizes, and how many Death cards each deck still holds.
- Nothing here reads a hidden card on behalf of a seat that may not know it: `view` and
  `sample_hidden` give the same answer for two states that differ only in deck orders and
  the unknown hand's contents (same counts), and the seed never appears.
- The view is fresh JSON-able data: nothing in it is shared with the state.
- `sample_hidden` lives here, beside the view: it redraws exactly what the view hides.
- Pure: imports the standard library, `games.engine.core` and this package's `state`
  and `rules`.

The view, as JSON (a board is written against it):

    {
      "game": "grimhand",
      "ply": 9,                        # moves made so far
      "seat": 0,                       # the viewer; null for a spectator
      "to_act": [1],                   # the seat to move; [] once the match is over
      "options": {"copies": 4, "overdraw": "flush", "hand_limit": 13, "hp": 50},
      "decks": {
        "attack": {"count": 40,        # cards left in the deck (face down)
                   "discard": [3, 13], # the discard pile, oldest first (face up)
                   "deaths_left": 3,   # Death cards (13) still in the deck: public
                   "death_chance": 0.075},   # deaths_left / count (0.0 when empty)
        "defense": {...}
      },
      "players": [                     # by seat
        {"seat": 0, "hp": 50,
         "lucky": false,               # a Lucky 7 in the slot
         "hand": {"attack": [2, 9], "defense": [4]},   # the viewer's own hands only;
                                       #   {"attack": null, "defense": null} for the others
         "hand_count": {"attack": 2, "defense": 1}},
        {"seat": 1, ...}
      ],
      "preview": {                     # what attacking now would do, from the viewer's
        "attack_total": 11,            #   knowledge; null when the viewer cannot attack
        "defense_cards": 2,            # cards in the opponent's defense hand
        "defense_min": 3, "defense_max": 25,   # the sums those cards could make
        "damage_min": 0, "damage_max": 8},
      "outcome": null or {"winners": [0], "ranking": [[0], [1]], "reason": "death_card",
                          "scores": null}   # reason: "hp" or "death_card"
    }
"""

from __future__ import annotations

from typing import Any

from games.engine.core import Chance
from games.engine.grimhand.rules import outcome, to_act
from games.engine.grimhand.state import (
    ATTACK,
    DEATH,
    DECKS,
    DEFENSE,
    HAND_LIMIT,
    LUCKY,
    GrimhandState,
    Hand,
    counts_of,
)


def view(state: GrimhandState, seat: int | None) -> dict[str, Any]:
    setup = state.setup
    result = outcome(state)
    return {
        "game": "grimhand",
        "ply": state.ply,
        "seat": seat,
        "to_act": list(to_act(state)),
        "options": {
            "copies": setup.copies,
            "overdraw": setup.overdraw,
            "hand_limit": HAND_LIMIT,
            "hp": setup.start_hp,
        },
        "decks": {DECKS[kind]: _deck_view(state, kind) for kind in (ATTACK, DEFENSE)},
        "players": [_player_view(state, side, seat) for side in (0, 1)],
        "preview": attack_preview(state, seat),
        "outcome": result.to_json() if result else None,
    }


def revealed_view(state: GrimhandState) -> dict[str, Any]:
    """Everything face up (a finished match's replay): both hands, and each deck's order."""
    revealed = view(state, None)
    for player in revealed["players"]:
        hands = state.hands[player["seat"]]
        player["hand"] = {DECKS[kind]: list(hands[kind]) for kind in (ATTACK, DEFENSE)}
    revealed["revealed"] = True
    revealed["hidden"] = [
        {"pile": f"{DECKS[kind]} deck", "seat": None, "order": "top first", "cards": list(deck)}
        for kind, deck in enumerate(state.decks)
    ]
    return revealed


def _deck_view(state: GrimhandState, kind: int) -> dict[str, Any]:
    count = len(state.decks[kind])
    discard = state.discards[kind]
    # Every 13 ever resolved lies face up in the discard pile and none sits in a hand, so
    # the Death cards left in the deck are public knowledge.
    deaths_left = state.setup.composition[kind][DEATH] - discard.count(DEATH)
    return {
        "count": count,
        "discard": list(discard),
        "deaths_left": deaths_left,
        "death_chance": deaths_left / count if count else 0.0,
    }


def _player_view(state: GrimhandState, side: int, seat: int | None) -> dict[str, Any]:
    hands = state.hands[side]
    is_own = side == seat
    return {
        "seat": side,
        "hp": state.hp[side],
        "lucky": state.lucky[side] is not None,
        "hand": {DECKS[kind]: list(hands[kind]) if is_own else None for kind in (ATTACK, DEFENSE)},
        "hand_count": {DECKS[kind]: len(hands[kind]) for kind in (ATTACK, DEFENSE)},
    }


def unseen_defense(state: GrimhandState, seat: int) -> list[int]:
    """Counts per value of the defense cards `seat` cannot see that could sit in a hand.

    The defense cards in play, less the seat's own defense hand, the defense discard pile
    and any slotted 7 that came from the defense deck (which deck a slotted 7 came from is
    public: the "lucky_slotted" event names it), less every 13 (never in a hand).
    """
    composition = state.setup.composition[DEFENSE]
    seen = counts_of(state.hands[seat][DEFENSE], state.discards[DEFENSE])
    unseen = [total - known for total, known in zip(composition, seen, strict=True)]
    unseen[LUCKY] -= sum(1 for slot in state.lucky if slot == DEFENSE)
    unseen[DEATH] = 0
    return unseen


def attack_preview(state: GrimhandState, seat: int | None) -> dict[str, Any] | None:
    """What attacking now would do, from the attacker's knowledge only (None: cannot attack)."""
    if seat not in (0, 1):
        return None
    attack = state.hands[seat][ATTACK]
    if not attack:
        return None
    cards = len(state.hands[1 - seat][DEFENSE])
    unseen = unseen_defense(state, seat)
    values = [value for value, count in enumerate(unseen) for _ in range(count)]
    defense_min = sum(values[:cards])
    defense_max = sum(values[len(values) - cards :])
    attack_total = sum(attack)
    return {
        "attack_total": attack_total,
        "defense_cards": cards,
        "defense_min": defense_min,
        "defense_max": defense_max,
        "damage_min": max(0, attack_total - defense_max),
        "damage_max": max(0, attack_total - defense_min),
    }


def sample_hidden(state: GrimhandState, seat: int, chance: Chance) -> GrimhandState:
    """A full state agreeing with everything `seat` knows; the rest drawn from `chance`.

    For each deck type, the deck and the opponent's hand of that type are pooled (in a
    canonical, sorted order, so the result depends only on what `seat` knows), the
    opponent's hand is dealt again from the pool's non-13 cards, and the rest becomes the
    deck in a random order. The seed is replaced too: future reshuffles of the sample must
    not follow the real match's stream.
    """
    opponent = 1 - seat
    seed = chance.randbelow(1 << 256).to_bytes(32, "big")
    decks: list[Hand] = []
    opponent_hands: list[Hand] = []
    for kind in (ATTACK, DEFENSE):
        pool = sorted(state.decks[kind] + state.hands[opponent][kind])
        held = len(state.hands[opponent][kind])
        shuffled = chance.shuffle([value for value in pool if value != DEATH])
        deaths = [value for value in pool if value == DEATH]
        opponent_hands.append(tuple(sorted(shuffled[:held])))
        decks.append(tuple(chance.shuffle(shuffled[held:] + deaths)))
    hands = list(state.hands)
    hands[opponent] = (opponent_hands[0], opponent_hands[1])
    setup = state.setup
    return state.replace(
        setup=type(setup)(seed, setup.copies, setup.overdraw, setup.start_hp, setup.composition),
        decks=(decks[0], decks[1]),
        hands=(hands[0], hands[1]),
    )
