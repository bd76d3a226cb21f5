"""Writes of the PvE path (arcana.path): starting a fight against the house, and settling
it once the match is over.

Lock precondition and order: starting a fight holds the player's Collector row while it
checks for a fight in play and creates the match (so two clicks make one fight). Settling
runs inside the transaction that finished the match (games.effects.match_finished holds
the Match row), then takes the PathFight row, then the player's PlayerProgress row
(progression's player lock: it serialises every record and reward of that player, so two
fights of one stage finishing at once clear it once), then progression takes the
Collector row for cards and shards. Match, PathFight,
PlayerProgress, Collector: nothing here locks in another order.

Exactly once: a fight is settled only while `settled` is empty (under its row lock), and a
stage's reward is given only while its record's `cleared` is empty (under the player
lock). A repeated call, a retried task or a replay writes nothing.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.utils import timezone

from arcana import selectors, services
from arcana.errors import ArcanaError, NotFound
from arcana.models import ArcanaCard, PathFight, PathStageRecord
from arcana.path import Stage, stage_before, stage_get
from config.celery_app import task_send

logger = logging.getLogger(__name__)

PLAYER_SEAT = 0  # the player sits in seat 0, the house (or its boss) in seat 1


class StageLocked(ArcanaError):
    status = 403


def fight_options(*, user: Any, stage: Stage, deck_id: int) -> dict[str, Any]:
    """The options of a fight: the player's deck and levels (unrated: their own levels),
    the house's archetype deck or the boss, and the stage's event."""
    options = services.match_options(user=user, deck_id=deck_id, is_rated=False)
    options["decks"] = [options["decks"][0], stage.house or None]
    options["boss"] = stage.boss
    options["event"] = stage.event
    return options


def fight_start(*, user: Any, stage_key: str, deck_id: int | None = None) -> Any:
    """Create the match of `stage_key` against the house with `user`'s deck (their Starter
    deck when None) and record it as a fight. Returns the match.

    Refused with a message, nothing written: no such stage, a locked one, a deck that is
    not theirs or not legal. A fight of that stage still in play is returned instead of a
    second one.
    """
    from games.errors import MatchError
    from games.services import match_create

    stage = stage_get(stage_key)
    if stage is None:
        raise NotFound("There is no such stage on the path.")
    if not selectors.stage_is_open(user=user, stage=stage):
        before = stage_before(stage.key)  # None only for the first stage, always open
        after = f"“{before.title}”" if before else "the stage before it"
        raise StageLocked(f"“{stage.title}” opens when you beat {after}.")
    services.starter_ensure(user=user)
    with transaction.atomic():
        services.collector_locked(user)  # two clicks at once: one fight
        running = selectors.fight_running(user=user, stage=stage)
        if running is not None:
            return running.match
        deck = selectors.path_deck(user=user, deck_id=deck_id)
        options = fight_options(user=user, stage=stage, deck_id=deck.pk)
        try:
            match = match_create(
                creator=user,
                game_slug="grimhand",
                opponent="ai",
                ai_level=stage.ai_level,
                options=options,
            )
        except MatchError as error:
            raise ArcanaError(error.message) from None
        PathFight.objects.create(match=match, user=user, stage=stage.key, deck_name=deck.name)
    return match


def fight_result_record(*, match: Any) -> None:
    """games.effects.match_finished's step: settle the match's fight, if it is one.

    Never raises (an exception would undo the result): a failure rolls back to its own
    savepoint, is logged, and the idempotent task tries again after the commit."""
    if match.game != "grimhand" or not isinstance(match.options, dict):
        return
    if match.options.get("variant") != services.VARIANT:
        return
    try:
        with transaction.atomic():
            fight_settle(match_id=match.pk)
    except Exception:
        logger.exception("arcana: settling the path fight of match %s failed", match.pk)
        match_id = match.pk
        transaction.on_commit(lambda: task_send("arcana.tasks.fight_settle", match_id), robust=True)


def fight_settle(*, match_id: int) -> PathFight | None:
    """Record how the fight of match `match_id` went, once: a win clears its stage (and
    gives the stage's reward the first time), anything else counts as an attempt. Returns
    the fight when settled now; None for no fight, a match not finished, or done before."""
    from games.models import Match
    from progression.services.players import progress_locked

    with transaction.atomic():
        fight = PathFight.objects.select_for_update().filter(match_id=match_id).first()
        if fight is None or fight.settled is not None:
            return None
        match = Match.objects.get(pk=match_id)
        if match.status != Match.Status.FINISHED or not match.outcome:
            return None
        stage = stage_get(fight.stage)
        progress = progress_locked(fight.user_id)
        record, _ = PathStageRecord.objects.get_or_create(user_id=fight.user_id, stage=fight.stage)
        now = timezone.now()
        if _is_won(match):
            fight.result = PathFight.Result.WON
            record.wins += 1
            if record.cleared is None:
                record.cleared = now
                fight.lines = _reward(progress, stage) if stage else []
        else:
            fight.result = PathFight.Result.LOST
            record.attempts += 1
        record.save(update_fields=["wins", "attempts", "cleared"])
        fight.settled = now
        fight.save(update_fields=["result", "lines", "settled"])
        return fight


def _is_won(match: Any) -> bool:
    seat = match.seats.filter(index=PLAYER_SEAT).first()
    if seat is None or seat.resigned or seat.timed_out:
        return False
    return list(match.outcome.get("winners") or []) == [PLAYER_SEAT]


def _reward(progress: Any, stage: Stage) -> list[str]:
    """The stage's first-clear reward through progression (XP, its levels' rewards) and
    the collection (shards, the card). Needs the player lock."""
    from progression.services.players import Grant, grant_apply

    source = f"Arcana path: {stage.title}"
    card = None
    if stage.card:
        card = ArcanaCard.objects.filter(card_id=stage.card, is_enabled=True).first()
    grant = Grant(xp=stage.xp)
    grant.add_arcana(stage.shards, card, source=source)
    grant_apply(progress, grant)
    lines = [f"“{stage.title}” cleared!"]
    if stage.xp:
        lines.append(f"+{stage.xp} XP")
    return lines + grant.lines
