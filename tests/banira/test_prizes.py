"""BaniraCards prizes and weekly settings: admin-defined tiers (top N, a score threshold,
participation) granted once when a week ends, by the beat task, under concurrency too;
runs per week and the weekly deck as settings, the deck scheduled ahead; the weeks page
shows each past week's winners and prizes."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.admin.models import LogEntry
from django.urls import reverse
from django.utils import timezone

from banira import services, tasks
from banira.models import (
    DeckEntry,
    DeckList,
    PrizeAward,
    PrizeTier,
    WeeklyChallenge,
    WeeklyDeckSchedule,
)
from config.schedules import CELERY_BEAT_SCHEDULE
from games import services as match_services
from games.models import Match
from progression.models import CoinEntry, Cosmetic, Ownership
from tests.concurrency import race
from tests.conftest import requires_postgres

pytestmark = pytest.mark.django_db

PAST = datetime.timedelta(days=8)


def _finish(match: Match, score: int, at: datetime.datetime, reason: str = "complete") -> None:
    """Arrange a finished run with `score`, finished at `at` (as the engine records it)."""
    match.status = Match.Status.FINISHED
    match.finished = at
    match.outcome = {"winners": [0], "ranking": [[0]], "scores": [score], "reason": reason}
    match.to_act = ""
    match.save()


def _coins(user) -> int:
    return sum(CoinEntry.objects.filter(user=user, reason="grant").values_list("amount", flat=True))


@pytest.fixture
def trophy(db):
    return Cosmetic.objects.create(
        kind=Cosmetic.Kind.CARD_BACK, slug="trophy", name="Trophy Back", asset="img/t.svg"
    )


@pytest.fixture
def tiers(trophy):
    return [
        PrizeTier.objects.create(name="Champion", kind="top", top_n=1, coins=100, cosmetic=trophy),
        PrizeTier.objects.create(name="Sharp", kind="score", min_score=50, coins=20),
        PrizeTier.objects.create(name="Took part", kind="participation", coins=5),
        PrizeTier.objects.create(name="Old", kind="participation", coins=999, is_active=False),
    ]


@pytest.fixture
def past_week(alice, bob, make_user):
    """A week that ended a day ago at least: alice scored 80, bob 40, carol gave up her run
    (a real resignation), dave's run was still going when the week ended."""
    then = timezone.now() - PAST
    if not DeckList.objects.filter(slug="classic").exists():  # a transactional test's flush
        services.deck_list_load_default()
        DeckList.objects.filter(slug="classic").update(is_active=True)
    carol, dave = make_user("carol"), make_user("dave")
    runs = {user: services.weekly_run_start(user=user, now=then) for user in (alice, bob)}
    challenge = WeeklyChallenge.objects.get()
    _finish(runs[alice], 80, then + datetime.timedelta(hours=1))
    _finish(runs[bob], 40, then + datetime.timedelta(hours=2))
    given_up = services.weekly_run_start(user=carol, now=then)
    match_services.match_resign(match_id=given_up.pk, user=carol)
    Match.objects.filter(pk=given_up.pk).update(finished=then + datetime.timedelta(hours=3))
    services.weekly_run_start(user=dave, now=then)
    return challenge, {"alice": alice, "bob": bob, "carol": carol, "dave": dave}


def test_each_tier_is_granted_to_the_players_it_names_once(past_week, tiers, trophy):
    challenge, players = past_week
    granted = services.weekly_prizes_award_due()
    assert granted == 5  # alice: three tiers; bob and carol: participation; dave: nothing
    awards = {(a.user.username, a.tier_name) for a in PrizeAward.objects.all()}
    assert awards == {
        ("alice", "Champion"),
        ("alice", "Sharp"),
        ("alice", "Took part"),
        ("bob", "Took part"),
        ("carol", "Took part"),
    }
    assert [_coins(players[name]) for name in ("alice", "bob", "carol", "dave")] == [125, 5, 5, 0]
    assert Ownership.objects.filter(cosmetic=trophy).get().user == players["alice"]
    champion = PrizeAward.objects.get(tier_name="Champion")
    assert (champion.rank, champion.score) == (1, 80)
    challenge.refresh_from_db()
    assert challenge.prizes_awarded is not None

    assert services.weekly_prizes_award_due() == 0  # again: nothing more
    assert tasks.weekly_prizes() == 0
    assert PrizeAward.objects.count() == 5
    assert [_coins(players[name]) for name in ("alice", "bob", "carol", "dave")] == [125, 5, 5, 0]


def test_a_run_an_admin_aborted_earns_no_participation(past_week, tiers, make_user):
    from django.contrib.auth import get_user_model

    from games.services import adjudication

    challenge, _ = past_week
    eve = make_user("eve")
    in_that_week = datetime.datetime.combine(challenge.week_start, datetime.time(12), datetime.UTC)
    run = services.weekly_run_start(user=eve, now=in_that_week)
    assert run.banira_weekly.challenge == challenge
    staff = get_user_model().objects.create_superuser("ref", "ref@example.com", "pw")
    adjudication.match_abort(match_id=run.pk, admin=staff, reason="Test run")
    Match.objects.filter(pk=run.pk).update(finished=in_that_week)
    services.weekly_prizes_award_due()
    assert not PrizeAward.objects.filter(user=eve).exists()
    assert PrizeAward.objects.filter(tier_name="Took part").count() == 3


def test_a_week_still_running_grants_nothing(alice, tiers):
    services.weekly_run_start(user=alice)
    challenge = WeeklyChallenge.objects.get()
    assert services.weekly_prizes_award_due() == 0
    assert services.weekly_prizes_award(challenge_id=challenge.pk) == []
    challenge.refresh_from_db()
    assert challenge.prizes_awarded is None and not PrizeAward.objects.exists()


def test_the_beat_runs_the_prize_task_hourly():
    entry = CELERY_BEAT_SCHEDULE["banira-weekly-prizes"]
    assert entry["task"] == "banira.tasks.weekly_prizes"
    assert tasks.weekly_prizes.name == "banira.tasks.weekly_prizes"


@requires_postgres
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_prize_runs_grant_each_prize_once(past_week, tiers):
    _, players = past_week
    results = race(4, lambda _: services.weekly_prizes_award_due())
    assert sorted(results) == [0, 0, 0, 5]
    assert PrizeAward.objects.count() == 5
    assert CoinEntry.objects.filter(reason="grant").count() == 5
    assert [_coins(players[name]) for name in ("alice", "bob", "carol", "dave")] == [125, 5, 5, 0]
    assert race(2, lambda _: tasks.weekly_prizes()) == [0, 0]  # and the task, twice at once
    assert PrizeAward.objects.count() == 5


def test_the_weeks_page_shows_winners_and_prizes(client, past_week, tiers):
    services.weekly_prizes_award_due()
    page = client.get(reverse("banira:weeks"))
    assert page.status_code == 200
    text = page.content.decode()
    assert 'data-testid="week-winners"' in text and 'data-testid="week-prizes"' in text
    winners = text.split('data-testid="week-winners"')[1].split("</table>")[0]
    assert winners.index("alice") < winners.index("bob")
    assert "Champion" in text and "100 coins" in text and "“Trophy Back”" in text
    assert "carol</strong>: Took part" in text and "dave</strong>" not in text


def test_runs_per_week_is_a_setting_for_the_weeks_made_after(alice):
    settings = services.weekly_settings()
    settings.runs_per_week = 1
    settings.save()
    services.weekly_run_start(user=alice)
    assert WeeklyChallenge.objects.get().runs_per_week == 1
    with pytest.raises(services.WeeklyLimitReached, match="your one run this week"):
        services.weekly_run_start(user=alice)


def _copy_of_classic(name: str) -> DeckList:
    classic = DeckList.objects.get(slug="classic")
    copy = DeckList.objects.create(name=name, slug=name.lower())
    for entry in classic.entries.all():
        DeckEntry.objects.create(
            deck_list=copy, card=entry.card, position=entry.position, count=entry.count
        )
    return copy


def test_the_weekly_deck_comes_from_the_schedule_then_the_settings(alice):
    now = timezone.now()
    next_monday = services.week_start_for(now) + datetime.timedelta(days=7)
    scheduled, default = _copy_of_classic("Scheduled"), _copy_of_classic("Default")
    WeeklyDeckSchedule.objects.create(week_start=next_monday, deck_list=scheduled)
    settings = services.weekly_settings()
    settings.deck_list = default
    settings.save()
    this_week = services.weekly_challenge_current(now=now)
    next_week = services.weekly_challenge_current(now=now + datetime.timedelta(days=7))
    assert this_week.deck_list == default and next_week.deck_list == scheduled


def test_admin_settings_schedule_and_tiers_are_checked_and_audited(admin_client):
    tier_add = reverse("admin:banira_prizetier_add")
    bad = admin_client.post(
        tier_add, {"name": "Top", "kind": "top", "coins": 10, "is_active": "on"}
    )
    assert bad.status_code == 200 and "Top places need N" in bad.content.decode()
    empty = {"name": "Nothing", "kind": "participation", "coins": 0, "is_active": "on"}
    assert "gives coins, an item, or both" in admin_client.post(tier_add, empty).content.decode()
    assert not PrizeTier.objects.exists()
    good = {"name": "Top 3", "kind": "top", "top_n": 3, "coins": 50, "is_active": "on"}
    assert admin_client.post(tier_add, good).status_code == 302
    schedule_add = reverse("admin:banira_weeklydeckschedule_add")
    classic = DeckList.objects.get(slug="classic")
    tuesday = {"week_start": "2030-01-01", "deck_list": classic.pk}
    assert "pick a Monday" in admin_client.post(schedule_add, tuesday).content.decode()
    monday = {"week_start": "2030-01-07", "deck_list": classic.pk}
    assert admin_client.post(schedule_add, monday).status_code == 302
    settings_list = admin_client.get(reverse("admin:banira_weeklysettings_changelist"))
    assert settings_list.status_code == 200
    too_many = {"runs_per_week": 4, "deck_list": ""}
    change = reverse("admin:banira_weeklysettings_change", args=[1])
    assert admin_client.post(change, too_many).status_code == 200
    assert admin_client.post(change, {"runs_per_week": 2, "deck_list": ""}).status_code == 302
    assert services.weekly_settings().runs_per_week == 2
    assert LogEntry.objects.count() == 3  # the tier, the schedule, the settings
