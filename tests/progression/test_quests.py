"""Daily quests: three per local day, drawn at the player's own midnight, one reroll."""

from __future__ import annotations

import datetime

import pytest

from progression import services
from progression.errors import AlreadyDone, NotFound, ProgressionError
from progression.models import DailyQuest, PlayerProgress, QuestTemplate

UTC = datetime.UTC


@pytest.fixture
def four_templates(quest_templates):
    extra = QuestTemplate.objects.create(
        name="Spare", description="Finish one.", condition="finish", target=1
    )
    return [*quest_templates, extra]


def test_three_quests_a_day_drawn_once(alice, four_templates):
    first = services.quests_today(user=alice)
    again = services.quests_today(user=alice)
    assert len(first) == 3
    assert [q.pk for q in first] == [q.pk for q in again]
    assert len({q.template_id for q in first}) == 3


def test_rotation_at_the_players_local_midnight(alice, four_templates):
    services.time_zone_set(user=alice, time_zone="Asia/Tokyo")  # UTC+9
    before = datetime.datetime(2026, 3, 1, 14, 59, tzinfo=UTC)  # 23:59 in Tokyo
    after = datetime.datetime(2026, 3, 1, 15, 0, tzinfo=UTC)  # 00:00 on 2 March in Tokyo
    assert {q.day for q in services.quests_today(user=alice, now=before)} == {
        datetime.date(2026, 3, 1)
    }
    assert services.quests_rotate(now=before) == 0  # nothing new before midnight
    assert services.quests_rotate(now=after) == 1  # the beat draws the new day
    assert {q.day for q in services.quests_today(user=alice, now=after)} == {
        datetime.date(2026, 3, 2)
    }
    assert DailyQuest.objects.filter(user=alice).count() == 6


def test_utc_player_is_still_on_the_old_day(alice, bob, four_templates):
    services.time_zone_set(user=alice, time_zone="Asia/Tokyo")
    services.time_zone_set(user=bob, time_zone="UTC")
    now = datetime.datetime(2026, 3, 1, 15, 30, tzinfo=UTC)
    assert services.quests_today(user=alice, now=now)[0].day == datetime.date(2026, 3, 2)
    assert services.quests_today(user=bob, now=now)[0].day == datetime.date(2026, 3, 1)


def test_one_reroll_a_day(alice, four_templates):
    quests = services.quests_today(user=alice)
    old = quests[0].template_id
    rerolled = services.quest_reroll(user=alice, quest_id=quests[0].pk)
    assert rerolled.template_id != old and rerolled.is_rerolled
    with pytest.raises(AlreadyDone, match="used today's reroll"):
        services.quest_reroll(user=alice, quest_id=quests[1].pk)
    assert DailyQuest.objects.get(pk=quests[1].pk).template_id == quests[1].template_id


def test_reroll_of_someone_elses_quest_is_refused(alice, bob, four_templates):
    quest = services.quests_today(user=bob)[0]
    with pytest.raises(NotFound):
        services.quest_reroll(user=alice, quest_id=quest.pk)
    assert not PlayerProgress.objects.filter(user=alice, reroll_day__isnull=False).exists()


def test_unknown_time_zone_is_refused(alice):
    with pytest.raises(ProgressionError, match="not a time zone"):
        services.time_zone_set(user=alice, time_zone="Mars/Olympus")
