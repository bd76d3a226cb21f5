"""The weekly challenge: the week's seeds shared by everyone's run k, three real runs a week
(also under concurrent starts), practice on fresh seeds, the leaderboards' order, the lazy
and the scheduled rollover, and the seeds kept off every page until the week ends."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from banira import selectors, services, tasks
from banira.models import ChallengeRun, DeckList, PracticeRun, WeeklyChallenge
from config.schedules import CELERY_BEAT_SCHEDULE
from games import selectors as match_selectors
from games import services as match_services
from games.consumers import socket_group_for
from games.errors import MatchError
from games.models import Match
from tests.concurrency import race
from tests.conftest import requires_postgres

pytestmark = pytest.mark.django_db

WEEK = datetime.timedelta(days=7)


def _state(match: Match):
    return match_selectors.match_position(match=match).state


def _finish(match: Match, score: int, finished: datetime.datetime | None = None) -> Match:
    """Arrange a finished run with `score` (as the engine's outcome records it)."""
    match.status = Match.Status.FINISHED
    match.finished = finished or timezone.now()
    match.outcome = {"winners": [0], "ranking": [[0]], "scores": [score], "reason": "complete"}
    match.to_act = ""
    match.save()
    return match


def _seeds(challenge: WeeklyChallenge) -> list[bytes]:
    return [challenge.seed_for(k) for k in (1, 2, 3)]


# --- weeks and seeds --------------------------------------------------------------------------


def test_the_week_runs_from_monday_midnight_utc() -> None:
    sunday_night = datetime.datetime(2025, 6, 8, 23, 59, tzinfo=datetime.UTC)
    monday = datetime.datetime(2025, 6, 9, 0, 0, tzinfo=datetime.UTC)
    assert services.week_start_for(sunday_night) == datetime.date(2025, 6, 2)
    assert services.week_start_for(monday) == datetime.date(2025, 6, 9)


def test_a_week_freezes_the_active_list_and_draws_three_distinct_seeds() -> None:
    challenge = services.weekly_challenge_current()
    classic = DeckList.objects.get(slug="classic")
    assert challenge.deck_list == classic and challenge.deck == classic.to_engine_deck()
    seeds = _seeds(challenge)
    assert all(len(seed) == 32 for seed in seeds) and len(set(seeds)) == 3
    assert not challenge.is_revealed


def test_editing_the_list_mid_week_changes_nothing(alice) -> None:
    challenge = services.weekly_challenge_current()
    frozen = challenge.deck
    classic = DeckList.objects.get(slug="classic")
    first = classic.entries.first()
    first.card.name = "Renamed"
    first.card.save()
    match = services.weekly_run_start(user=alice)
    challenge.refresh_from_db()
    assert challenge.deck == frozen and match.options == {"deck": frozen}


def test_everyones_run_k_deals_from_the_weeks_seed_k(alice, bob) -> None:
    alice_runs = [services.weekly_run_start(user=alice) for _ in range(3)]
    bob_runs = [services.weekly_run_start(user=bob) for _ in range(2)]
    challenge = WeeklyChallenge.objects.get()
    for k, match in enumerate(alice_runs, start=1):
        assert bytes(match.seed) == challenge.seed_for(k)
    assert _state(alice_runs[0]) == _state(bob_runs[0])  # the same first deal for everyone
    assert _state(alice_runs[1]) == _state(bob_runs[1])
    assert _state(alice_runs[0]).deck != _state(alice_runs[1]).deck  # a retry is a new deal
    assert _state(alice_runs[1]).deck != _state(alice_runs[2]).deck
    indexes = ChallengeRun.objects.filter(user=alice).values_list("index", flat=True)
    assert sorted(indexes) == [1, 2, 3]


def test_a_fourth_real_run_is_refused_with_nothing_written(alice) -> None:
    for _ in range(3):
        services.weekly_run_start(user=alice)
    counts = (Match.objects.count(), ChallengeRun.objects.count(), WeeklyChallenge.objects.count())
    with pytest.raises(services.WeeklyLimitReached) as refused:
        services.weekly_run_start(user=alice)
    assert "You have played your three runs this week" in refused.value.message
    assert refused.value.status == 409
    after = (Match.objects.count(), ChallengeRun.objects.count(), WeeklyChallenge.objects.count())
    assert after == counts


def test_the_page_refuses_a_fourth_run_with_the_message(client, alice) -> None:
    client.force_login(alice)
    for k in (1, 2, 3):
        page = client.get(reverse("banira:home")).content.decode()
        assert f"Start real run {k} of 3" in page
        response = client.post(reverse("banira:weekly_start"))
        assert response.status_code == 302
        assert (
            response.url == ChallengeRun.objects.get(user=alice, index=k).match.get_absolute_url()
        )
    page = client.get(reverse("banira:home")).content.decode()
    assert "Start real run" not in page
    response = client.post(reverse("banira:weekly_start"), follow=True)
    assert "You have played your three runs this week" in response.content.decode()
    assert ChallengeRun.objects.count() == 3


def test_a_new_week_gives_three_new_runs(alice) -> None:
    last_week = timezone.now() - WEEK
    for _ in range(3):
        services.weekly_run_start(user=alice, now=last_week)
    match = services.weekly_run_start(user=alice)
    run = ChallengeRun.objects.get(match=match)
    assert run.index == 1 and run.challenge.week_start == services.week_start_for(timezone.now())
    assert bytes(match.seed) not in _seeds(
        WeeklyChallenge.objects.get(week_start__lt=run.challenge.week_start)
    )


def test_without_an_active_list_there_is_no_week_and_no_run(client, alice) -> None:
    DeckList.objects.update(is_active=False)
    assert services.weekly_challenge_current() is None
    with pytest.raises(MatchError, match="no deck list"):
        services.weekly_run_start(user=alice)
    assert not WeeklyChallenge.objects.exists() and not Match.objects.exists()
    client.force_login(alice)
    page = client.get(reverse("banira:home")).content.decode()
    assert "No weekly challenge this week" in page


# --- practice ---------------------------------------------------------------------------------


def test_practice_never_uses_a_weekly_seed(alice) -> None:
    weekly = [services.weekly_run_start(user=alice) for _ in range(3)]
    practice = [services.run_start_practice(user=alice) for _ in range(5)]
    week_seeds = set(_seeds(WeeklyChallenge.objects.get()))
    assert {bytes(match.seed) for match in weekly} == week_seeds
    practice_seeds = {bytes(match.seed) for match in practice}
    assert len(practice_seeds) == 5 and not practice_seeds & week_seeds
    assert not ChallengeRun.objects.filter(match__in=practice).exists()
    assert PracticeRun.objects.count() == 5
    assert selectors.weekly_runs_left(challenge=WeeklyChallenge.objects.get(), user=alice) == 0


def test_my_runs_are_marked_weekly_or_practice(client, alice) -> None:
    weekly = services.weekly_run_start(user=alice)
    practice = services.run_start_practice(user=alice)
    rows = {row.match.pk: row for row in selectors.runs_for_user(user=alice)}
    assert rows[weekly.pk].kind == "Weekly run 1" and not rows[weekly.pk].is_practice
    assert rows[practice.pk].kind == "Practice"
    client.force_login(alice)
    page = client.get(reverse("banira:home")).content.decode()
    assert "Weekly run 1" in page and "Practice" in page
    assert "2 real runs left this week" in page and "Start real run 2 of 3" in page


# --- leaderboards -----------------------------------------------------------------------------


def test_the_weekly_leaderboard_counts_each_players_best_run(alice, bob, make_user) -> None:
    carol = make_user("carol")
    t0 = timezone.now() - datetime.timedelta(minutes=30)
    at = [t0 + datetime.timedelta(minutes=m) for m in range(10)]
    a1, a2, a3 = (services.weekly_run_start(user=alice) for _ in range(3))
    _finish(a1, 90, at[0]), _finish(a2, 120, at[5]), _finish(a3, 40, at[6])
    b1, b2 = (services.weekly_run_start(user=bob) for _ in range(2))
    _finish(b1, 120, at[3])  # the same best as alice, finished earlier: ranks first
    _finish(b2, 120, at[7])  # an equal later run does not move bob's finish time
    c1 = services.weekly_run_start(user=carol)
    _finish(c1, 200, at[1])
    services.weekly_run_start(user=carol)  # still running: not on the board
    board = selectors.weekly_leaderboard(challenge=WeeklyChallenge.objects.get())
    assert [(e.rank, e.user.username, e.score) for e in board] == [
        (1, "carol", 200),
        (2, "bob", 120),
        (3, "alice", 120),
    ]
    assert board[1].run.match == b1 and board[2].run.match == a2
    assert board[1].finished == at[3]


def test_a_run_finished_after_its_week_does_not_count(alice, bob) -> None:
    last_week = timezone.now() - WEEK
    late = services.weekly_run_start(user=alice, now=last_week)
    on_time = services.weekly_run_start(user=bob, now=last_week)
    challenge = WeeklyChallenge.objects.get()
    _finish(late, 300, selectors.week_end(challenge) + datetime.timedelta(seconds=1))
    _finish(on_time, 50, selectors.week_end(challenge) - datetime.timedelta(seconds=1))
    board = selectors.weekly_leaderboard(challenge=challenge)
    assert [e.user.username for e in board] == ["bob"]


def test_the_all_time_leaderboard_sums_weekly_bests(alice, bob, make_user) -> None:
    carol = make_user("carol")
    last_week = timezone.now() - WEEK
    then = last_week - datetime.timedelta(hours=1)
    _finish(services.weekly_run_start(user=alice, now=last_week), 100, then)
    _finish(services.weekly_run_start(user=alice, now=last_week), 60, then)  # not her best
    _finish(services.weekly_run_start(user=alice), 80)
    _finish(services.weekly_run_start(user=bob, now=last_week), 180, then)
    _finish(services.weekly_run_start(user=carol), 150)
    _finish(services.weekly_run_start(user=carol), 30)
    board = selectors.all_time_leaderboard()
    assert [(e.user.username, e.total, e.weeks, e.best) for e in board] == [
        ("bob", 180, 1, 180),  # the same total as alice's, with the better single week
        ("alice", 180, 2, 100),
        ("carol", 150, 1, 150),
    ]
    assert [e.rank for e in board] == [1, 2, 3]


def test_the_leaderboard_page_shows_both_boards(client, alice, bob) -> None:
    _finish(services.weekly_run_start(user=alice), 70)
    _finish(services.weekly_run_start(user=bob), 95)
    page = client.get(reverse("banira:leaderboard")).content.decode()
    assert (
        'data-testid="weekly-leaderboard"' in page and 'data-testid="all-time-leaderboard"' in page
    )
    assert page.index('data-testid="weekly-bob"') < page.index('data-testid="weekly-alice"')


# --- rollover and revealing -------------------------------------------------------------------


def test_rollover_reveals_ended_weeks_creates_this_one_and_is_idempotent() -> None:
    now = timezone.now()
    old = services.weekly_challenge_current(now=now - 2 * WEEK)
    last = services.weekly_challenge_current(now=now - WEEK)
    current = services.weekly_rollover(now=now)
    again = services.weekly_rollover(now=now)
    assert current == again and WeeklyChallenge.objects.count() == 3
    assert current.week_start == services.week_start_for(now) and not current.is_revealed
    old.refresh_from_db(), last.refresh_from_db()
    assert old.is_revealed and last.is_revealed
    assert _seeds(WeeklyChallenge.objects.get(pk=current.pk)) == _seeds(current)


def test_the_page_rolls_the_week_over_lazily(client) -> None:
    stale = services.weekly_challenge_current(now=timezone.now() - WEEK)
    assert WeeklyChallenge.objects.count() == 1
    page = client.get(reverse("banira:home")).content.decode()
    assert WeeklyChallenge.objects.count() == 2
    stale.refresh_from_db()
    assert stale.is_revealed
    assert 'data-testid="weekly"' in page and "Log in to play the weekly challenge" in page


def test_the_seeds_stay_off_every_page_while_the_week_runs(client, alice, bob) -> None:
    client.force_login(alice)
    client.post(reverse("banira:weekly_start"))
    _finish(services.weekly_run_start(user=bob), 88)
    challenge = WeeklyChallenge.objects.get()
    secret = [seed.hex() for seed in _seeds(challenge)]
    week = challenge.week_start.isoformat()
    urls = [
        reverse("banira:home"),
        reverse("banira:leaderboard"),
        reverse("banira:leaderboard") + f"?week={week}",
        reverse("banira:weeks"),
        reverse("banira:week_deck", args=[week]),
        reverse("admin:banira_weeklychallenge_change", args=[challenge.pk]),
    ]
    alice.is_staff = alice.is_superuser = True
    alice.save()
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert not any(seed in html for seed in secret), url
    assert "No week has ended yet" in client.get(reverse("banira:weeks")).content.decode()


def test_an_ended_week_shows_its_seeds_and_deck_for_replays(client, alice) -> None:
    last_week = timezone.now() - WEEK
    services.weekly_run_start(user=alice, now=last_week)
    challenge = WeeklyChallenge.objects.get()
    page = client.get(reverse("banira:weeks")).content.decode()  # rolls over lazily
    for seed in _seeds(challenge):
        assert seed.hex() in page
    deck = client.get(reverse("banira:week_deck", args=[challenge.week_start.isoformat()]))
    assert deck.json() == {"deck": challenge.deck}


def test_a_finished_weekly_run_page_keeps_the_weeks_seed_secret(client, alice, bob) -> None:
    match = services.weekly_run_start(user=alice)
    match_services.match_resign(match_id=match.pk, user=alice)
    client.force_login(alice)
    html = client.get(match.get_absolute_url()).content.decode()
    assert bytes(match.seed).hex() not in html
    assert "revealed when the week ends" in html
    assert "Weekly challenge run" in html


def test_nobody_else_may_watch_a_weekly_run_before_the_week_ends(client, alice, bob) -> None:
    match = services.weekly_run_start(user=alice)
    for viewer in (None, bob):
        client.logout()
        if viewer is not None:
            client.force_login(viewer)
        for url in (match.get_absolute_url(), f"/matches/{match.pk}/board/"):
            response = client.get(url)
            assert response.status_code == 404
            assert "private until its week ends" in response.content.decode()
    assert socket_group_for(match_id=match.pk, user=bob) is None


def test_a_weekly_run_opens_to_everyone_once_the_week_is_over(client, alice, bob) -> None:
    match = services.weekly_run_start(user=alice)
    match_services.match_resign(match_id=match.pk, user=alice)
    Match.objects.filter(pk=match.pk).update(
        private_until=timezone.now() - datetime.timedelta(seconds=1)
    )
    client.force_login(bob)
    html = client.get(match.get_absolute_url()).content.decode()
    assert bytes(match.seed).hex() in html


# --- the beat ---------------------------------------------------------------------------------


def test_the_beat_runs_the_rollover_on_monday_midnight_utc() -> None:
    entry = CELERY_BEAT_SCHEDULE["banira-weekly-rollover"]
    assert entry["task"] == tasks.weekly_rollover.name == "banira.tasks.weekly_rollover"
    schedule = entry["schedule"]
    assert schedule.day_of_week == {1} and schedule.hour == {0} and schedule.minute == {0}
    stale = services.weekly_challenge_current(now=timezone.now() - WEEK)
    challenge_id = tasks.weekly_rollover.delay().get()
    stale.refresh_from_db()
    assert stale.is_revealed
    assert WeeklyChallenge.objects.get(pk=challenge_id).week_start == services.week_start_for(
        timezone.now()
    )


# --- concurrent starts (PostgreSQL) -------------------------------------------------------------


@requires_postgres
@pytest.mark.django_db(transaction=True)
def test_five_simultaneous_starts_make_runs_one_two_three_and_two_refusals(alice) -> None:
    services.deck_list_load_default()  # a transactional test starts from a flushed database
    DeckList.objects.filter(slug="classic").update(is_active=True)
    results = race(5, lambda i: services.weekly_run_start(user=alice), timeout=60)
    made = [r for r in results if isinstance(r, Match)]
    refused = [r for r in results if isinstance(r, MatchError)]
    assert len(made) == 3 and len(refused) == 2, results
    assert all(isinstance(r, services.WeeklyLimitReached) for r in refused)
    assert all("three runs this week" in r.message for r in refused)
    runs = ChallengeRun.objects.filter(user=alice).order_by("index")
    assert [run.index for run in runs] == [1, 2, 3]
    assert WeeklyChallenge.objects.count() == 1
    challenge = WeeklyChallenge.objects.get()
    assert [bytes(run.match.seed) for run in runs] == _seeds(challenge)
    assert Match.objects.count() == 3
