"""What happens at a table: invitations, rematch offers, pause requests, results, digest."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.utils import timezone

from games import presence
from games import services as games
from inbox import services, tasks
from inbox.models import Notification
from tests.inbox.conftest import LONG_DEAL

pytestmark = pytest.mark.django_db(transaction=True)

Kind = Notification.Kind


def test_an_invitation_reaches_the_invitee_in_app_and_by_email(alice, bob):
    match = games.match_create(
        creator=alice, game_slug="dogblade", opponent="player", invitee_username="bob"
    )
    invite = Notification.objects.get(user=bob, kind=Kind.INVITE)
    assert invite.text == "alice invites you to Dog Blade" and invite.match == match
    assert [email.to for email in mail.outbox] == [["bob@example.com"]]
    assert not Notification.objects.filter(user=alice).exists()


def test_the_result_and_a_rematch_offer(alice, bob, make_match):
    match = make_match(alice, bob, LONG_DEAL)
    games.match_resign(match_id=match.pk, user=alice)
    assert Notification.objects.get(user=bob, kind=Kind.FINISHED).text == (
        "Dog Blade against alice is over: you won"
    )
    assert Notification.objects.get(user=alice, kind=Kind.FINISHED).text.endswith("you lost")

    games.match_rematch(match_id=match.pk, user=alice)
    offer = Notification.objects.get(user=bob, kind=Kind.REMATCH)
    assert offer.text == "alice offers you a rematch of Dog Blade"
    assert offer.match.rematch_of_id == match.pk


def test_no_result_for_a_player_watching_the_end(alice, bob, make_match):
    match = make_match(alice, bob, LONG_DEAL)
    presence.presence_touch(user_id=bob.pk, match_id=match.pk, channel="page")
    games.match_resign(match_id=match.pk, user=alice)
    assert not Notification.objects.filter(user=bob, kind=Kind.FINISHED, in_app=True).exists()


def test_a_pause_request_reaches_the_other_players(alice, bob, make_match):
    match = make_match(alice, bob, LONG_DEAL)
    games.match_pause_request(match_id=match.pk, user=alice)
    pause = Notification.objects.get(kind=Kind.PAUSE)
    assert pause.user == bob and pause.text == "alice asked to pause Dog Blade: agree or decline"
    games.match_pause_request(match_id=match.pk, user=bob)  # agreed: paused, nothing more
    assert Notification.objects.filter(kind=Kind.PAUSE).count() == 1


def test_the_daily_digest_once_a_day_at_the_chosen_hour(alice, bob, make_match):
    match = make_match(alice, bob, LONG_DEAL)  # alice to move
    services.settings_update(user=alice, in_app=True, email=True, digest=True, digest_hour=9)
    mail.outbox.clear()
    day = timezone.now().replace(hour=8, minute=5) + dt.timedelta(days=1)
    assert services.digests_send(now=day) == 0  # before her hour
    assert services.digests_send(now=day.replace(hour=9)) == 1
    assert services.digests_send(now=day.replace(hour=10)) == 0  # once a day
    [email] = mail.outbox
    assert email.to == ["alice@example.com"]
    assert email.subject == "Cardhall · 1 of your matches wait for your move"
    assert f"/matches/{match.pk}/" in email.body and "/notifications/settings/" in email.body
    assert services.digests_send(now=day.replace(hour=9) + dt.timedelta(days=1)) == 1
    assert not Notification.objects.filter(kind=Kind.DIGEST, in_app=True).exists()


def test_the_digest_hour_is_the_players_own_time(alice, bob, make_match):
    from progression.services import time_zone_set

    make_match(alice, bob, LONG_DEAL)  # alice to move
    time_zone_set(user=alice, time_zone="Asia/Tokyo")  # UTC+9, no daylight saving
    services.settings_update(user=alice, in_app=True, email=True, digest=True, digest_hour=9)
    mail.outbox.clear()
    evening = dt.datetime(2027, 3, 1, 23, 30, tzinfo=dt.UTC)  # 08:30 on 2 March in Tokyo
    assert services.digests_send(now=evening) == 0
    assert services.digests_send(now=evening + dt.timedelta(minutes=35)) == 1  # 09:05 there
    assert services.digests_send(now=evening + dt.timedelta(hours=11)) == 0  # 19:30 there
    assert Notification.objects.get(kind=Kind.DIGEST).key == "digest:2027-03-02"
    assert len(mail.outbox) == 1


def test_no_digest_when_nothing_waits_or_not_asked(alice, bob, make_match):
    make_match(alice, bob, LONG_DEAL)  # alice to move; bob asked, alice did not
    services.settings_update(user=bob, in_app=True, email=True, digest=True, digest_hour=0)
    mail.outbox.clear()
    assert tasks.send_digests() == 0 and mail.outbox == []
