"""The match admin's rulings: a form that asks for a reason, the service, one audit row
(LogEntry: who, what, when, why) per match changed, and nothing written on bad input."""

from __future__ import annotations

import pytest
from django.contrib.admin.models import CHANGE, LogEntry
from django.urls import reverse

from games.models import Match

pytestmark = pytest.mark.django_db

URL = reverse("admin:games_match_changelist")


def _post(client, action, matches, **data):
    ids = [match.pk for match in matches]
    return client.post(URL, {"action": action, "_selected_action": ids, **data}, follow=True)


def _messages(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def test_abort_asks_for_a_reason_then_aborts_and_audits(
    admin_client, admin_user, alice, bob, make_match
):
    match = make_match(alice, bob)
    form = _post(admin_client, "abort_matches", [match])
    assert form.status_code == 200 and b"Abort matches" in form.content
    assert b'name="reason"' in form.content
    done = _post(admin_client, "abort_matches", [match], apply="1", reason="Stuck after a bug")
    assert done.status_code == 200
    assert any("aborted" in text for text in _messages(done))
    match.refresh_from_db()
    assert match.status == Match.Status.CANCELLED
    entry = LogEntry.objects.get(object_id=str(match.pk))
    assert entry.user == admin_user and entry.action_flag == CHANGE
    assert entry.get_change_message() == "Aborted. Reason: Stuck after a bug"
    assert entry.action_time is not None

    again = _post(admin_client, "abort_matches", [match], apply="1", reason="Twice")
    assert any("already over" in text for text in _messages(again))
    assert LogEntry.objects.filter(object_id=str(match.pk)).count() == 1


def test_an_empty_reason_is_refused_and_writes_nothing(admin_client, alice, bob, make_match):
    match = make_match(alice, bob)
    response = _post(admin_client, "abort_matches", [match], apply="1", reason="   ")
    assert response.status_code == 200
    assert b"Give a reason" in response.content or b"This field is required" in response.content
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    assert not LogEntry.objects.exists()


def test_adjudicate_declares_the_chosen_seat_and_audits(admin_client, alice, bob, make_match):
    match = make_match(alice, bob)
    form = _post(admin_client, "adjudicate_match", [match])
    assert b"alice wins" in form.content.lower() and b"A draw" in form.content
    done = _post(
        admin_client, "adjudicate_match", [match], apply="1", reason="Opponent left", result="0"
    )
    assert any("adjudicated" in text for text in _messages(done))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.outcome["winners"] == [0]
    entry = LogEntry.objects.get(object_id=str(match.pk))
    assert entry.get_change_message() == "Adjudicated (seat 0 wins). Reason: Opponent left"


def test_adjudicate_refuses_an_unknown_result_and_several_matches(
    admin_client, alice, bob, make_user, make_match
):
    match = make_match(alice, bob)
    other = make_match(make_user(), make_user())
    bad = _post(admin_client, "adjudicate_match", [match], apply="1", reason="x", result="7")
    assert bad.status_code == 200 and b"Select a valid choice" in bad.content
    several = _post(admin_client, "adjudicate_match", [match, other], apply="1", reason="x")
    assert "Adjudicate one match at a time." in _messages(several)
    assert Match.objects.filter(status=Match.Status.ACTIVE).count() == 2
    assert not LogEntry.objects.exists()


def test_the_match_pages_still_load(admin_client, alice, bob, make_match):
    match = make_match(alice, bob)
    assert admin_client.get(URL).status_code == 200
    page = admin_client.get(reverse("admin:games_match_change", args=[match.pk]))
    assert page.status_code == 200 and bytes(match.seed).hex().encode() not in page.content
