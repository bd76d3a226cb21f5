"""Grimhand Arcana match options and fixed deals: checked, then turned into the first state.

Invariants:
- `OPTIONS` is the schema: every option an Arcana match takes, its default and its range;
  any other name is refused. Every problem is an `InvalidOptions` a person can read.
- The pool travels in the options (default `DEFAULT_POOL`), so a card edited later never
  changes a match. Each seat's cards are the pool's at that seat's levels (1-3).
- A player's deck must pass `check_deck`; a null deck is an archetype deck drawn from the
  seed (hidden like any deck list). A boss (seat 1) brings its own deck and HP.
- A dealt match draws, from `Chance(seed, "arcana/setup")` in this order: the attack deck,
  the defense deck, the archetype of each null deck (seat 0 first), each seat's ability
  deck order (seat 0 first), the first player; then each seat takes `START_ABILITIES`
  ability cards. The match event ("random") has its own stream (`events.draw_event`).
- A fixed deal (`options["deal"]`) sets any position of the shape the rules keep; what it
  puts in play is its composition.
- Pure: imports the standard library, `games.engine.core` and this package's modules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine.core import Chance, InvalidOptions, Option
from games.engine.grimhand.arcana import statuses as st
from games.engine.grimhand.arcana.bosses import BOSSES, Boss
from games.engine.grimhand.arcana.cards import (
    ARCHETYPE_DECKS,
    ARCHETYPES,
    DEFAULT_POOL,
    CardDef,
    check_deck,
    validate_card,
)
from games.engine.grimhand.arcana.events import EVENTS, MatchEvent, draw_event
from games.engine.grimhand.arcana.state import (
    ATTACK,
    COPIES,
    DEATH,
    DEATHS,
    DECK_INDEX,
    DECKS,
    DEFENSE,
    EDITION,
    EDITIONS,
    ENERGY_MAX,
    HAND_LIMIT,
    LUCKY,
    START_ABILITIES,
    START_HP,
    ArcanaSetup,
    ArcanaState,
    Hand,
    Ids,
    Lucky,
)

VARIANT = Option(
    "variant", "classic", "The mode: Classic or Arcana.", choices=("classic", "arcana")
)
HP = Option("hp", START_HP, "Each player's HP at the start (a boss has its own).", bounds=(10, 200))
POOL = Option("pool", None, "The ability cards of the match (default: the standard pool).")
DECKS_OPTION = Option("decks", None, "Each seat's deck of ability card ids; null: an archetype.")
LEVELS = Option("levels", None, "Each seat's card levels, {card id: 1 to 3}.")
BOSS = Option("boss", None, "A boss in seat 1.", choices=(None, *BOSSES))
EVENT = Option("event", "random", "The match event.", choices=("random", *EVENTS))
EDITION_OPTION = Option(
    "edition",
    EDITION,
    "The rules' edition the match is played under (1: arcana draws may follow each other, "
    "as before 2026-11-25; 2: no two arcana draws in a row; 3: and each numbered deck's "
    "top card lies face up, and a seat's turns after its 20th cost HP, since 2026-11-28).",
    choices=EDITIONS,
)
OPTIONS = (VARIANT, HP, POOL, DECKS_OPTION, LEVELS, BOSS, EVENT, EDITION_OPTION)
OPTION_NAMES = (*(option.name for option in OPTIONS), "deal")
DEAL_KEYS = (
    "attack",
    "defense",
    "hands",
    "lucky",
    "hp",
    "discards",
    "first",
    "abilities",
    "ability_decks",
    "statuses",
    "energy",
)


class _Parsed:
    __slots__ = ("hp", "pool", "decks", "levels", "boss", "event", "edition")

    def __init__(self) -> None:
        self.hp = START_HP
        self.pool: dict[str, CardDef] = {}
        self.decks: list[Ids | str | None] = [None, None]
        self.levels: list[dict[str, int]] = [{}, {}]
        self.boss: Boss | None = None
        self.event: str = "random"
        self.edition = EDITION


def _pair(value: Any, what: str) -> Sequence[Any]:
    if not isinstance(value, Sequence) or isinstance(value, str) or len(value) != 2:
        raise InvalidOptions(f"The “{what}” option lists exactly two seats.")
    return value


def _pool(raw: Any) -> dict[str, CardDef]:
    if raw is None:
        return {card.id: card for card in DEFAULT_POOL}
    if not isinstance(raw, Sequence) or isinstance(raw, str) or not raw:
        raise InvalidOptions("The card pool is a non-empty list of ability cards.")
    pool: dict[str, CardDef] = {}
    for data in raw:
        card = validate_card(data)
        if card.id in pool:
            raise InvalidOptions(f"The card pool lists “{card.id}” twice.")
        pool[card.id] = card
    return pool


def parse_options(options: Mapping[str, Any]) -> _Parsed:
    for name in options:
        if name not in OPTION_NAMES:
            raise InvalidOptions(f"Grimhand Arcana has no option “{name}”.")
    parsed = _Parsed()
    hp = options.get("hp", START_HP)
    assert HP.bounds is not None
    low, high = HP.bounds
    if type(hp) is not int or not low <= hp <= high:
        raise InvalidOptions(f"Starting HP is a whole number from {low} to {high}.")
    parsed.hp = hp
    parsed.pool = _pool(options.get("pool"))
    boss = options.get("boss")
    if boss is not None:
        if not isinstance(boss, str) or boss not in BOSSES:
            raise InvalidOptions(f"There is no boss {boss!r} (bosses: {', '.join(BOSSES)}).")
        parsed.boss = BOSSES[boss]
        missing = sorted(set(parsed.boss.deck) - set(parsed.pool))
        if missing:
            raise InvalidOptions(f"The boss's card “{missing[0]}” is not in the card pool.")
    decks = options.get("decks")
    if decks is not None:
        for seat, deck in enumerate(_pair(decks, "decks")):
            parsed.decks[seat] = _deck(deck, seat, parsed.pool)
    levels = options.get("levels")
    if levels is not None:
        for seat, table in enumerate(_pair(levels, "levels")):
            parsed.levels[seat] = _levels(table, seat, parsed.pool)
    event = options.get("event", "random")
    if event != "random" and (not isinstance(event, str) or event not in EVENTS):
        raise InvalidOptions(
            f"There is no match event {event!r} (events: random, {', '.join(EVENTS)})."
        )
    parsed.event = event
    edition = options.get("edition", EDITION)
    if type(edition) is not int or edition not in EDITIONS:
        raise InvalidOptions(
            f"There is no Arcana rules edition {edition!r} "
            f"(editions: {', '.join(map(str, EDITIONS))})."
        )
    parsed.edition = edition
    return parsed


def _deck(deck: Any, seat: int, pool: Mapping[str, CardDef]) -> Ids | str | None:
    if deck is None:
        return None
    if isinstance(deck, str):
        if deck not in ARCHETYPE_DECKS:
            raise InvalidOptions(
                f"Seat {seat}'s deck: there is no archetype “{deck}” "
                f"(archetypes: {', '.join(ARCHETYPES)})."
            )
        deck = ARCHETYPE_DECKS[deck]
    problems = check_deck(deck, pool)
    if problems:
        raise InvalidOptions(f"Seat {seat}'s deck breaks the deck rules: {' '.join(problems)}")
    return tuple(deck)


def _levels(table: Any, seat: int, pool: Mapping[str, CardDef]) -> dict[str, int]:
    if table is None:
        return {}
    if not isinstance(table, Mapping):
        raise InvalidOptions(f"Seat {seat}'s levels are an object {{card id: level}}.")
    for card_id, level in table.items():
        if card_id not in pool:
            raise InvalidOptions(f"Seat {seat}'s levels name “{card_id}”, not a card of the pool.")
        if type(level) is not int or not 1 <= level <= 3:
            raise InvalidOptions(f"The level of “{card_id}” is a whole number from 1 to 3.")
    return dict(table)


def _cards(pool: Mapping[str, CardDef], levels: Mapping[str, int]) -> dict[str, CardDef]:
    return {card_id: card.at_level(levels.get(card_id, 1)) for card_id, card in pool.items()}


def _counts(*piles: Sequence[int]) -> tuple[int, ...]:
    counts = [0] * (DEATH + 1)
    for pile in piles:
        for value in pile:
            counts[value] += 1
    return tuple(counts)


def _ability_counts(*piles: Sequence[Any]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for pile in piles:
        for card in pile:
            if isinstance(card, str):
                counts[card] = counts.get(card, 0) + 1
    return counts


def new_state(seats: int, seed: bytes, options: Mapping[str, Any] | None) -> ArcanaState:
    """The first position: dealt from the seed, or the fixed deal of `options["deal"]`."""
    if seats != 2:
        raise InvalidOptions("Grimhand Arcana is played by exactly two players.")
    options = options or {}
    parsed = parse_options(options)
    event = draw_event(seed) if parsed.event == "random" else EVENTS[parsed.event]
    if "deal" in options:
        return fixed_state(seed, parsed, event, options["deal"])
    return dealt_state(seed, parsed, event)


def _public_options(parsed: _Parsed, event: MatchEvent) -> dict[str, Any]:
    return {
        "variant": "arcana",
        "hp": parsed.hp,
        "hand_limit": HAND_LIMIT,
        "event": event.key,
        "boss": parsed.boss.key if parsed.boss else None,
        "edition": parsed.edition,
    }


def dealt_state(seed: bytes, parsed: _Parsed, event: MatchEvent) -> ArcanaState:
    chance = Chance(seed, "arcana/setup")
    ordered = tuple(v for v in range(1, DEATH) for _ in range(COPIES)) + (DEATH,) * DEATHS
    decks = [tuple(chance.shuffle(ordered)), tuple(chance.shuffle(ordered))]
    lists: list[Ids] = []
    for seat in (0, 1):
        if seat == 1 and parsed.boss is not None:
            lists.append(parsed.boss.deck)
            continue
        deck = parsed.decks[seat]
        if deck is None:
            deck = ARCHETYPE_DECKS[chance.choice(ARCHETYPES)]
        assert not isinstance(deck, str)
        lists.append(deck)
    ability_decks = [tuple(chance.shuffle(sorted(deck))) for deck in lists]
    first = chance.randbelow(2)
    hands = [tuple(sorted(deck[:START_ABILITIES])) for deck in ability_decks]
    ability_decks = [deck[START_ABILITIES:] for deck in ability_decks]
    lucky: list[Lucky] = [None, None]
    start_hp = [parsed.hp, parsed.hp]
    if parsed.boss is not None:
        start_hp[1] = parsed.boss.hp
        if parsed.boss.start_lucky:
            index = decks[ATTACK].index(LUCKY)
            decks[ATTACK] = decks[ATTACK][:index] + decks[ATTACK][index + 1 :]
            lucky[1] = ATTACK
    composition = _counts(ordered, ordered)
    setup = ArcanaSetup(
        seed,
        (start_hp[0], start_hp[1]),
        (_cards(parsed.pool, parsed.levels[0]), _cards(parsed.pool, parsed.levels[1])),
        (lists[0], lists[1]),
        event,
        parsed.boss,
        composition,
        (DEATHS, DEATHS),
        (_ability_counts(lists[0]), _ability_counts(lists[1])),
        _public_options(parsed, event),
    )
    return _first_state(
        setup,
        (decks[0], decks[1]),
        ((), ()),
        (((), ()), ((), ())),
        (lucky[0], lucky[1]),
        (start_hp[0], start_hp[1]),
        (hands[0], hands[1]),
        (ability_decks[0], ability_decks[1]),
        ((), ()),
        (0, 0),
        first,
    )


def _first_state(
    setup: ArcanaSetup,
    decks: tuple[Hand, Hand],
    discards: tuple[Hand, Hand],
    hands: tuple[tuple[Hand, Hand], tuple[Hand, Hand]],
    lucky: tuple[Lucky, Lucky],
    hp: tuple[int, int],
    abilities: tuple[Ids, Ids],
    ability_decks: tuple[Ids, Ids],
    statuses: tuple[tuple[st.Entry, ...], tuple[st.Entry, ...]],
    turns_taken: tuple[int, int],
    first: int,
) -> ArcanaState:
    taken = list(turns_taken)
    taken[first] += 1
    energy = [0, 0]
    energy[first] = min(taken[first], ENERGY_MAX) + setup.event.energy
    if setup.boss is not None and first == 1:
        energy[first] += setup.boss.energy
    return ArcanaState(
        setup,
        decks,
        discards,
        hands,
        ((0, 0), (0, 0)),
        lucky,
        hp,
        abilities,
        ability_decks,
        ((), ()),
        (((), ()), ((), ())),
        statuses,
        (energy[0], energy[1]),
        (taken[0], taken[1]),
        (0, 0),
        (None, None),
        ((0, 0), (0, 0)),
        first,
        0,
    )


# --- Fixed deals ------------------------------------------------------------------------------


def _values(cards: Any, where: str) -> Hand:
    if not isinstance(cards, Sequence) or isinstance(cards, str):
        raise InvalidOptions(f"The {where} of an Arcana deal is a list of card values.")
    for value in cards:
        if type(value) is not int or not 1 <= value <= DEATH:
            raise InvalidOptions(
                f"Card values are whole numbers from 1 to 13 (found {value!r} in the {where})."
            )
    return tuple(cards)


def _ids(cards: Any, where: str, pool: Mapping[str, CardDef]) -> Ids:
    if not isinstance(cards, Sequence) or isinstance(cards, str):
        raise InvalidOptions(f"The {where} of an Arcana deal is a list of card ids.")
    for card in cards:
        if not isinstance(card, str) or card not in pool:
            raise InvalidOptions(f"“{card}” in the {where} is not a card of the pool.")
    return tuple(cards)


def _deal_pair(deal: Mapping[str, Any], key: str, default: Any) -> Sequence[Any]:
    pair = deal.get(key, default)
    if not isinstance(pair, Sequence) or isinstance(pair, str) or len(pair) != 2:
        raise InvalidOptions(f"The “{key}” of an Arcana deal lists exactly two seats.")
    return pair


def _deal_hands(deal: Mapping[str, Any]) -> tuple[tuple[Hand, Hand], tuple[Hand, Hand]]:
    hands = []
    for seat, hand in enumerate(_deal_pair(deal, "hands", ({}, {}))):
        if not isinstance(hand, Mapping) or set(hand) - set(DECKS):
            raise InvalidOptions('Each hand of a deal is {"attack": [...], "defense": [...]}.')
        pair = []
        for kind in DECKS:
            cards = _values(hand.get(kind, ()), f"{kind} hand of seat {seat}")
            if DEATH in cards:
                raise InvalidOptions("A Death card (13) never sits in a hand.")
            if len(cards) > HAND_LIMIT:
                raise InvalidOptions(f"A hand holds at most {HAND_LIMIT} cards.")
            pair.append(tuple(sorted(cards)))
        hands.append((pair[0], pair[1]))
    return hands[0], hands[1]


def _deal_lucky(deal: Mapping[str, Any], pool: Mapping[str, CardDef]) -> tuple[Lucky, Lucky]:
    slots: list[Lucky] = []
    for slot in _deal_pair(deal, "lucky", (False, False)):
        if slot is False or slot is None:
            slots.append(None)
        elif slot is True:
            slots.append(ATTACK)
        elif isinstance(slot, str) and slot in DECK_INDEX:
            slots.append(DECK_INDEX[slot])
        elif isinstance(slot, str) and slot in pool and pool[slot].slot == "lucky":
            slots.append(slot)
        else:
            raise InvalidOptions(
                'A Lucky slot of a deal is false, true, "attack", "defense" or a lucky card id.'
            )
    return slots[0], slots[1]


def _deal_statuses(deal: Mapping[str, Any]) -> list[tuple[st.Entry, ...]]:
    result = []
    for seat, entries in enumerate(_deal_pair(deal, "statuses", ([], []))):
        if not isinstance(entries, Sequence) or isinstance(entries, str):
            raise InvalidOptions(f"Seat {seat}'s statuses are a list.")
        held: tuple[st.Entry, ...] = ()
        for entry in entries:
            if not isinstance(entry, Mapping) or entry.get("key") not in st.STATUSES:
                raise InvalidOptions(
                    f'A status of a deal is {{"key", "turns", "amount"}}, its key one of '
                    f"{', '.join(st.STATUSES)}."
                )
            turns, amount = entry.get("turns", 1), entry.get("amount", 1)
            if type(turns) is not int or not 1 <= turns <= 20 or type(amount) is not int:
                raise InvalidOptions("A status's turns are 1 to 20 and its amount a whole number.")
            held = st.add(held, entry["key"], turns, amount)
        result.append(held)
    return result


def fixed_state(seed: bytes, parsed: _Parsed, event: MatchEvent, deal: Any) -> ArcanaState:
    """The position a fixed deal describes (docs/rules/grimhand.md, "Arcana: fixed deals")."""
    if not isinstance(deal, Mapping) or "attack" not in deal or "defense" not in deal:
        raise InvalidOptions(
            'An Arcana deal is {"attack": [top card first, ...], "defense": [...]}.'
        )
    for key in deal:
        if key not in DEAL_KEYS:
            raise InvalidOptions(f"An Arcana deal has no “{key}” (known: {', '.join(DEAL_KEYS)}).")
    pool = parsed.pool
    decks = (_values(deal["attack"], "attack deck"), _values(deal["defense"], "defense deck"))
    hands = _deal_hands(deal)
    lucky = _deal_lucky(deal, pool)
    raw_discards = deal.get("discards", {})
    if not isinstance(raw_discards, Mapping) or set(raw_discards) - set(DECKS):
        raise InvalidOptions('The discards of a deal are {"attack": [...], "defense": [...]}.')
    discards = (
        _values(raw_discards.get("attack", ()), "attack discard pile"),
        _values(raw_discards.get("defense", ()), "defense discard pile"),
    )
    for kind in (ATTACK, DEFENSE):
        if discards[kind] and not decks[kind]:
            raise InvalidOptions(
                f"The {DECKS[kind]} deck is empty but its discard pile is not: "
                "a spent deck is reshuffled at once."
            )
    abilities = [
        tuple(sorted(_ids(cards, f"ability hand of seat {seat}", pool)))
        for seat, cards in enumerate(_deal_pair(deal, "abilities", ([], [])))
    ]
    ability_decks = [
        _ids(cards, f"ability deck of seat {seat}", pool)
        for seat, cards in enumerate(_deal_pair(deal, "ability_decks", ([], [])))
    ]
    hp_pair = _deal_pair(deal, "hp", (parsed.hp, parsed.hp))
    for value in hp_pair:
        if type(value) is not int or not 1 <= value <= 10_000:
            raise InvalidOptions("HP in an Arcana deal are whole numbers from 1 to 10000.")
    energy = _deal_pair(deal, "energy", (ENERGY_MAX, ENERGY_MAX))
    for value in energy:
        if type(value) is not int or not 1 <= value <= ENERGY_MAX:
            raise InvalidOptions(f"Energy in a deal is a whole number from 1 to {ENERGY_MAX}.")
    first = deal.get("first", 0)
    if type(first) is not int or first not in (0, 1):
        raise InvalidOptions("The first seat of an Arcana deal is 0 or 1.")
    slotted = [LUCKY for slot in lucky if isinstance(slot, int)]
    composition = _counts(*decks, *discards, *hands[0], *hands[1], slotted)
    if not any(v != LUCKY and composition[v] for v in range(1, DEATH)) and not any(abilities):
        raise InvalidOptions(
            "An Arcana deal needs at least one numbered card that is not a 7 or a 13, "
            "or the match could stall."
        )
    start_hp = (max(parsed.hp, hp_pair[0]), max(parsed.hp, hp_pair[1]))
    if parsed.boss is not None:
        start_hp = (start_hp[0], max(parsed.boss.hp, hp_pair[1]))
    lists = (
        tuple(abilities[0]) + ability_decks[0],
        tuple(abilities[1]) + ability_decks[1],
    )
    setup = ArcanaSetup(
        seed,
        start_hp,
        (_cards(pool, parsed.levels[0]), _cards(pool, parsed.levels[1])),
        lists,
        event,
        parsed.boss,
        composition,
        (decks[ATTACK].count(DEATH), decks[DEFENSE].count(DEATH)),
        (_ability_counts(lists[0], lucky[:1]), _ability_counts(lists[1], lucky[1:])),
        _public_options(parsed, event),
    )
    statuses = _deal_statuses(deal)
    # A deal's "energy" is the first seat's energy now; both seats count as having had
    # that many turns, so the next turns give min(n + 1, 3).
    taken = (energy[0], energy[1])
    state = _first_state(
        setup,
        decks,
        discards,
        hands,
        lucky,
        (hp_pair[0], hp_pair[1]),
        (abilities[0], abilities[1]),
        (ability_decks[0], ability_decks[1]),
        (statuses[0], statuses[1]),
        (taken[0] - (first == 0), taken[1] - (first == 1)),
        first,
    )
    return state
