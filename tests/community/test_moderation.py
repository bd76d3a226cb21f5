"""Moderation in the admin: the report queue shows its context, sanctions are imposed with
an expiry and a reason, lines are removed, and each action writes an audit row. A mute
stops chat; a ban stops starting and joining matches (games.admission)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from community import services
from community.admission import banned_refusal
from community.errors import NotAllowed
from community.models import ChatMessage, Report, Sanction
from games import admission
from games import services as games_services
from games.errors import CannotCreate, SeatUnavailable
from games.models import Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(db):
    return get_user_model().objects.create_superuser("ref", "ref@example.com", "pw")


@pytest.fixture
def admin_client(staff):
    client = Client()
    client.force_login(staff)
    return client


@pytest.fixture
def carol(make_user):
    return make_user("carol")


def _chat(match, lines):
    return [services.chat_post(match_id=match.pk, user=user, text=text) for user, text in lines]


def _unpaced():
    ChatMessage.objects.update(created=timezone.now() - timedelta(minutes=1))


def test_the_queue_shows_the_match_the_lines_around_and_both_players_matches(
    admin_client, alice, bob, carol, make_match
):
    older = make_match(bob, carol)
    match = make_match(alice, bob)
    lines = _chat(match, [(alice, f"alice {n}") for n in range(4)])
    _unpaced()
    lines += _chat(match, [(bob, "the insult"), (alice, "after 1"), (bob, "after 2")])
    _chat(match, [(carol, "a spectator's line")])  # another room: not context
    report = services.report_file(reporter=alice, reason="abuse", message_id=lines[4].pk)

    queue = admin_client.get("/admin/community/report/").content.decode()
    assert f"/admin/community/report/{report.pk}/change/" in queue
    page = admin_client.get(f"/admin/community/report/{report.pk}/change/").content.decode()
    assert f"/admin/games/match/{match.pk}/change/" in page
    for text in ("alice 0", "alice 3", "the insult", "after 1", "after 2"):
        assert text in page
    assert "a spectator&#x27;s line" not in page and "a spectator's line" not in page
    assert '<li class="reported"><b>' in page and "⚑ reported</b> bob: the insult" in page
    assert f"#{older.pk} dogblade" in page  # bob's recent matches include the older one
    assert f"?user={bob.pk}&amp;kind=mute&amp;report={report.pk}" in page


def test_removing_lines_and_resolving_reports_are_audited(
    admin_client, staff, alice, bob, make_match
):
    match = make_match(alice, bob)
    (line,) = _chat(match, [(bob, "spam spam")])
    report = services.report_file(reporter=alice, reason="spam", message_id=line.pk)
    admin_client.post(
        "/admin/community/report/",
        {"action": "remove_reported_messages", "_selected_action": [report.pk]},
    )
    change = f"/admin/community/report/{report.pk}/change/"
    assert change in admin_client.get("/admin/community/report/?status=open").content.decode()
    admin_client.post(
        "/admin/community/report/", {"action": "resolve", "_selected_action": [report.pk]}
    )
    assert change not in admin_client.get("/admin/community/report/?status=open").content.decode()
    assert change in admin_client.get("/admin/community/report/?status=resolved").content.decode()
    line.refresh_from_db()
    report.refresh_from_db()
    assert line.removed is not None and line.removed_by == staff
    assert report.resolved is not None and report.resolved_by == staff
    entries = LogEntry.objects.filter(user=staff).values_list("object_repr", "change_message")
    messages = [message for _, message in entries]
    assert "Removed the message." in messages and "Resolved the report." in messages


def test_a_mute_from_the_admin_stops_chat_until_lifted(admin_client, staff, alice, bob, make_match):
    match = make_match(alice, bob)
    expires = (timezone.localtime() + timedelta(days=1)).strftime("%Y-%m-%d %H:%M:%S")
    response = admin_client.post(
        "/admin/community/sanction/add/",
        {
            "user": alice.pk,
            "kind": "mute",
            "reason": "insults in chat",
            "expires_0": expires[:10],
            "expires_1": expires[11:],
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    mute = Sanction.objects.get()
    assert (mute.user, mute.kind, mute.created_by) == (alice, "mute", staff)
    assert LogEntry.objects.filter(object_id=str(mute.pk), user=staff).exists()
    with pytest.raises(NotAllowed, match="insults in chat"):
        services.chat_post(match_id=match.pk, user=alice, text="hi")
    admin_client.post(
        "/admin/community/sanction/", {"action": "lift", "_selected_action": [mute.pk]}
    )
    services.chat_post(match_id=match.pk, user=alice, text="hi again")
    assert LogEntry.objects.filter(change_message="Lifted early.").count() == 1


def test_a_sanction_needs_a_reason_and_an_end_in_the_future(admin_client, alice):
    past = (timezone.localtime() - timedelta(hours=1)).strftime("%Y-%m-%d %H:%M:%S")
    response = admin_client.post(
        "/admin/community/sanction/add/",
        {
            "user": alice.pk,
            "kind": "ban",
            "reason": "  ",
            "expires_0": past[:10],
            "expires_1": past[11:],
        },
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert "must be in the future" in body
    assert not Sanction.objects.exists() and not LogEntry.objects.exists()


def test_a_banned_player_cannot_start_or_join_a_match_with_others(staff, alice, bob, carol):
    assert banned_refusal in admission._checks  # registered by CommunityConfig.ready
    table = games_services.match_create(creator=carol, game_slug="dogblade", opponent="open")
    services.sanction_impose(
        user=alice,
        kind="ban",
        expires=timezone.now() + timedelta(days=3),
        reason="cheating",
        by=staff,
    )
    before = (Match.objects.count(), table.seats.filter(user__isnull=False).count())
    with pytest.raises(SeatUnavailable, match="You are banned from playing until .*: cheating"):
        games_services.match_join(match_id=table.pk, user=alice)
    with pytest.raises(CannotCreate, match="You are banned"):
        games_services.match_create(
            creator=alice, game_slug="dogblade", opponent="player", invitee_username="bob"
        )
    with pytest.raises(CannotCreate, match="alice cannot play right now"):
        games_services.match_create(
            creator=bob, game_slug="dogblade", opponent="player", invitee_username="alice"
        )
    assert (Match.objects.count(), table.seats.filter(user__isnull=False).count()) == before


def test_an_expired_ban_no_longer_refuses(alice, carol):
    Sanction.objects.create(
        user=alice,
        kind="ban",
        reason="old",
        starts=timezone.now() - timedelta(days=2),
        expires=timezone.now() - timedelta(days=1),
    )
    table = games_services.match_create(creator=carol, game_slug="dogblade", opponent="open")
    games_services.match_join(match_id=table.pk, user=alice)
    assert Report.objects.count() == 0


def test_a_ban_ends_the_players_running_matches_as_a_forfeit(staff, alice, bob, carol, make_match):
    running = make_match(alice, bob)
    theirs = make_match(bob, carol)  # not alice's: untouched
    waiting = games_services.match_create(
        creator=alice, game_slug="dogblade", opponent="player", invitee_username="carol"
    )
    invited = games_services.match_create(
        creator=bob, game_slug="dogblade", opponent="player", invitee_username="alice"
    )
    ban = services.sanction_impose(
        user=alice,
        kind="ban",
        expires=timezone.now() + timedelta(days=3),
        reason="cheating",
        by=staff,
    )
    running.refresh_from_db()
    assert running.status == Match.Status.FINISHED
    assert running.seats.get(user=alice).resigned
    assert running.outcome["winners"] == [running.seats.get(user=bob).index]
    for table in (waiting, invited):
        table.refresh_from_db()
        assert table.status == Match.Status.CANCELLED
    theirs.refresh_from_db()
    assert theirs.status == Match.Status.ACTIVE
    with pytest.raises(CannotCreate, match="You are banned"):  # not even against the AI
        games_services.match_create(creator=alice, game_slug="dogblade", opponent="ai")
    assert LogEntry.objects.filter(
        object_id=str(ban.pk), change_message__contains="ended 3"
    ).exists()

    # Banned again later (a second sanction): nothing is left to end, nothing is logged.
    services.sanction_impose(
        user=alice, kind="ban", expires=timezone.now() + timedelta(days=9), reason="again", by=staff
    )
    assert not LogEntry.objects.filter(change_message__contains="ended 0").exists()


def test_a_mute_ends_no_match(staff, alice, bob, make_match):
    running = make_match(alice, bob)
    services.sanction_impose(
        user=alice, kind="mute", expires=timezone.now() + timedelta(days=1), reason="spam", by=staff
    )
    running.refresh_from_db()
    assert running.status == Match.Status.ACTIVE
