"""Writes of Arcana: the starter set, cards and shards granted by progression, upgrades,
decks, and the options a new Arcana match is created with.

Lock precondition: every write about a player's collection holds their `Collector` row
lock (`collector_locked`), inside a transaction. When progression grants cards it already
holds the player's PlayerProgress lock: lock order PlayerProgress, then Collector.

A match receives COPIES: `match_options` writes the enabled pool, the chosen deck and the
card levels into the options, so an admin's later edit of a card, or a player's later
edit of a deck or upgrade, never changes a running match or an old replay.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from django.db import IntegrityError, transaction

from arcana import selectors
from arcana.engine import ARCHETYPE_DECKS, DECK_RULES, EDITION, deck_problems
from arcana.errors import ArcanaError, DeckRefused, NotEnoughShards, NotFound, NotOwned
from arcana.models import MAX_LEVEL, ArcanaCard, ArcanaDeck, CardGrant, Collector, OwnedCard

VARIANT = "arcana"
STARTER_ARCHETYPE = "defensive"  # the starter set: one archetype deck's cards (docs/arcana.md)
STARTER_DECK_NAME = "Starter"
DUPLICATE_SHARDS = 10  # a copy beyond what a deck may hold becomes shards
DECK_NAME_MAX = 40


def max_copies() -> int:
    """Copies of one card a deck may hold: the engine's own limit."""
    return int(DECK_RULES.max_copies)


def collector_locked(user: Any) -> Collector:
    """The player's Collector row (created on first need), locked until the transaction ends."""
    user_id = getattr(user, "pk", user)
    Collector.objects.get_or_create(user_id=user_id)
    return Collector.objects.select_for_update().get(user_id=user_id)


# --- owning cards ---------------------------------------------------------------------------


def _own(user_id: int, card: ArcanaCard, *, copies: int, source: str) -> tuple[int, int]:
    """Give `copies` of `card`; copies past the deck limit become shards. Needs the lock.

    Returns (copies kept, shards given instead)."""
    owned = OwnedCard.objects.filter(user_id=user_id, card=card).first()
    have = owned.copies if owned else 0
    kept = max(0, min(copies, max_copies() - have))
    if kept and owned is None:
        OwnedCard.objects.create(user_id=user_id, card=card, copies=kept)
    elif kept and owned is not None:
        OwnedCard.objects.filter(pk=owned.pk).update(copies=have + kept)
    if kept:
        CardGrant.objects.bulk_create(
            CardGrant(user_id=user_id, card=card, source=source[:120]) for _ in range(kept)
        )
    extra = (copies - kept) * DUPLICATE_SHARDS
    return kept, extra


def _shards_add(collector: Collector, amount: int, *, source: str) -> None:
    if not amount:
        return
    collector.shards += amount
    collector.save(update_fields=["shards"])
    CardGrant.objects.create(user_id=collector.user_id, shards=amount, source=source[:120])


def starter_ensure(*, user: Any) -> Collector:
    """Give `user` the starter set once: the cards of one archetype deck (enough for one
    legal deck) and that deck, saved as "Starter". Safe to call on every page."""
    existing = Collector.objects.filter(user=user, has_starter=True).first()
    if existing is not None:
        return existing
    with transaction.atomic():
        collector = collector_locked(user)
        if collector.has_starter:
            return collector
        card_ids = list(ARCHETYPE_DECKS[STARTER_ARCHETYPE])
        cards = selectors.cards_by_id(card_ids)
        for card_id, copies in sorted(Counter(card_ids).items()):
            if card_id in cards:
                _own(collector.user_id, cards[card_id], copies=copies, source="Starter set")
        if not deck_problems(card_ids, selectors.pool_engine()):
            ArcanaDeck.objects.get_or_create(
                owner_id=collector.user_id, name=STARTER_DECK_NAME, defaults={"card_ids": card_ids}
            )
        collector.has_starter = True
        collector.save(update_fields=["has_starter"])
        return collector


def collection_grant(
    *, user: Any, cards: Sequence[tuple[ArcanaCard, str]] = (), shards: int = 0, source: str = ""
) -> list[str]:
    """Progression's rewards of Arcana (a level, a quest, an achievement, a pass tier):
    cards, each with its source, and shards. Returns the lines the player reads.

    Lock precondition: inside a transaction; the Collector lock is taken here.
    """
    if shards < 0:
        raise ArcanaError("A reward gives shards; it cannot take them away.")
    collector = collector_locked(user)
    lines = []
    for card, card_source in cards:
        kept, extra = _own(collector.user_id, card, copies=1, source=card_source)
        if kept:
            lines.append(f"New Arcana card: {card.name}")
        else:
            lines.append(f"{card.name} again: +{extra} shards instead")
            _shards_add(collector, extra, source=f"{card_source}: spare {card.name}")
    if shards:
        _shards_add(collector, shards, source=source or "Reward")
        lines.append(f"+{shards} Arcana shards")
    return lines


def card_upgrade(*, user: Any, card_id: str) -> OwnedCard:
    """Spend shards to raise an owned card one level (1 to 3). Not owned, at the top, or too
    few shards: a clear refusal and nothing written."""
    with transaction.atomic():
        collector = collector_locked(user)
        owned = (
            OwnedCard.objects.select_related("card")
            .filter(user_id=collector.user_id, card__card_id=card_id)
            .first()
        )
        if owned is None:
            name = ArcanaCard.objects.filter(card_id=card_id).values_list("name", flat=True)
            what = f"“{name[0]}”" if name else "that card"
            raise NotOwned(f"You don't own {what}: cards come from levels, quests and the pass.")
        if owned.level >= MAX_LEVEL:
            raise ArcanaError(f"“{owned.card.name}” is already at level {MAX_LEVEL}, the top.")
        cost = selectors.UPGRADE_COST[owned.level + 1]
        if collector.shards < cost:
            raise NotEnoughShards(
                f"Level {owned.level + 1} of “{owned.card.name}” costs {cost} shards; you "
                f"have {collector.shards}. Shards come from levels, quests and the pass."
            )
        _shards_add(collector, -cost, source=f"Upgrade: {owned.card.name} to {owned.level + 1}")
        owned.level += 1
        owned.save(update_fields=["level"])
        return owned


# --- decks ----------------------------------------------------------------------------------


def deck_problems_for(*, user: Any, card_ids: Sequence[str]) -> list[str]:
    """Every reason `user` may not play `card_ids`: cards they don't own (or not enough
    copies of), cards out of the pool, then the engine's deck rules in its own words."""
    counts = Counter(card_ids)
    cards = selectors.cards_by_id(counts)
    owned = selectors.owned_copies(user=user)
    problems = []
    for card_id, count in sorted(counts.items()):
        card = cards.get(card_id)
        if card is None:
            problems.append(f"There is no card “{card_id[:40]}”.")
        elif not card.is_enabled:
            problems.append(f"“{card.name}” is not in the current card pool.")
        elif card_id not in owned:
            problems.append(f"You don't own “{card.name}”.")
        elif count > owned[card_id]:
            copies = owned[card_id]
            problems.append(
                f"You own {copies} cop{'y' if copies == 1 else 'ies'} of “{card.name}”, "
                f"not {count}."
            )
    pool = selectors.pool_engine()
    for problem in deck_problems([c for c in card_ids if c in pool], pool):
        if problem not in problems:
            problems.append(problem)
    return problems


def _deck_name(name: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise DeckRefused(["Give the deck a name."])
    if len(name) > DECK_NAME_MAX:
        raise DeckRefused([f"A deck name has at most {DECK_NAME_MAX} characters."])
    return name


def deck_save(
    *, user: Any, name: str, card_ids: Sequence[str], deck_id: int | None = None
) -> ArcanaDeck:
    """Create (`deck_id` None) or replace one of `user`'s decks. Any broken rule: DeckRefused
    with every problem, nothing written."""
    name = _deck_name(name)
    problems = deck_problems_for(user=user, card_ids=card_ids)
    if problems:
        raise DeckRefused(problems)
    with transaction.atomic():
        collector_locked(user)
        if deck_id is None:
            deck = ArcanaDeck(owner=user)
        else:
            found = ArcanaDeck.objects.filter(owner=user, pk=deck_id).first()
            if found is None:
                raise NotFound("You have no such deck.")
            deck = found
        if ArcanaDeck.objects.filter(owner=user, name=name).exclude(pk=deck.pk).exists():
            raise DeckRefused([f"You already have a deck called “{name}”."])
        deck.name, deck.card_ids = name, list(card_ids)
        try:
            with transaction.atomic():
                deck.save()
        except IntegrityError:
            raise DeckRefused([f"You already have a deck called “{name}”."]) from None
        return deck


def deck_delete(*, user: Any, deck_id: int) -> None:
    deleted, _ = ArcanaDeck.objects.filter(owner=user, pk=deck_id).delete()
    if not deleted:
        raise NotFound("You have no such deck.")


# --- a new match ----------------------------------------------------------------------------


def match_options(*, user: Any, deck_id: int | None = None, is_rated: bool) -> dict[str, Any]:
    """The options of a new Arcana match created by `user` (seat 0): a copy of the enabled
    pool, seat 0's deck (`deck_id`, or None: the engine's archetype deck), the levels, and
    the rules' edition it is played under (today's; a stored match keeps its own).

    Seat 1 picks its own deck when it joins (`seat_choice`); until then, and for a player
    who picks none, it is None (its archetype deck). Rated play passes level 1 for every
    card (normalized); unrated play the levels `user` owns. A deck that is not theirs, or no
    longer legal: a clear error.
    """
    mine = seat_choice(user=user, deck_id=deck_id, is_rated=is_rated)
    card_ids, levels = mine["decks"], mine["levels"]
    return {
        "variant": VARIANT,
        "pool": selectors.pool_cards(),
        "decks": [card_ids, None],
        "levels": [levels, {}],
        "edition": EDITION,
    }


def join_choice(*, user: Any, match_id: int, deck_id: int | None) -> dict[str, Any] | None:
    """`user`'s own entries of the per-seat options when joining the Arcana match
    `match_id` with the deck `deck_id` (games.services.tables.match_join writes them); None
    for any other match, or when no deck was picked (an archetype deck). Card levels are
    normalized when the match may be rated: not casual, and no AI seat."""
    is_rated = selectors.join_may_be_rated(match_id=match_id)
    if deck_id is None or is_rated is None:
        return None
    return seat_choice(user=user, deck_id=deck_id, is_rated=is_rated)


def seat_choice(*, user: Any, deck_id: int | None, is_rated: bool) -> dict[str, Any]:
    """One seat's own entries of an Arcana match's per-seat options: its deck (`deck_id`'s
    card ids, or None: the engine's archetype deck) and its card levels (level 1 for every
    card when the match may be rated). A deck that is not theirs, or no longer legal: a
    clear error, nothing written (the starter set excepted, which every player owns)."""
    starter_ensure(user=user)
    if deck_id is None:
        return {"decks": None, "levels": {}}
    deck = selectors.deck_get(user=user, deck_id=deck_id)
    if deck is None:
        raise NotFound("You have no such deck.")
    problems = deck_problems_for(user=user, card_ids=deck.card_ids)
    if problems:
        raise DeckRefused([f"Your deck “{deck.name}” cannot be played:", *problems])
    card_ids = list(deck.card_ids)
    levels = (
        {card_id: 1 for card_id in sorted(set(card_ids))}
        if is_rated
        else selectors.levels_of(user=user, card_ids=card_ids)
    )
    return {"decks": card_ids, "levels": levels}
