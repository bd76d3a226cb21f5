"""The notification pages: the bell, the list, marking read, following, settings."""

from __future__ import annotations

import pytest
from django.core import mail

from inbox import services
from inbox.models import CENTRE_KINDS, Notification, NotificationSettings

pytestmark = pytest.mark.django_db

Kind = Notification.Kind


def notify(user, key, text="Your turn in Dog Blade against bob", url="/matches/1/"):
    return services.notification_send(user=user, kind=Kind.TURN, key=key, text=text, url=url)


@pytest.fixture
def signed_in(client, alice):
    client.force_login(alice)
    return client


def test_the_bell_shows_the_unread_count(signed_in, alice):
    notify(alice, "a")
    notify(alice, "b")
    page = signed_in.get("/").content.decode()
    assert 'data-testid="inbox-bell"' in page and 'ws-connect="/ws/notifications/"' in page
    assert 'data-count="2"' in page and 'aria-label="Notifications, 2 unread"' in page
    assert 'id="inbox-toasts"' in page and "js/inbox.js" in page


def test_no_bell_for_visitors(client):
    page = client.get("/").content.decode()
    assert "inbox-bell" not in page and "/ws/notifications/" not in page


def test_the_list_newest_first_and_only_mine(signed_in, alice, bob):
    notify(alice, "old", text="First")
    notify(alice, "new", text="Second")
    notify(bob, "bob's", text="Not for alice")
    hidden = notify(alice, "seen", text="Seen on the board")
    Notification.objects.filter(pk=hidden.pk).update(in_app=False)
    page = signed_in.get("/notifications/").content.decode()
    assert page.index("Second") < page.index("First")
    assert "Not for alice" not in page and "Seen on the board" not in page
    assert page.count('data-testid="notification"') == 2 and "Mark all read" in page


def test_marking_one_read(signed_in, alice):
    first, second = notify(alice, "a"), notify(alice, "b")
    response = signed_in.post(f"/notifications/{first.pk}/read/")
    assert response.status_code == 302 and response["Location"] == "/notifications/"
    first.refresh_from_db(), second.refresh_from_db()
    assert first.is_read and not second.is_read


def test_marking_read_with_htmx_returns_the_list_and_the_new_count(signed_in, alice):
    first, _ = notify(alice, "a"), notify(alice, "b")
    response = signed_in.post(f"/notifications/{first.pk}/read/", headers={"HX-Request": "true"})
    html = response.content.decode()
    assert response.status_code == 200 and 'id="inbox-list"' in html
    assert 'id="inbox-count"' in html and 'hx-swap-oob="true"' in html and 'data-count="1"' in html
    assert "<header" not in html


def test_marking_all_read(signed_in, alice, bob):
    notify(alice, "a"), notify(alice, "b"), notify(bob, "c")
    response = signed_in.post("/notifications/read/", follow=True)
    assert "Marked 2 notifications read." in response.content.decode()
    assert not Notification.objects.filter(user=alice, read_at=None).exists()
    assert Notification.objects.filter(user=bob, read_at=None).count() == 1


def test_someone_elses_notification_is_not_found(signed_in, bob):
    theirs = notify(bob, "x")
    assert signed_in.post(f"/notifications/{theirs.pk}/read/").status_code == 404
    assert signed_in.get(f"/notifications/{theirs.pk}/").status_code == 404
    theirs.refresh_from_db()
    assert not theirs.is_read


def test_marking_read_needs_a_post(signed_in, alice):
    mine = notify(alice, "a")
    assert signed_in.get(f"/notifications/{mine.pk}/read/").status_code == 405


def test_following_a_notification_reads_it_and_opens_the_match(signed_in, alice):
    mine = notify(alice, "a", url="/matches/42/")
    response = signed_in.get(f"/notifications/{mine.pk}/")
    assert response.status_code == 302 and response["Location"] == "/matches/42/"
    mine.refresh_from_db()
    assert mine.is_read


def test_a_foreign_link_is_never_followed(signed_in, alice):
    mine = notify(alice, "a", url="https://evil.example/")
    assert signed_in.get(f"/notifications/{mine.pk}/")["Location"] == "/notifications/"


def test_pages_need_a_login(client):
    for url in ("/notifications/", "/notifications/settings/"):
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_settings_page_saves_the_channels(signed_in, alice):
    page = signed_in.get("/notifications/settings/").content.decode()
    assert 'name="in_app"' in page and "checked" in page and "alice@example.com" in page
    response = signed_in.post(
        "/notifications/settings/", {"email": "on", "digest": "on", "digest_hour": "18"}
    )
    assert response.status_code == 302
    prefs = NotificationSettings.objects.get(user=alice)
    assert (prefs.in_app, prefs.email, prefs.digest, prefs.digest_hour) == (False, True, True, 18)
    assert (
        "Your notification settings are saved."
        in signed_in.get(response["Location"]).content.decode()
    )


def test_the_settings_page_chooses_what_goes_by_email(signed_in, alice):
    page = signed_in.get("/notifications/settings/").content.decode()
    assert page.count('name="email_kinds"') == 4 and 'data-testid="email-kinds"' in page
    assert services.settings_get(user=alice).email_kinds == ["turn", "late", "invite", "rematch"]
    form = {
        "email": "on",
        "email_kinds": ["invite", "turn"],
        "digest_hour": "8",
        "in_app": "on",
        "centre_kinds": list(CENTRE_KINDS),  # as the page posts them: all ticked
    }
    assert signed_in.post("/notifications/settings/", form).status_code == 302
    assert services.settings_get(user=alice).email_kinds == ["turn", "invite"]

    turn = services.notification_send(user=alice, kind="turn", key="k1", text="Your turn")
    late = services.notification_send(user=alice, kind="late", key="k2", text="Running late")
    assert (turn.by_email, late.by_email) == (True, False)
    assert late.in_app  # still in the notification centre

    bad = {**form, "email_kinds": ["turn", "spam"]}
    response = signed_in.post("/notifications/settings/", bad)
    assert response.status_code == 400 and "Pick what to email" in response.content.decode()
    assert services.settings_get(user=alice).email_kinds == ["turn", "invite"]


def test_the_settings_page_chooses_what_the_centre_shows(signed_in, alice):
    page = signed_in.get("/notifications/settings/").content.decode()
    assert page.count('name="centre_kinds"') == 6 and 'data-testid="centre-kinds"' in page
    assert services.settings_get(user=alice).centre_kinds == [
        "turn",
        "late",
        "invite",
        "rematch",
        "pause",
        "finished",
    ]
    form = {
        "in_app": "on",
        "centre_kinds": ["finished", "invite"],
        "email": "on",
        "email_kinds": ["turn"],
        "digest_hour": "8",
    }
    assert signed_in.post("/notifications/settings/", form).status_code == 302
    assert services.settings_get(user=alice).centre_kinds == ["invite", "finished"]

    turn = services.notification_send(user=alice, kind="turn", key="c1", text="move now, alice")
    invite = services.notification_send(user=alice, kind="invite", key="c2", text="bob invites")
    assert (turn.in_app, invite.in_app) == (False, True)
    assert turn.by_email and turn.read_at is not None  # still emailed; never unread
    listed = signed_in.get("/notifications/").content.decode()
    assert "bob invites" in listed and "move now, alice" not in listed

    bad = {**form, "centre_kinds": ["finished", "spam"]}
    response = signed_in.post("/notifications/settings/", bad)
    assert response.status_code == 400
    assert "Pick what the notification centre shows" in response.content.decode()
    assert services.settings_get(user=alice).centre_kinds == ["invite", "finished"]


def test_the_settings_page_names_the_digest_hours_time_zone(signed_in, alice):
    from progression.services import time_zone_set

    assert "Your time, UTC" in signed_in.get("/notifications/settings/").content.decode()
    time_zone_set(user=alice, time_zone="Europe/Paris")
    page = signed_in.get("/notifications/settings/").content.decode()
    assert "Your time, Europe/Paris" in page and 'href="/progress/#tz"' in page


@pytest.mark.parametrize("hour", ["25", "-1", "noon", ""])
def test_bad_settings_input_says_why_and_saves_nothing(signed_in, alice, hour):
    response = signed_in.post("/notifications/settings/", {"digest": "on", "digest_hour": hour})
    html = response.content.decode()
    assert response.status_code == 400
    assert "Pick an hour of the day from the list" in html or "This field is required" in html
    prefs = services.settings_get(user=alice)
    assert (prefs.in_app, prefs.email, prefs.digest, prefs.digest_hour) == (True, True, False, 8)


def test_switching_email_off_on_the_page_stops_emails(
    signed_in, alice, django_capture_on_commit_callbacks
):
    signed_in.post(
        "/notifications/settings/",
        {"in_app": "on", "centre_kinds": list(CENTRE_KINDS), "digest_hour": "8"},
    )
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        notification = notify(alice, "a")
    assert len(callbacks) == 1 and not notification.by_email and mail.outbox == []
    assert notification.in_app
