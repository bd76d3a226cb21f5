"""What each seat may know of a Shield position, and positions consistent with it.

Invariants:
- Nobody ever sees a stored card's value, not even its holder: a view shows how many
  cards each player has stored, never which. Nobody sees the draw pile's order, the seed
  or the chance stream.
- During the setup a seat sees its own four cards and its own pick; of the others only
  whether they have confirmed (not whether they have picked, nor what). Once every seat
  has confirmed, every layout (shield and HP cards) is face up for everyone.
- The discard pile is face up: its size and top card are in every view (each card that
  reaches it is also named in a public event).
- A spectator (seat None) sees what every player sees of the others.
- `sample_hidden` redraws everything `seat` cannot see (the draw pile, every stored card,
  and during the setup the other hands and picks) from the cards it has not seen, and
  draws a fresh seed, so the sample's future reshuffles are not the real ones either.
  It lives here, beside the view: it redraws exactly what the view hides.
- The view is fresh JSON-able data: nothing in it is shared with the state.
- Pure: imports the standard library, `games.engine.core` and this package's `cards`,
  `state` and `rules`.

The view, as JSON (a board is written against it):

    {
      "game": "shield",
      "ply": 12,                       # moves made so far
      "seat": 0,                       # the viewer; null for a spectator
      "seats": 4,
      "step": "action",                # "setup" | "action" | "boost" | "give" | "over"
      "to_act": [2],                   # every unconfirmed seat during the setup; else the
                                       #   one seat whose turn it is; [] once it is over
      "turn": 2,                       # whose turn it is; null during the setup and at the end
      "players": [                     # by seat, clockwise
        {"seat": 0,
         "is_out": false,
         "place": null,                # final place once out (2 = runner-up), else null
         "confirmed": true,            # has confirmed a shield (the setup's only public news)
         "shield": "KS",               # null during the setup and once out
         "shield_value": 13,
         "hp": 21,                     # null during the setup; 0 once out
         "hp_cards": ["AS", "3H", "QC"],   # the row laid at the start; [] during the setup
         "stored_count": 2}            # never the values, not even in the holder's view
      ],
      "hand": ["AS", "3H", "QC", "KS"],  # during the setup, my four cards; else null
      "pick": "KS",                    # during the setup, my chosen shield (or null); else null
      "deck_count": 30, "discard_count": 4,
      "discard_top": "7H",             # or null when the discard pile is empty
      "attack": {                      # the attack on the table (boost step), else null
        "seat": 0, "target": 2, "card": "6D",   # the drawn card, face up
        "boost": ["3H"],               # stored cards added so far, face up
        "power": 9, "shield": 6, "beats_shield": true, "damage": 3},
      "last_action": {                 # the last action resolved, else null
        "seat": 0, "action": "change_shield" | "store" | "attack", "target": 2 or null,
        "card": "6D" or null,          # the card drawn (null for a store: nobody saw it)
        "old_shield": "4C" or null,    # the shield a change replaced
        "boost": ["3H"], "power": 9, "shield": 6,   # attacks only (else [], null, null)
        "result": "hit" | "blocked" | null,
        "damage": 3, "hp": 18,         # the target's HP after an attack
        "stored_discarded": ["5S"],    # the target's stored cards, discarded by a hit
        "is_out": false},
      "options": {"boost": "after_draw", "start_tie": "shield"},
      "outcome": null or {"winners": [2], "ranking": [[2], [0], [3], [1]],
                          "reason": "last_standing", "scores": null}
    }
"""

from __future__ import annotations

from typing import Any

from games.engine.core import Chance
from games.engine.shield.cards import NAMES, VALUE, names, total
from games.engine.shield.rules import to_act
from games.engine.shield.state import SETUP, ShieldState


def view(state: ShieldState, seat: int | None) -> dict[str, Any]:
    is_setup = state.step == SETUP
    is_player = seat is not None and 0 <= seat < state.seats
    discard = state.discard
    last = state.last
    if last is not None:  # a copy: the state's own dict (and its lists) never leave
        last = dict(
            last, boost=list(last["boost"]), stored_discarded=list(last["stored_discarded"])
        )
    # `is_player` says `seat` is a seat of the match, which mypy cannot follow through a name.
    pick = state.picks[seat] if is_setup and is_player else None  # type: ignore[index]
    return {
        "game": "shield",
        "ply": state.ply,
        "seat": seat,
        "seats": state.seats,
        "step": state.step,
        "to_act": list(to_act(state)),
        "turn": state.turn,
        "players": _players(state, is_setup),
        "hand": names(state.dealt[seat]) if is_setup and is_player else None,  # type: ignore[index]
        "pick": NAMES[pick] if pick is not None else None,
        "deck_count": len(state.deck),
        "discard_count": len(discard),
        "discard_top": NAMES[discard[-1]] if discard else None,
        "attack": _attack(state),
        "last_action": last,
        "options": state.rules.to_json(),
        "outcome": state.result.to_json() if state.result is not None else None,
    }


def revealed_view(state: ShieldState) -> dict[str, Any]:
    """Everything face up (a finished match's replay): the setup hands and picks, every
    stored card, and the draw pile's order."""
    revealed = view(state, None)
    hidden: list[dict[str, Any]] = []
    if state.step == SETUP:
        for side in range(state.seats):
            pick = state.picks[side]
            hidden.append(
                {"pile": "setup hand", "seat": side, "order": "", "cards": names(state.dealt[side])}
            )
            if pick is not None:
                hidden.append(
                    {"pile": "shield pick", "seat": side, "order": "", "cards": [NAMES[pick]]}
                )
    for side in range(state.seats):
        if state.stored[side]:
            stored = names(state.stored[side])
            hidden.append(
                {"pile": "stored cards", "seat": side, "order": "bottom first", "cards": stored}
            )
    hidden.append(
        {"pile": "draw pile", "seat": None, "order": "top first", "cards": names(state.deck)}
    )
    revealed["revealed"] = True
    revealed["hidden"] = hidden
    return revealed


def _players(state: ShieldState, is_setup: bool) -> list[dict[str, Any]]:
    """Every seat's public side, clockwise (one loop: this is most of a view's cost)."""
    out, seats = state.out, state.seats
    players = []
    for side in range(seats):
        is_out = side in out
        shield = None if is_setup else state.shields[side]
        players.append(
            {
                "seat": side,
                "is_out": is_out,
                "place": seats - out.index(side) if is_out else None,
                "confirmed": state.confirmed[side],
                "shield": None if shield is None else NAMES[shield],
                "shield_value": None if shield is None else VALUE[shield],
                "hp": None if is_setup and not is_out else state.hp[side],
                "hp_cards": [NAMES[card] for card in state.hp_cards[side]],
                "stored_count": len(state.stored[side]),
            }
        )
    return players


def _attack(state: ShieldState) -> dict[str, Any] | None:
    if state.attack is None:
        return None
    target, cards = state.attack
    power = total(cards)
    shield = VALUE[state.shields[target]]  # type: ignore[index]  # a target is in the match
    return {
        "seat": state.turn,
        "target": target,
        "card": NAMES[cards[0]],
        "boost": names(cards[1:]),
        "power": power,
        "shield": shield,
        "beats_shield": power > shield,
        "damage": max(0, power - shield),
    }


def sample_hidden(state: ShieldState, seat: int, chance: Chance) -> ShieldState:
    """A full position `seat` cannot tell from this one, the rest drawn at random.

    The pool of unseen cards (the draw pile, every stored card, and during the setup the
    other seats' hands) is sorted, so the sample depends only on what `seat` knows, then
    shuffled and dealt back into places of the same sizes. During the setup another seat
    that has confirmed gets a random pick among its new cards; one that has not, none.
    """
    is_setup = state.step == SETUP
    others = [s for s in range(state.seats) if s != seat] if is_setup else []
    pool = list(state.deck)
    for pile in state.stored:
        pool += pile
    for other in others:
        pool += state.dealt[other]
    unseen = chance.shuffle(sorted(pool))
    dealt = list(state.dealt)
    picks = list(state.picks)
    for other in others:
        size = len(dealt[other])
        dealt[other] = tuple(sorted(unseen[:size]))
        unseen = unseen[size:]
        is_picked = state.confirmed[other] and dealt[other]  # an unconfirmed pick is unknown
        picks[other] = chance.choice(dealt[other]) if is_picked else None
    stored = []
    for pile in state.stored:
        stored.append(tuple(unseen[: len(pile)]))
        unseen = unseen[len(pile) :]
    return state.replace(
        dealt=tuple(dealt),
        picks=tuple(picks),
        stored=tuple(stored),
        deck=tuple(unseen),
        seed=bytes(chance.randbelow(256) for _ in range(32)),
    )
