"""Reads of Arcana: the enabled pool as the engine takes it, a player's collection (with
what an upgrade would cost), their decks, the levels their cards are at, and their PvE
path (which stages are locked, open or cleared)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from arcana.engine import CardDef, pool_of, text_of
from arcana.errors import NotFound
from arcana.models import (
    MAX_LEVEL,
    ArcanaCard,
    ArcanaDeck,
    Collector,
    OwnedCard,
    PathFight,
    PathStageRecord,
)
from arcana.path import STAGES, Stage, stage_before

# Shards an upgrade to level n costs (from n - 1). docs/arcana.md, "Upgrades".
UPGRADE_COST = {2: 40, 3: 120}


def cards_enabled() -> list[ArcanaCard]:
    return list(ArcanaCard.objects.filter(is_enabled=True).order_by("card_id"))


def pool_cards(cards: Iterable[ArcanaCard] | None = None) -> list[dict[str, Any]]:
    """The enabled cards as the engine's card dicts (a match's `pool` option), in id order;
    a card the engine refuses (edited outside the admin) is left out."""
    rows = cards_enabled() if cards is None else list(cards)
    pool = pool_of(card.to_engine_card() for card in rows)
    engine_cards = [pool[card_id].to_json() for card_id in sorted(pool)]
    for card in engine_cards:
        card["text"] = card["text"] or text_of(card)
    return engine_cards


def pool_engine() -> dict[str, CardDef]:
    return pool_of(card.to_engine_card() for card in cards_enabled())


def shards_of(*, user: Any) -> int:
    row = Collector.objects.filter(user=user).first()
    return row.shards if row else 0


def owned_copies(*, user: Any) -> dict[str, int]:
    """card id -> copies owned, enabled cards only."""
    rows = OwnedCard.objects.filter(user=user, card__is_enabled=True).select_related("card")
    return {row.card.card_id: row.copies for row in rows}


def levels_of(*, user: Any, card_ids: Iterable[str]) -> dict[str, int]:
    """card id -> the level `user` owns it at, for the given ids (level 1 when not owned)."""
    wanted = set(card_ids)
    rows = OwnedCard.objects.filter(user=user, card__card_id__in=wanted).select_related("card")
    owned = {row.card.card_id: row.level for row in rows}
    return {card_id: owned.get(card_id, 1) for card_id in sorted(wanted)}


@dataclass(frozen=True)
class CollectionRow:
    card: ArcanaCard
    owned: OwnedCard | None

    @property
    def level(self) -> int:
        return self.owned.level if self.owned else 0

    @property
    def upgrade_cost(self) -> int | None:
        """Shards for the next level; None when not owned or at the top level."""
        if self.owned is None or self.owned.level >= MAX_LEVEL:
            return None
        return UPGRADE_COST[self.owned.level + 1]


def collection_for(*, user: Any) -> list[CollectionRow]:
    """Every enabled card, owned ones first, with the player's copies and level."""
    owned = {row.card_id: row for row in OwnedCard.objects.filter(user=user)}
    rows = [CollectionRow(card, owned.get(card.pk)) for card in cards_enabled()]
    return sorted(rows, key=lambda row: (row.owned is None, row.card.slot, row.card.name))


def decks_for(*, user: Any) -> list[ArcanaDeck]:
    return list(ArcanaDeck.objects.filter(owner=user).order_by("name", "pk"))


def deck_get(*, user: Any, deck_id: int) -> ArcanaDeck | None:
    """`user`'s deck `deck_id`; None for no such deck or another player's."""
    return ArcanaDeck.objects.filter(owner=user, pk=deck_id).first()


def cards_by_id(card_ids: Iterable[str]) -> dict[str, ArcanaCard]:
    return {card.card_id: card for card in ArcanaCard.objects.filter(card_id__in=set(card_ids))}


# --- the PvE path (arcana.path) -------------------------------------------------------------


@dataclass(frozen=True)
class PathRow:
    stage: Stage
    number: int
    state: str  # "locked", "open" or "cleared"
    record: PathStageRecord | None
    running: PathFight | None  # a fight of this stage still in play
    card: ArcanaCard | None  # the card the first clear gives, if any


def path_records(*, user: Any) -> dict[str, PathStageRecord]:
    return {row.stage: row for row in PathStageRecord.objects.filter(user=user)}


def stage_is_open(*, user: Any, stage: Stage) -> bool:
    """Stage 1 always; any other once the stage before it is cleared."""
    before = stage_before(stage.key)
    if before is None:
        return True
    return PathStageRecord.objects.filter(
        user=user, stage=before.key, cleared__isnull=False
    ).exists()


def fight_running(*, user: Any, stage: Stage) -> PathFight | None:
    """`user`'s fight of `stage` whose match is still waiting or in play."""
    return (
        PathFight.objects.select_related("match")
        .filter(user=user, stage=stage.key, match__status__in=("waiting", "active"))
        .first()
    )


def path_for(*, user: Any) -> list[PathRow]:
    """Every stage in order, with its state for `user`."""
    records = path_records(user=user)
    running = {
        fight.stage: fight
        for fight in PathFight.objects.select_related("match").filter(
            user=user, match__status__in=("waiting", "active")
        )
    }
    cards = cards_by_id(stage.card for stage in STAGES if stage.card)
    rows, is_open = [], True
    for number, stage in enumerate(STAGES, start=1):
        record = records.get(stage.key)
        is_cleared = record is not None and record.cleared is not None
        state = "cleared" if is_cleared else "open" if is_open else "locked"
        card = cards.get(stage.card) if stage.card else None
        rows.append(PathRow(stage, number, state, record, running.get(stage.key), card))
        is_open = is_cleared
    return rows


def path_deck(*, user: Any, deck_id: int | None) -> ArcanaDeck:
    """The deck a fight uses: `deck_id` (theirs only), else their Starter deck, else their
    first. NotFound when there is none."""
    decks = ArcanaDeck.objects.filter(owner=user)
    if deck_id is not None:
        deck = decks.filter(pk=deck_id).first()
    else:
        deck = decks.filter(name="Starter").first() or decks.order_by("name", "pk").first()
    if deck is None:
        raise NotFound("You have no such deck: build one on the Decks page.")
    return deck


def fights_recent(*, user: Any, limit: int = 5) -> list[PathFight]:
    return list(PathFight.objects.filter(user=user).select_related("match")[:limit])


def join_may_be_rated(*, match_id: int) -> bool | None:
    """Whether a player joining the Arcana match `match_id` joins a table that may end rated
    (not casual, no AI seat); None when there is no such Arcana match."""
    from games.models import Match, Seat

    match = Match.objects.filter(pk=match_id).only("options", "is_casual").first()
    if match is None or (match.options or {}).get("variant") != "arcana":
        return None
    return not match.is_casual and not match.seats.filter(kind=Seat.Kind.AI).exists()
