"""Old notifications go once their key can never come back; a running match keeps its rows."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from games import services as games
from inbox import services, tasks
from inbox.models import Notification
from tests.inbox.conftest import LONG_DEAL

pytestmark = pytest.mark.django_db(transaction=True)


def _age(rows, days: int) -> None:
    rows.update(created=timezone.now() - dt.timedelta(days=days))


def test_pruning_deletes_old_rows_of_finished_matches_and_old_digests(
    alice, bob, make_user, make_match
):
    carol = make_user("carol")
    over = make_match(alice, bob, LONG_DEAL)
    games.match_resign(match_id=over.pk, user=alice)
    running = make_match(alice, carol, LONG_DEAL)
    digest = Notification.objects.create(
        user=alice, kind=Notification.Kind.DIGEST, text="1 match waits", key="digest:2026-01-01"
    )
    _age(Notification.objects.all(), days=100)
    recent = make_match(bob, carol, LONG_DEAL)
    games.match_resign(match_id=recent.pk, user=bob)
    _age(Notification.objects.filter(match=recent), days=10)
    old_finished = set(Notification.objects.filter(match=over).values_list("pk", flat=True))
    kept = set(
        Notification.objects.exclude(match=over).exclude(pk=digest.pk).values_list("pk", flat=True)
    )
    assert old_finished and Notification.objects.filter(match=running).exists()

    assert services.notifications_prune() == len(old_finished) + 1
    assert set(Notification.objects.values_list("pk", flat=True)) == kept
    assert tasks.prune_notifications() == 0  # run again: nothing left to delete


def test_pruning_is_a_beat_task():
    from config.schedules import CELERY_BEAT_SCHEDULE

    entry = CELERY_BEAT_SCHEDULE["inbox-prune-notifications"]
    assert entry["task"] == "inbox.tasks.prune_notifications"
