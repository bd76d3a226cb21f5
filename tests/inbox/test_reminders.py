"""Reminders: “your turn” when a turn starts, “running late” at 80%, each at most once.

The tests commit for real (transaction=True), so on-commit work (the eager Celery tasks,
their own on-commit sends) runs as it does in production.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail

from games import presence
from games import services as games
from games.models import Seat
from inbox import services, tasks
from inbox.models import Notification
from tests.inbox.conftest import LONG_DEAL

pytestmark = pytest.mark.django_db(transaction=True)

Kind = Notification.Kind


def seat_of(match, index):
    return Seat.objects.select_related("match", "user").get(match=match, index=index)


def test_a_real_move_tells_the_other_player_it_is_their_turn(duel, alice, bob):
    match = duel
    games.move_submit(match_id=match.pk, user=alice, ply=0, move={"type": "attack"})

    turn_started = seat_of(match, 1).turn_started
    notification = Notification.objects.get(user=bob, kind=Kind.TURN)
    assert notification.key == f"turn:{seat_of(match, 1).pk}:{turn_started.isoformat()}"
    assert notification.in_app and notification.read_at is None
    assert notification.text == "Your turn in Dog Blade against alice"
    assert notification.url == f"/matches/{match.pk}/" and notification.match == match
    assert not Notification.objects.filter(user=alice, kind=Kind.TURN).exists()
    [email] = mail.outbox
    assert email.to == ["bob@example.com"] and "Your turn in Dog Blade" in email.subject
    assert f"/matches/{match.pk}/" in email.body and "/notifications/settings/" in email.body
    html, mimetype = email.alternatives[0]
    assert mimetype == "text/html" and "/notifications/settings/" in html
    assert email.extra_headers["List-Unsubscribe"].endswith("/notifications/settings/>")


def test_the_beat_scan_run_twice_sends_one_notification_and_one_email(duel, alice):
    now = seat_of(duel, 0).turn_started + dt.timedelta(seconds=30)
    assert services.reminders_send_due(now=now) == {"turn": 1, "late": 0}
    assert services.reminders_send_due(now=now) == {"turn": 0, "late": 0}
    tasks.send_due_reminders()
    tasks.send_due_reminders()
    assert Notification.objects.filter(user=alice, kind=Kind.TURN).count() == 1
    assert len(mail.outbox) == 1


def test_the_turn_task_run_twice_sends_once(duel, alice):
    seat = seat_of(duel, 0)
    assert tasks.remind_turn(seat.pk, seat.turn_started.isoformat()) is True
    assert tasks.remind_turn(seat.pk, seat.turn_started.isoformat()) is False
    assert Notification.objects.filter(user=alice).count() == 1 and len(mail.outbox) == 1


def test_an_email_task_delivered_twice_sends_one_email(duel, alice):
    seat = seat_of(duel, 0)
    notification = services.turn_remind(seat=seat)  # sent after its commit
    assert len(mail.outbox) == 1
    assert tasks.email_notification(notification.pk) is False  # redelivered: already claimed
    assert tasks.email_notification(notification.pk) is False
    assert len(mail.outbox) == 1


def test_a_turn_that_has_ended_is_not_reminded(duel, alice):
    seat = seat_of(duel, 0)
    started = seat.turn_started
    games.move_submit(match_id=duel.pk, user=alice, ply=0, move={"type": "attack"})
    assert tasks.remind_turn(seat.pk, started.isoformat()) is False
    assert not Notification.objects.filter(user=alice).exists()


def test_running_late_at_80_percent_of_the_time_once(duel, alice):
    seat = seat_of(duel, 0)
    span = seat.deadline - seat.turn_started  # a day per move + half a day of bank
    assert span == dt.timedelta(days=1.5)
    due = seat.turn_started + span * 0.8
    assert services.reminders_send_due(now=due - dt.timedelta(seconds=1))["late"] == 0
    assert services.reminders_send_due(now=due)["late"] == 1
    assert services.reminders_send_due(now=due + dt.timedelta(minutes=1))["late"] == 0
    late = Notification.objects.get(user=alice, kind=Kind.LATE)
    assert late.key == f"late:{seat.pk}:{seat.deadline.isoformat()}"
    assert late.text.startswith("7\xa0hours, 12\xa0minutes left to move in Dog Blade")
    assert [email.subject for email in mail.outbox] == [f"Cardhall · {late.text}"]


def test_no_late_reminder_after_the_deadline(duel, alice):
    seat = seat_of(duel, 0)
    assert services.reminders_send_due(now=seat.deadline)["late"] == 0
    assert not Notification.objects.filter(user=alice, kind=Kind.LATE).exists()


def test_a_new_deadline_gets_its_own_late_reminder(duel, alice, bob):
    seat = seat_of(duel, 0)
    services.late_remind(seat=seat, now=services.late_due(seat))
    games.move_submit(match_id=duel.pk, user=alice, ply=0, move={"type": "attack"})
    games.move_submit(match_id=duel.pk, user=bob, ply=1, move={"type": "attack"})
    again = seat_of(duel, 0)
    assert services.late_remind(seat=again, now=services.late_due(again)) is not None
    assert Notification.objects.filter(user=alice, kind=Kind.LATE).count() == 2


def test_no_reminder_while_looking_at_the_match(duel, alice):
    seat = seat_of(duel, 0)
    presence.presence_touch(user_id=alice.pk, match_id=duel.pk, channel="page-1")
    assert presence.is_present(user_id=alice.pk, match_id=duel.pk)

    services.turn_remind(seat=seat)
    recorded = Notification.objects.get(user=alice, kind=Kind.TURN)
    assert not recorded.in_app and not recorded.by_email  # recorded only: it was seen
    due = services.late_due(seat)
    assert services.reminders_send_due(now=due) == {"turn": 0, "late": 0}
    assert not Notification.objects.filter(kind=Kind.LATE).exists() and mail.outbox == []

    presence.presence_leave(user_id=alice.pk, match_id=duel.pk, channel="page-1")
    assert services.reminders_send_due(now=due + dt.timedelta(minutes=1))["late"] == 1
    assert len(mail.outbox) == 1  # left without moving: reminded now


def test_presence_counts_every_open_page_and_expires(alice, monkeypatch):
    presence.presence_touch(user_id=alice.pk, match_id=7, channel="tab-1")
    presence.presence_touch(user_id=alice.pk, match_id=7, channel="tab-2")
    presence.presence_leave(user_id=alice.pk, match_id=7, channel="tab-1")
    assert presence.is_present(user_id=alice.pk, match_id=7)
    assert not presence.is_present(user_id=alice.pk, match_id=8)
    later = presence.time.time() + presence.PRESENCE_TTL + 1
    monkeypatch.setattr(presence.time, "time", lambda: later)
    assert not presence.is_present(user_id=alice.pk, match_id=7)  # no heartbeat: gone


def test_against_the_ai_your_turn_is_the_beats_in_app_only_and_not_when_present(alice):
    ai_first = {"deal": LONG_DEAL["deal"] | {"first": 1}}
    match = games.match_create(creator=alice, game_slug="dogblade", opponent="ai", options=ai_first)
    assert not Notification.objects.filter(user=alice).exists()  # not at once: the AI is quick
    seat = seat_of(match, 0)
    assert services.reminders_send_due(now=seat.turn_started + dt.timedelta(seconds=30)) == {
        "turn": 0,
        "late": 0,
    }
    # A minute on, not on the board: one row in the notification centre, no email.
    assert services.reminders_send_due(now=seat.turn_started + dt.timedelta(minutes=1))["turn"]
    notification = Notification.objects.get(user=alice, kind=Kind.TURN)
    assert notification.in_app and not notification.by_email and mail.outbox == []
    assert "against AI · Easy" in notification.text

    presence.presence_touch(user_id=alice.pk, match_id=match.pk, channel="page")
    games.move_submit(match_id=match.pk, user=alice, ply=1, move={"type": "attack"})
    later = seat_of(match, 0).turn_started + dt.timedelta(minutes=2)
    services.reminders_send_due(now=later)  # on the board: recorded, never shown
    assert Notification.objects.filter(user=alice, kind=Kind.TURN, in_app=True).count() == 1


def test_ai_seats_never_get_notifications(alice):
    match = games.match_create(
        creator=alice, game_slug="dogblade", opponent="ai", options=LONG_DEAL
    )
    games.move_submit(match_id=match.pk, user=alice, ply=0, move={"type": "attack"})
    assert set(Notification.objects.values_list("user", flat=True)) <= {alice.pk}


def test_switched_off_channels_send_nothing(duel, alice):
    services.settings_update(user=alice, in_app=False, email=False, digest=False, digest_hour=8)
    notification = services.turn_remind(seat=seat_of(duel, 0))
    assert not notification.in_app and not notification.by_email and mail.outbox == []
    assert services.reminders_send_due(now=notification.created)["turn"] == 0  # still once


def test_email_off_keeps_the_notification_centre(duel, alice):
    services.settings_update(user=alice, in_app=True, email=False, digest=False, digest_hour=8)
    notification = services.turn_remind(seat=seat_of(duel, 0))
    assert notification.in_app and not notification.by_email and mail.outbox == []


def test_in_app_off_still_emails(duel, alice):
    services.settings_update(user=alice, in_app=False, email=True, digest=False, digest_hour=8)
    notification = services.turn_remind(seat=seat_of(duel, 0))
    assert not notification.in_app and len(mail.outbox) == 1


def test_bad_settings_change_nothing(alice):
    from inbox.errors import BadSettings

    with pytest.raises(BadSettings, match="from 0 to 23"):
        services.settings_update(user=alice, in_app=False, email=False, digest=True, digest_hour=24)
    prefs = services.settings_get(user=alice)
    assert (prefs.in_app, prefs.email, prefs.digest, prefs.digest_hour) == (True, True, False, 8)


def test_no_reminders_while_the_match_is_paused(duel, alice, bob):
    games.match_pause_request(match_id=duel.pk, user=alice)
    games.match_pause_request(match_id=duel.pk, user=bob)
    seat = seat_of(duel, 0)
    assert seat.deadline is None and services.turn_remind(seat=seat) is None
    later = seat.turn_started + dt.timedelta(days=1, hours=6)
    assert services.reminders_send_due(now=later) == {"turn": 0, "late": 0}
    assert not Notification.objects.filter(user=alice, kind__in=[Kind.TURN, Kind.LATE]).exists()


def test_a_turn_played_is_no_longer_unread(duel, alice, bob):
    match = duel
    games.move_submit(match_id=match.pk, user=alice, ply=0, move={"type": "attack"})
    notice = Notification.objects.get(user=bob, kind=Kind.TURN)
    assert notice.read_at is None
    games.move_submit(match_id=match.pk, user=bob, ply=1, move={"type": "attack"})
    notice.refresh_from_db()
    assert notice.read_at is not None  # bob played that turn: nothing left to tell him


def test_a_turn_ended_settles_only_the_notices_made_until_it_ended(duel, alice, bob):
    """The hook runs after the commit: a notice of a turn begun since is still news."""
    match = duel
    games.move_submit(match_id=match.pk, user=alice, ply=0, move={"type": "attack"})
    notice = Notification.objects.get(user=bob, kind=Kind.TURN)
    before = notice.created - dt.timedelta(seconds=1)

    assert services.turn_notifications_settle(user_id=bob.pk, match_id=match.pk, until=before) == 0
    notice.refresh_from_db()
    assert notice.read_at is None
    assert services.turn_notifications_settle(user_id=bob.pk, match_id=match.pk) == 1
