"""What a finished match earns each of its human players: XP, coins, season XP, quest and
achievement progress — exactly once.

Two entry points share `_credit_match`:
- `match_result_record(match=...)`: called by `games.effects.match_finished`, inside the
  transaction that records the result (the match row is locked by games.services).
  Its work runs in a savepoint: if progression fails, the result still commits and the
  task below is queued to try again after commit.
- `match_result_process(match_id=...)`: safe to call any number of times, concurrently
  too (the Celery task, a management command, an operator).

Exactly once: each player's credit is written under their PlayerProgress row lock, and
only if no MatchCredit (match, user) exists; that unique constraint is the last guard.
Lock order: the Match row, then PlayerProgress rows by user id.

Who earns what (docs/progression.md): human seats that played to the end. A resigned or
timed-out seat, and a seat that made no move at all (a win by a resignation at once, the
easy farm), get an empty credit: nothing. Against the AI only, and in tutorials, XP
and coins are halved; quests and achievements count in full. Cancelled matches never
finish, so they earn nothing.
"""

from __future__ import annotations

import datetime
import logging
from typing import Any

from django.db import transaction

from config.celery_app import task_send
from games import replay
from games.models import Match, Seat
from progression import conditions, levels
from progression.models import (
    Achievement,
    AchievementProgress,
    CoinEntry,
    MatchCredit,
    PlayerProgress,
)
from progression.services.players import Grant, grant_apply, local_day, progress_locked
from progression.services.quests import quests_ensure
from progression.services.seasons import season_rollover

logger = logging.getLogger(__name__)


def match_result_record(*, match: Match) -> None:
    """The receiver's work: credit the players now, in the result's own transaction.

    Never raises: an exception would roll back the match result. A failure is logged and
    the idempotent task is queued for after the commit instead.
    """
    try:
        with transaction.atomic():  # a savepoint: only progression's writes roll back
            _credit_match(match)
    except Exception:
        logger.exception("progression: crediting match %s failed; retrying after commit", match.pk)
        match_id = match.pk
        transaction.on_commit(
            lambda: task_send("progression.tasks.match_result_process", match_id), robust=True
        )


def match_result_process(*, match_id: int) -> list[MatchCredit]:
    """Credit a finished match's players, if not done yet. Returns the credits made now."""
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None:
            return []
        return _credit_match(match)


def _credit_match(match: Match) -> list[MatchCredit]:
    if match.status != Match.Status.FINISHED or not match.outcome:
        return []
    players = sorted(  # (user id, seat), in user-id order: the lock order
        (seat.user_id, seat)
        for seat in match.seats.all()
        if seat.kind == Seat.Kind.HUMAN and seat.user_id is not None and seat.joined
    )
    if not players:
        return []
    when = match.finished or match.updated
    season_rollover(now=when)
    log = replay.match_events(match=match)  # once per finished match: every event counts
    events = tuple((move.seat, event.type, event.data) for move in log for event in move.events)
    movers = {move.seat for move in log}
    credits = []
    for user_id, seat in players:
        progress = progress_locked(user_id)
        if MatchCredit.objects.filter(match=match, user_id=user_id).exists():
            continue  # already credited: a repeat, or a concurrent run that won the lock
        if seat.resigned or seat.timed_out:
            credits.append(_credit_nothing(progress, match, seat, LEFT_EARLY))
        elif seat.index not in movers:
            credits.append(_credit_nothing(progress, match, seat, NO_MOVE))
        else:
            credits.append(_credit_seat(progress, match, seat, events, when))
    return credits


LEFT_EARLY = "You left this match early: no XP or quest progress."
NO_MOVE = "You made no move in this match: nothing to earn from it."


def _credit_nothing(progress: PlayerProgress, match: Match, seat: Seat, line: str) -> MatchCredit:
    """The guard row without rewards (so the panel can say why)."""
    return MatchCredit.objects.create(
        match=match,
        user_id=progress.user_id,
        level_before=progress.level,
        level_after=progress.level,
        xp_after=progress.xp,
        lines=[line],
    )


def _credit_seat(
    progress: PlayerProgress,
    match: Match,
    seat: Seat,
    events: tuple[tuple[int, str, Any], ...],
    when: datetime.datetime,
) -> MatchCredit:
    level_before = progress.level
    facts = _facts(match, seat, events)
    grant = _match_grant(match, facts)
    _quests_progress(progress, grant, facts, when)
    _achievements_progress(progress, grant, facts, when)
    applied = grant_apply(progress, grant, now=when)
    grant.lines += [f"New item: {item.name}" for item in applied.new_cosmetics]
    return MatchCredit.objects.create(
        match=match,
        user_id=progress.user_id,
        xp=grant.xp,
        coins=grant.coins,
        season_xp=applied.season_xp,
        level_before=level_before,
        level_after=applied.level_after,
        xp_after=applied.xp_after,
        lines=grant.lines,
    )


def _facts(match: Match, seat: Seat, events: tuple) -> conditions.MatchFacts:
    outcome = match.outcome or {}
    others = [other for other in match.seats.all() if other.index != seat.index]
    return conditions.MatchFacts(
        game=match.game,
        seat=seat.index,
        is_winner=seat.index in (outcome.get("winners") or []),
        reason=str(outcome.get("reason", "")),
        has_human_opponent=any(other.kind == Seat.Kind.HUMAN for other in others),
        events=events,
    )


def _match_grant(match: Match, facts: conditions.MatchFacts) -> Grant:
    xp, coins = levels.FINISH_XP, levels.FINISH_COINS
    label = "Match played"
    if facts.is_winner:
        xp, coins, label = xp + levels.WIN_XP, coins + levels.WIN_COINS, "Victory"
    against_ai_only = not facts.has_human_opponent and match.size > 1
    if match.tutorial or against_ai_only:
        xp, coins = int(xp * levels.REDUCED), int(coins * levels.REDUCED)
        label += " (tutorial)" if match.tutorial else " (vs AI)"
    grant = Grant(xp=xp, season_xp=xp)
    grant.add_coins(coins, reason=CoinEntry.Reason.MATCH, note=f"{match.game} #{match.pk}")
    grant.lines.append(f"{label}: +{xp} XP, +{coins} coins")
    return grant


def _quests_progress(
    progress: PlayerProgress, grant: Grant, facts: conditions.MatchFacts, when: datetime.datetime
) -> None:
    """Move today's (the player's local day at the match's end) unfinished quests on."""
    for quest in quests_ensure(progress, local_day(progress, when)):
        if quest.is_completed:
            continue
        try:
            gained = conditions.count(quest.template.parsed, facts)
        except conditions.ConditionError:  # edited into nonsense outside the admin: skip
            continue
        if not gained:
            continue
        quest.progress = min(quest.target, quest.progress + gained)
        if quest.progress >= quest.target:
            quest.completed = when
            template = quest.template
            grant.add(template, reason=CoinEntry.Reason.QUEST, source=f"Quest: {template.name}")
            grant.lines.append(f"Quest complete: {template.name} ({template.reward_text()})")
        else:
            grant.lines.append(f"Quest: {quest.template.name} {quest.progress}/{quest.target}")
        quest.save(update_fields=["progress", "completed"])


def _achievements_progress(
    progress: PlayerProgress, grant: Grant, facts: conditions.MatchFacts, when: datetime.datetime
) -> None:
    mine = {
        row.achievement_id: row
        for row in AchievementProgress.objects.filter(user_id=progress.user_id)
    }
    for achievement in Achievement.objects.filter(is_active=True).select_related("cosmetic"):
        row = mine.get(achievement.pk)
        if row is not None and row.unlocked:
            continue
        try:
            gained = conditions.count(achievement.parsed, facts)
        except conditions.ConditionError:
            continue
        if not gained:
            continue
        if row is None:
            row = AchievementProgress(user_id=progress.user_id, achievement=achievement)
        row.progress = min(achievement.target, row.progress + gained)
        if row.progress >= achievement.target:
            row.unlocked = when
            grant.add(
                achievement,
                reason=CoinEntry.Reason.ACHIEVEMENT,
                source=f"Achievement: {achievement.name}",
            )
            grant.lines.append(f"Achievement unlocked: {achievement.name}")
        row.save()
