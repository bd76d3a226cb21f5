"""What each seat may know of a Grimhand Arcana position: views and determinized samples.

Invariants:
- Hidden from everyone: the order of the numbered decks (except the top cards a seat has
  scried, shown to that seat only while they are still on top, in order, and from
  edition 3 on each deck's top card, face up for everyone: `open_tops`) and the order
  of every ability deck. Hidden from the other seat and spectators: a seat's numbered
  hands and ability hand (counts only), its deck list and its ability deck's contents
  (counts only: the list is not derivable before its cards are played), the choices it
  owes (only their kind shows: the seats to act are public) and what it has chosen.
- Public: HP, energy, statuses, fatigue to come, the Lucky slots (and a Double Shamrock
  in one), both lines (ability cards played face up), every discard pile, hand
  modifiers, the attack streak, whether a seat's last main action was the arcana draw,
  the match event and the boss, each deck's count and its Death cards left.
- Deaths left per deck are exact public knowledge: a 13 never sits in a hand and never
  changes decks (Fate Twist leaves it in place), and every resolved 13 lies face up.
- `view` and `sample_hidden` give the same answer for two states that differ only in
  what the seat may not know; the seed never appears. The view is fresh JSON-able data.
- Pure: imports the standard library, `games.engine.core` and this package's modules.
"""

from __future__ import annotations

from typing import Any

from games.engine.core import Chance
from games.engine.grimhand.arcana import statuses as st
from games.engine.grimhand.arcana.cards import DECK_RULES, CardDef
from games.engine.grimhand.arcana.rules import outcome, to_act
from games.engine.grimhand.arcana.state import (
    ATTACK,
    COMBO_BONUS,
    COMBO_STREAK,
    DEATH,
    DECKS,
    DEFENSE,
    ArcanaSetup,
    ArcanaState,
    Hand,
    arcana_barred,
    fatigue,
    open_tops,
)


def view(state: ArcanaState, seat: int | None) -> dict[str, Any]:
    setup = state.setup
    result = outcome(state)
    seen: dict[str, CardDef] = {}
    players = [_player(state, side, seat, seen) for side in (0, 1)]
    event = setup.event
    boss = setup.boss
    return {
        "game": "grimhand",
        "variant": "arcana",
        "ply": state.ply,
        "seat": seat,
        "to_act": list(to_act(state)),
        "turn": state.turn,
        "options": dict(setup.options),
        "event": {"key": event.key, "name": event.name, "text": event.text},
        "boss": (
            {"key": boss.key, "name": boss.name, "hp": boss.hp, "twist": boss.twist, "seat": 1}
            if boss
            else None
        ),
        "decks": {DECKS[kind]: _deck(state, kind, seat) for kind in (ATTACK, DEFENSE)},
        "players": players,
        "pending": _pending(state, seat),
        "preview": _preview(state, seat),
        "cards": {card_id: card.to_json() for card_id, card in sorted(seen.items())},
        "outcome": result.to_json() if result else None,
    }


def revealed_view(state: ArcanaState) -> dict[str, Any]:
    """Everything face up (a finished match's replay)."""
    revealed = view(state, None)
    for player in revealed["players"]:
        side = player["seat"]
        hands = state.hands[side]
        player["hand"] = {DECKS[kind]: list(hands[kind]) for kind in (ATTACK, DEFENSE)}
        player["arcana"] = [
            state.setup.cards[side][card].to_json() for card in state.abilities[side]
        ]
    revealed["revealed"] = True
    revealed["hidden"] = [
        {"pile": f"{DECKS[kind]} deck", "seat": None, "order": "top first", "cards": list(deck)}
        for kind, deck in enumerate(state.decks)
    ] + [
        {
            "pile": "arcana deck",
            "seat": side,
            "order": "top first",
            "cards": list(state.ability_decks[side]),
        }
        for side in (0, 1)
    ]
    return revealed


def _deck(state: ArcanaState, kind: int, seat: int | None) -> dict[str, Any]:
    count = len(state.decks[kind])
    discard = state.discards[kind]
    deaths_left = state.setup.deaths[kind] - discard.count(DEATH)
    scried = state.known[seat][kind] if seat in (0, 1) else 0
    face_up = min(open_tops(state), count)
    known_top = list(state.decks[kind][: max(scried, face_up)])
    if known_top:  # the next card is known: Death or not
        chance = 1.0 if known_top[0] == DEATH else 0.0
    else:
        chance = deaths_left / count if count else 0.0
    return {
        "count": count,
        "discard": list(discard),
        "deaths_left": deaths_left,
        "death_chance": chance,  # that the next card is Death, as far as this viewer knows
        "known_top": known_top,  # what this viewer sees of the top, top first
        "face_up": face_up,  # how many of those everyone sees (edition 3: the top card)
    }


def _player(
    state: ArcanaState, side: int, seat: int | None, seen: dict[str, CardDef]
) -> dict[str, Any]:
    cards = state.setup.cards[side]
    own = side == seat
    hands = state.hands[side]
    lucky = state.lucky[side]
    public_ids = [
        *state.ability_discards[side],
        *state.lines[side][ATTACK],
        *state.lines[side][DEFENSE],
        *([lucky] if isinstance(lucky, str) else []),
    ]
    if own:
        public_ids += state.abilities[side]
    for card in public_ids:
        seen.setdefault(card, cards[card])
    return {
        "seat": side,
        "hp": state.hp[side],
        "max_hp": state.setup.start_hp[side],
        "energy": state.energy[side],
        "lucky": lucky is not None,
        "lucky_card": lucky if isinstance(lucky, str) else None,
        "hand": {DECKS[k]: list(hands[k]) if own else None for k in (ATTACK, DEFENSE)},
        "hand_count": {DECKS[k]: len(hands[k]) for k in (ATTACK, DEFENSE)},
        "modifiers": {DECKS[k]: state.mods[side][k] for k in (ATTACK, DEFENSE)},
        "statuses": [st.describe(entry) for entry in state.statuses[side]],
        "arcana": [cards[card].to_json() for card in state.abilities[side]] if own else None,
        "arcana_count": len(state.abilities[side]),
        "arcana_deck_count": len(state.ability_decks[side]),
        "arcana_discard": list(state.ability_discards[side]),
        "lines": {DECKS[k]: list(state.lines[side][k]) for k in (ATTACK, DEFENSE)},
        "streak": state.streak[side],
        "turns_taken": state.turns_taken[side],
        # The HP its next turn will cost it (edition 3's fatigue; 0 before the 21st).
        "fatigue_next": fatigue(state.setup.options["edition"], state.turns_taken[side] + 1),
        "drew_arcana": arcana_barred(state, side),
    }


def _pending(state: ArcanaState, seat: int | None) -> dict[str, Any] | None:
    """The choice the viewer owes, in full; the other seat's only by kind."""
    result: dict[str, Any] = {}
    for side in (0, 1):
        pending = state.pending[side]
        if pending is None:
            continue
        kind = pending[0]
        if side != seat:
            result.setdefault("others", []).append({"seat": side, "kind": kind})
            continue
        mine: dict[str, Any] = {"kind": kind}
        if kind == "scry":
            deck, count = pending[1], pending[2]
            mine.update(deck=DECKS[deck], cards=list(state.decks[deck][:count]))
        elif kind == "swap":
            mine["chosen"] = len(pending) > 1
        result["mine"] = mine
    return result or None


def _preview(state: ArcanaState, seat: int | None) -> dict[str, Any] | None:
    """What attacking now starts from, from the viewer's knowledge (None: cannot attack)."""
    if seat not in (0, 1):
        return None
    cards = state.setup.cards
    attack, blades = state.hands[seat][ATTACK], state.lines[seat][ATTACK]
    if not attack and not blades:
        return None
    total = sum(attack) + state.mods[seat][ATTACK] + sum(cards[seat][c].value for c in blades)
    total += state.setup.event.attack_bonus
    if state.streak[seat] >= COMBO_STREAK:
        total += COMBO_BONUS
    for key in ("pact", "weakness"):
        entry = st.find(state.statuses[seat], key)
        if entry is not None:
            total = st.STATUSES[key].modify(total, entry[2])
    target = 1 - seat
    guards = state.lines[target][DEFENSE]
    return {
        "attack_total": max(0, total),
        "defense_cards": len(state.hands[target][DEFENSE]),
        "defense_known": sum(cards[target][c].value for c in guards) + state.mods[target][DEFENSE],
    }


def sample_hidden(state: ArcanaState, seat: int, chance: Chance) -> ArcanaState:
    """A full state agreeing with everything `seat` knows; the rest drawn from `chance`.

    Redrawn: the numbered cards `seat` cannot see (decks below its scried tops and the
    opponent's hands) pooled over both types, with each deck's Death cards placed at
    random in its unknown part; the opponent's ability hand and deck (drawn from its
    boss deck, or from the pool within the deck rules' copy limit, less the cards it has
    shown); the order of `seat`'s own ability deck; a swap card the opponent chose; and
    the seed (a sample's future shuffles must not follow the real match).
    """
    opponent = 1 - seat
    setup = state.setup
    seed = chance.randbelow(1 << 256).to_bytes(32, "big")
    known = [max(scried, open_tops(state)) for scried in state.known[seat]]
    owed = state.pending[seat]
    if owed is not None and owed[0] == "scry":  # the tops it is reordering: seen
        known[owed[1]] = max(known[owed[1]], owed[2])
    hidden: list[int] = []
    unknown_parts: list[Hand] = []
    for kind in (ATTACK, DEFENSE):
        part = state.decks[kind][known[kind] :]
        unknown_parts.append(part)
        hidden += [value for value in part if value != DEATH]
        hidden += state.hands[opponent][kind]
    pool = chance.shuffle(sorted(hidden))
    hands = [list(state.hands[0]), list(state.hands[1])]
    for kind in (ATTACK, DEFENSE):
        held = len(state.hands[opponent][kind])
        hands[opponent][kind] = tuple(sorted(pool[:held]))
        pool = pool[held:]
    decks = []
    for kind in (ATTACK, DEFENSE):
        part = unknown_parts[kind]
        deaths = part.count(DEATH)
        plain = len(part) - deaths
        fresh = chance.shuffle(pool[:plain] + [DEATH] * deaths)
        pool = pool[plain:]
        decks.append(state.decks[kind][: known[kind]] + tuple(fresh))
    own_deck = tuple(chance.shuffle(sorted(state.ability_decks[seat])))
    their_hand, their_deck = _sample_abilities(state, opponent, chance)
    ability_decks = list(state.ability_decks)
    ability_decks[seat] = own_deck
    ability_decks[opponent] = their_deck
    abilities = list(state.abilities)
    abilities[opponent] = their_hand
    pending = list(state.pending)
    chosen = pending[opponent]
    if chosen is not None and chosen[0] == "swap" and len(chosen) > 1:
        options = [(k, v) for k in (ATTACK, DEFENSE) for v in hands[opponent][k]]
        pending[opponent] = ("swap", *chance.choice(options)) if options else ("swap", -1, 0)
    lists = list(setup.decks)
    lists[opponent] = their_hand + their_deck + _shown(state, opponent)
    counts = list(setup.ability_counts)
    counts[opponent] = _count(lists[opponent])
    new_setup = ArcanaSetup(
        seed,
        setup.start_hp,
        setup.cards,
        (lists[0], lists[1]),
        setup.event,
        setup.boss,
        setup.composition,
        setup.deaths,
        (counts[0], counts[1]),
        setup.options,
    )
    return state.replace(
        setup=new_setup,
        decks=(decks[0], decks[1]),
        hands=((hands[0][0], hands[0][1]), (hands[1][0], hands[1][1])),
        abilities=(abilities[0], abilities[1]),
        ability_decks=(ability_decks[0], ability_decks[1]),
        pending=(pending[0], pending[1]),
    )


def _shown(state: ArcanaState, side: int) -> tuple[str, ...]:
    lucky = state.lucky[side]
    return (
        *state.ability_discards[side],
        *state.lines[side][ATTACK],
        *state.lines[side][DEFENSE],
        *((lucky,) if isinstance(lucky, str) else ()),
    )


def _count(cards: tuple[str, ...]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    return counts


def _sample_abilities(
    state: ArcanaState, side: int, chance: Chance
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A guess at `side`'s ability hand and deck from what it has shown."""
    in_hand, in_deck = len(state.abilities[side]), len(state.ability_decks[side])
    needed = in_hand + in_deck
    shown = _count(_shown(state, side))
    boss = state.setup.boss
    if boss is not None and side == 1:
        left = _count(boss.deck)
        for card, n in shown.items():
            left[card] = left.get(card, 0) - n
        candidates = sorted(card for card, n in left.items() for _ in range(max(0, n)))
    else:
        cap = DECK_RULES.max_copies
        candidates = sorted(
            card
            for card in state.setup.cards[side]
            for _ in range(max(0, cap - shown.get(card, 0)))
        )
    drawn = chance.shuffle(candidates)[:needed]
    while len(drawn) < needed:  # a deck list outside the rules (a deal): any pool card
        drawn.append(chance.choice(sorted(state.setup.cards[side])))
    return tuple(sorted(drawn[:in_hand])), tuple(drawn[in_hand:])
