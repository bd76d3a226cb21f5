"""Daily quests: three per player per local day, one reroll a day.

A player's day is their own: the quests of day D are drawn when D has begun in the
player's time zone (PlayerProgress.time_zone) and something needs them (the quest page,
a finished match, or the beat task that runs every quarter hour). The draw is a seeded
sample of the active templates, so it is the same whoever makes it first; the unique
(user, day, slot) and the player's row lock make it happen once.
"""

from __future__ import annotations

import datetime
import random
from typing import Any

from django.db import transaction
from django.utils import timezone

from progression.errors import AlreadyDone, NotFound, ProgressionError
from progression.models import DailyQuest, PlayerProgress, QuestTemplate
from progression.services.players import local_day, progress_locked

QUESTS_PER_DAY = 3


def quests_ensure(progress: PlayerProgress, day: datetime.date) -> list[DailyQuest]:
    """The player's quests of `day`, drawn now if they have none. Needs the row lock."""
    quests = list(DailyQuest.objects.filter(user=progress.user, day=day).select_related("template"))
    if quests:
        return quests
    templates = list(QuestTemplate.objects.filter(is_active=True).order_by("pk"))
    chosen = random.Random(f"{progress.user_id}:{day.isoformat()}").sample(
        templates, min(QUESTS_PER_DAY, len(templates))
    )
    return [
        DailyQuest.objects.create(
            user=progress.user, day=day, slot=slot, template=template, target=template.target
        )
        for slot, template in enumerate(chosen)
    ]


def quests_today(*, user: Any, now: datetime.datetime | None = None) -> list[DailyQuest]:
    """Today's quests in the player's time zone (drawn lazily: the page works with no beat)."""
    now = now or timezone.now()
    existing = PlayerProgress.objects.filter(user=user).first()
    if existing is not None:
        quests = list(
            DailyQuest.objects.filter(user=user, day=local_day(existing, now)).select_related(
                "template"
            )
        )
        if quests:
            return quests
    with transaction.atomic():
        progress = progress_locked(user)
        return quests_ensure(progress, local_day(progress, now))


def quest_reroll(*, user: Any, quest_id: int, now: datetime.datetime | None = None) -> DailyQuest:
    """Swap one of today's unfinished quests for another template; once per local day."""
    now = now or timezone.now()
    with transaction.atomic():
        progress = progress_locked(user)
        today = local_day(progress, now)
        quest = DailyQuest.objects.select_related("template").filter(pk=quest_id, user=user).first()
        if quest is None or quest.day != today:
            raise NotFound("That quest is not one of your quests today.")
        if quest.is_completed:
            raise ProgressionError("That quest is already done: reroll one you have not finished.")
        if progress.reroll_day == today:
            raise AlreadyDone("You have used today's reroll. A new one comes with tomorrow.")
        taken = set(
            DailyQuest.objects.filter(user=user, day=today).values_list("template_id", flat=True)
        )
        others = list(QuestTemplate.objects.filter(is_active=True).exclude(pk__in=taken))
        if not others:
            raise ProgressionError("There is no other quest to draw today.")
        template = random.Random(f"{user.pk}:{today.isoformat()}:reroll").choice(
            sorted(others, key=lambda t: t.pk)
        )
        quest.template, quest.target, quest.progress = template, template.target, 0
        quest.is_rerolled = True
        quest.save(update_fields=["template", "target", "progress", "is_rerolled"])
        progress.reroll_day = today
        progress.save(update_fields=["reroll_day"])
        return quest


def quests_rotate(*, now: datetime.datetime | None = None) -> int:
    """Draw today's quests for every player whose local day has none yet (the beat task).

    Run every quarter hour, so a new day is ready soon after each player's local midnight
    (zones differ by 15-minute steps). Returns how many players got new quests.
    """
    now = now or timezone.now()
    made = 0
    for user_id, zone in PlayerProgress.objects.values_list("user_id", "time_zone"):
        day = local_day(PlayerProgress(time_zone=zone), now)
        if DailyQuest.objects.filter(user_id=user_id, day=day).exists():
            continue
        with transaction.atomic():
            progress = progress_locked(user_id)
            if not DailyQuest.objects.filter(user_id=user_id, day=day).exists():
                made += bool(quests_ensure(progress, day))
    return made
