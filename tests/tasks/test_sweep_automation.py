"""The beat's automation sweeper: an AI move whose task was lost is made once, later.

A task is lost when the broker is down as it is sent (config.celery_app drops it) or when
the worker running it dies. Here the loss is made by creating the match with automation
paused, as if the task had never arrived; the sweeper runs eagerly. The real broker and
workers are in tests/tasks/test_broker_outage.py and tests/tasks/test_worker_killed.py.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from games import selectors, services, tasks
from games.models import Match, Move

AI_FIRST = {"deal": {"decks": [[[20, 150]] * 4, [[20, 150]] * 4], "first": 1}}


def stalled_ai_match(user, *, idle_seconds: int = 120) -> Match:
    """A match where the AI (seat 1) is to act and its task never ran."""
    with services.automation_paused():
        match = services.match_create(
            creator=user, game_slug="dogblade", opponent="ai", options=AI_FIRST
        )
    idle_since = timezone.now() - dt.timedelta(seconds=idle_seconds)
    Match.objects.filter(pk=match.pk).update(updated=idle_since)
    match.refresh_from_db()
    assert match.to_act == "1" and match.ply == 0
    return match


@pytest.mark.django_db
def test_the_sweeper_makes_a_lost_ai_move_once(alice):
    match = stalled_ai_match(alice)
    assert tasks.sweep_automation() == 1
    match.refresh_from_db()
    assert match.ply == 1 and match.to_act == "0"
    assert list(Move.objects.filter(match=match).values_list("ply", "seat")) == [(0, 1)]
    assert tasks.sweep_automation() == 0  # the player's turn now: nothing to catch up


@pytest.mark.django_db
def test_an_ai_seat_to_act_only_moments_ago_is_left_to_its_own_task(alice, settings):
    settings.AUTOMATION_STALL_SECONDS = 30
    match = stalled_ai_match(alice, idle_seconds=5)
    assert tasks.sweep_automation() == 0
    assert Move.objects.filter(match=match).count() == 0


@pytest.mark.django_db
def test_paused_finished_and_human_turns_are_not_swept(alice, bob, make_match):
    paused = stalled_ai_match(alice)
    Match.objects.filter(pk=paused.pk).update(paused_at=timezone.now())
    finished = stalled_ai_match(alice)
    Match.objects.filter(pk=finished.pk).update(status=Match.Status.FINISHED)
    human = make_match(alice, bob)  # no AI seat at all
    Match.objects.filter(pk=human.pk).update(updated=timezone.now() - dt.timedelta(hours=1))
    since = timezone.now() - dt.timedelta(seconds=30)
    assert selectors.automation_stalled_ids(since=since) == []


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("to_act", "is_stalled"),
    [("1", True), ("0,1", True), ("1,0", True), ("0,1,2", True), ("0", False), ("10", False),
     ("0,10", False), ("11,0", False), ("", False)],
)  # fmt: skip
def test_the_ai_seat_is_found_in_every_place_of_to_act(alice, to_act, is_stalled):
    """`to_act` lists seats ("0" or "0,2"): seat 1 is in "0,1,2", not in "10" or "0,10"."""
    match = stalled_ai_match(alice)
    Match.objects.filter(pk=match.pk).update(to_act=to_act)
    since = timezone.now() - dt.timedelta(seconds=30)
    assert (match.pk in selectors.automation_stalled_ids(since=since)) is is_stalled
