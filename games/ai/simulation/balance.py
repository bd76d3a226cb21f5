"""The Arcana balance report: AI levels play Grimhand Arcana with random legal decks, and
each card's play rate and effect on the win rate, the seat advantage, the match lengths
and the Death-card endings are tallied (`manage.py simulate grimhand --options
'{"variant": "arcana"}' --balance`; the admin's "check with the engine" plays the same).

How a run is played:
- Deals come in pairs (`deals.match_seed(seed, k)` for matches 2k and 2k+1) and the two
  levels swap seats between the two matches of a pair, as in `matches.simulate`.
- Each deal gets one deck per level: a random legal deck from the pool (`random_deck`:
  uniform among the cards the copy and rarity limits of DECK_RULES still allow; the
  engine's `check_deck` decides what is legal), or an archetype deck of the engine's
  `ARCHETYPE_DECKS` when no legal deck turns up. A deck follows its level when the seats
  swap, so each pair plays the same two decks once from each seat. Options that name
  "decks" themselves are played as given.
- A card's play rate is the share of the seats whose deck held it that played it at least
  once (`card_played` events of the match's own moves, the public ones); its win-rate
  delta is the win share of the seats whose deck held it minus that of the seats whose deck
  did not, with a normal-approximation 95% interval (draws and unfinished matches count as
  not won).
- The targets of issue 17: a median match of at least 20 plies, fewer than 40% of the
  matches ending on a Death card (Outcome reason "death_card"), and no card whose presence
  moves the win rate by more than 10 points (the point estimate; a card whose whole
  interval lies beyond 10 points is named too).

Invariants (the standard library, `games.engine` and `games.ai` only): everything but the
wall time is reproducible from the seed; the decks are drawn from a stream of their own
(sha256 of the seed, the deal and "decks"), never the match's.
"""

from __future__ import annotations

import hashlib
import random
import statistics
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from games.ai import levels
from games.ai.play import play_match
from games.ai.simulation.checks import SimulationError
from games.ai.simulation.deals import match_seed, seat_order
from games.ai.simulation.stats import difference_interval, histogram, quartiles, wilson_interval
from games.engine.core import Event, Game, InvalidOptions
from games.engine.grimhand.arcana.cards import (
    ARCHETYPE_DECKS,
    DECK_RULES,
    DEFAULT_POOL,
    CardDef,
    check_deck,
    validate_card,
)

MEDIAN_PLIES = 20  # target: a median match of at least this many plies
DEATH_SHARE = 0.40  # target: fewer than this share of matches end on a Death card
CARD_DELTA = 0.10  # target: no card moves the win rate by more than this
HISTOGRAM_WIDTH = 10  # plies per bin of the match-length histogram
HISTOGRAM_BINS = 10  # the last bin is open-ended


def pool_of(options: Mapping[str, Any]) -> dict[str, CardDef]:
    """The match's card pool by id: the options' "pool" checked by the engine, or the
    engine's DEFAULT_POOL."""
    cards = options.get("pool")
    if cards is None:
        return {card.id: card for card in DEFAULT_POOL}
    try:
        return {card.id: card for card in (validate_card(data) for data in cards)}
    except InvalidOptions as error:
        raise SimulationError(f"--options pool: {error.message}") from None


def random_deck(pool: Mapping[str, CardDef], rng: random.Random) -> list[str] | None:
    """A random deck of DECK_RULES.size cards drawn uniformly among the cards that keep the
    copy and rarity limits, if the engine's `check_deck` finds it legal (else None)."""
    rules = DECK_RULES
    ids = sorted(pool)
    copies: Counter[str] = Counter()
    rarities: Counter[str] = Counter()
    deck: list[str] = []
    while len(deck) < rules.size:
        allowed = [
            card_id
            for card_id in ids
            if copies[card_id] < rules.max_copies
            and rarities[pool[card_id].rarity] < _rarity_cap(pool[card_id].rarity)
        ]
        if not allowed:
            return None
        card_id = rng.choice(allowed)
        deck.append(card_id)
        copies[card_id] += 1
        rarities[pool[card_id].rarity] += 1
    deck.sort()
    return None if check_deck(deck, pool) else deck


def _rarity_cap(rarity: str) -> int:
    cap = getattr(DECK_RULES, f"max_{rarity}", None)
    return cap if isinstance(cap, int) else DECK_RULES.size


def deal_decks(
    pool: Mapping[str, CardDef], seed: int, deal: int, players: int = 2
) -> tuple[list[list[str]], int]:
    """One deck per level for deal `deal` (random legal ones, else archetype decks), and how
    many of them fell back to an archetype deck."""
    rng = random.Random(hashlib.sha256(f"{seed}:{deal}:decks".encode()).digest())
    archetypes = sorted(ARCHETYPE_DECKS)
    decks, fallbacks = [], 0
    for _player in range(players):
        deck = random_deck(pool, rng)
        if deck is None:
            deck = list(ARCHETYPE_DECKS[rng.choice(archetypes)])
            fallbacks += 1
        decks.append(deck)
    return decks, fallbacks


def played_cards(events: Sequence[Event], seat: int) -> list[str]:
    """The ability cards `seat` played or triggered, once per public `card_played` event."""
    return [
        str(event.data["card"])
        for event in events
        if event.type == "card_played"
        and event.visible_to is None
        and event.data.get("seat") == seat
    ]


def balance(
    game: Game,
    names: Sequence[str],
    *,
    matches: int,
    seed: int,
    max_plies: int,
    options: Mapping[str, Any],
) -> dict[str, Any]:
    """Play `matches` Arcana matches between the two levels `names` and tally the report."""
    if len(names) != 2:
        raise SimulationError("The balance report is played by two levels, one per seat.")
    if options.get("variant") != "arcana":
        raise SimulationError(
            '--balance reports on Grimhand Arcana: add --options \'{"variant": "arcana"}\'.'
        )
    started = time.perf_counter()
    pool = pool_of(options)
    given_decks = options.get("decks")
    seats_played: list[tuple[frozenset[str], list[str], bool]] = []  # deck, played, won
    plies_each: list[int] = []
    endings: dict[str, int] = {}
    seat_wins = [0, 0]
    draws = unfinished = fallbacks = 0
    decks: list[list[str]] = []
    for index in range(matches):
        deal, order = index // 2, seat_order(2, index, rotate=True)
        if given_decks is None and index % 2 == 0:
            decks, fell_back = deal_decks(pool, seed, deal)
            fallbacks += fell_back
        match_options = dict(options)
        if given_decks is None:
            match_options["decks"] = [decks[order[seat]] for seat in (0, 1)]
        bots = [levels.get(names[bot]).bot(game.slug) for bot in order]
        events: list[Event] = []
        state, plies, _moves = play_match(
            game,
            match_seed(seed, deal),
            bots,
            match_options,
            max_plies=max_plies,
            events=events,
        )
        plies_each.append(plies)
        outcome = game.outcome(state)
        if outcome is None:
            unfinished += 1
        else:
            endings[outcome.reason] = endings.get(outcome.reason, 0) + 1
            draws += not outcome.winners
        for seat in (0, 1):
            won = outcome is not None and seat in outcome.winners
            seat_wins[seat] += won
            deck = _deck_of(match_options, seat)
            seats_played.append((frozenset(deck), played_cards(events, seat), won))
    report: dict[str, Any] = {
        "game": game.slug,
        "variant": "arcana",
        "matches": matches,
        "seed": seed,
        "levels": list(names),
        "searches": {
            name: levels.get(name).describe(game.slug, "arcana") for name in dict.fromkeys(names)
        },
        "options": {key: value for key, value in options.items() if key != "pool"},
        "pool": "default" if options.get("pool") is None else f"{len(pool)} cards from options",
        "decks": "as given" if given_decks is not None else "random legal decks",
        "deck_fallbacks": fallbacks,
        "seat_advantage": _seat_advantage(seat_wins[0], matches),
        "wins_by_seat": seat_wins,
        "draws": draws,
        "unfinished": unfinished,
        "plies": _lengths(plies_each),
        "endings": dict(sorted(endings.items())),
        "death_share": round(endings.get("death_card", 0) / matches, 4),
        "cards": _card_rows(pool, seats_played),
    }
    report["targets"] = targets(report)
    report["wall_seconds"] = round(time.perf_counter() - started, 3)
    return report


def _deck_of(options: Mapping[str, Any], seat: int) -> list[str]:
    decks = options.get("decks")
    if decks is None or decks[seat] is None:
        return []  # an archetype deck the engine picked: not counted for any card
    return [str(card) for card in decks[seat]]


def _seat_advantage(seat0_wins: int, matches: int) -> dict[str, Any]:
    low, high = wilson_interval(seat0_wins, matches)
    return {
        "seat0_wins": seat0_wins,
        "share": round(seat0_wins / matches, 4),
        "ci95": [round(low, 4), round(high, 4)],
    }


def _lengths(plies: Sequence[int]) -> dict[str, Any]:
    ordered = sorted(plies)
    return {
        **quartiles(ordered),
        "mean": round(statistics.fmean(ordered), 2),
        "histogram": histogram(ordered, HISTOGRAM_WIDTH, HISTOGRAM_BINS),
    }


def _card_rows(
    pool: Mapping[str, CardDef], seats: Sequence[tuple[frozenset[str], list[str], bool]]
) -> list[dict[str, Any]]:
    rows = []
    for card_id, card in sorted(pool.items()):
        holders = [seat for seat in seats if card_id in seat[0]]
        others = [seat for seat in seats if card_id not in seat[0]]
        played_by = sum(1 for seat in holders if card_id in seat[1])
        wins_with = sum(1 for seat in holders if seat[2])
        wins_without = sum(1 for seat in others if seat[2])
        delta = difference_interval(wins_with, len(holders), wins_without, len(others))
        rows.append(
            {
                "card": card_id,
                "name": card.name,
                "in_decks": len(holders),
                "played_by": played_by,
                "play_rate": round(played_by / len(holders), 4) if holders else None,
                "plays": sum(seat[1].count(card_id) for seat in seats),
                "win_with": round(wins_with / len(holders), 4) if holders else None,
                "win_without": round(wins_without / len(others), 4) if others else None,
                "delta": None if delta is None else round(delta[0], 4),
                "ci95": None if delta is None else [round(delta[1], 4), round(delta[2], 4)],
            }
        )
    return rows


def targets(report: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The issue's three balance targets, each with what was measured and met or not."""
    median = report["plies"]["median"]
    death = report["death_share"]
    measured = [row for row in report["cards"] if row["delta"] is not None]
    worst = max(measured, key=lambda row: abs(row["delta"]), default=None)
    beyond = sorted(
        row["card"]
        for row in measured
        if row["ci95"][0] > CARD_DELTA or row["ci95"][1] < -CARD_DELTA
    )
    if worst is None:
        card_text, card_met = "no card was dealt", False
    else:
        card_text = f"largest: {worst['card']} {100 * worst['delta']:+.1f} points"
        if beyond:
            card_text += f"; interval wholly beyond 10 points: {', '.join(beyond)}"
        card_met = abs(worst["delta"]) <= CARD_DELTA
    return [
        {
            "target": f"median match at least {MEDIAN_PLIES} plies",
            "measured": f"{median} plies",
            "met": median is not None and median >= MEDIAN_PLIES,
        },
        {
            "target": f"under {100 * DEATH_SHARE:.0f}% of matches end on a Death card",
            "measured": f"{100 * death:.1f}%",
            "met": death < DEATH_SHARE,
        },
        {
            "target": f"no card moves the win rate by more than {100 * CARD_DELTA:.0f} points",
            "measured": card_text,
            "met": card_met,
        },
    ]
