"""Accounts through the real allauth views: signup, login, logout, passwords, throttling,
and the profile and public player pages."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone
from pytest_django.asserts import assertContains, assertNotContains

from accounts.models import Profile
from accounts.selectors import PlayerRecord
from accounts.services import profile_ensure, profile_update
from games.models import Match, Seat

User = get_user_model()
PASSWORD = "Lantern-Fox-4821"
NEW_PASSWORD = "Cobalt-Heron-7350"


@pytest.fixture(autouse=True)
def _fast_and_unthrottled(settings):
    """Fast hashing, and a clean cache so allauth's rate limits never leak between tests."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    cache.clear()
    yield
    cache.clear()


def make_user(username: str = "alice", *, email: str | None = None, password: str = PASSWORD):
    email = email or f"{username}@example.com"
    user = User.objects.create_user(username=username, email=email, password=password)
    EmailAddress.objects.create(user=user, email=email, primary=True, verified=True)
    profile_ensure(user=user)
    return user


def logged_in_user(client):
    return client.session.get("_auth_user_id")


def login(client, login_value: str, password: str = PASSWORD):
    return client.post(reverse("account_login"), {"login": login_value, "password": password})


def finished_match(*, user, seat_index: int = 0, winners=(0,), resigned: bool = False) -> Match:
    seed = bytes(32)
    match = Match.objects.create(
        game="dogblade",
        status=Match.Status.FINISHED,
        seed=seed,
        seed_commitment=Match.commitment_for(seed),
        finished=timezone.now(),
        outcome={"winners": list(winners), "ranking": [], "reason": "hp"},
    )
    Seat.objects.create(
        match=match, index=seat_index, user=user, joined=timezone.now(), resigned=resigned
    )
    Seat.objects.create(match=match, index=1 - seat_index, kind=Seat.Kind.AI, ai_level="normal")
    return match


# --- signup, login, logout -------------------------------------------------------------


@pytest.mark.django_db
def test_signup_creates_user_and_profile_and_logs_in(client):
    response = client.post(
        reverse("account_signup"),
        {
            "username": "newbie",
            "email": "newbie@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )

    assert response.status_code == 302
    user = User.objects.get(username="newbie")
    assert Profile.objects.filter(user=user).exists()
    assert logged_in_user(client) == str(user.pk)


@pytest.mark.django_db
def test_signup_page_renders_in_site_layout(client):
    response = client.get(reverse("account_signup"))

    assertContains(response, 'class="auth-card"')
    assertContains(response, 'class="site-header"')
    assertContains(response, '<label for="id_username"')


@pytest.mark.django_db
def test_signup_refuses_a_username_taken_as_display_name(client):
    owner = make_user("owner")
    profile_update(user=owner, display_name="Grimjaw")

    response = client.post(
        reverse("account_signup"),
        {
            "username": "grimjaw",
            "email": "g@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )

    assert response.status_code == 200
    assert response.context["form"].errors["username"]
    assert not User.objects.filter(username="grimjaw").exists()


@pytest.mark.django_db
@pytest.mark.parametrize("login_value", ["alice", "alice@example.com"])
def test_login_with_username_or_email(client, login_value):
    user = make_user("alice")

    response = login(client, login_value)

    assert response.status_code == 302
    assert logged_in_user(client) == str(user.pk)


@pytest.mark.django_db
def test_wrong_password_shows_a_message_and_writes_nothing(client):
    user = make_user("alice")
    users_before, profiles_before = User.objects.count(), Profile.objects.count()

    response = login(client, "alice", "not-the-password")

    assert response.status_code == 200
    assertContains(response, "not correct")
    assertContains(response, 'class="errorlist nonfield"')
    assert logged_in_user(client) is None
    user.refresh_from_db()
    assert user.last_login is None
    assert (User.objects.count(), Profile.objects.count()) == (users_before, profiles_before)


@pytest.mark.django_db
def test_logout_by_post(client):
    user = make_user("alice")
    client.force_login(user)

    response = client.post(reverse("account_logout"))

    assert response.status_code == 302
    assert logged_in_user(client) is None


# --- passwords -------------------------------------------------------------------------


@pytest.mark.django_db
def test_password_change_when_logged_in(client):
    user = make_user("alice")
    client.force_login(user)

    response = client.post(
        reverse("account_change_password"),
        {"oldpassword": PASSWORD, "password1": NEW_PASSWORD, "password2": NEW_PASSWORD},
    )

    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(NEW_PASSWORD)


@pytest.mark.django_db
def test_password_reset_by_email_link(client, mailoutbox):
    user = make_user("alice")

    response = client.post(reverse("account_reset_password"), {"email": "alice@example.com"})
    assert response.status_code == 302
    assert len(mailoutbox) == 1
    assert mailoutbox[0].to == ["alice@example.com"]
    link = re.search(r"https?://[^/\s]+(/\S*/password/reset/key/\S+)", mailoutbox[0].body)
    assert link, mailoutbox[0].body

    # allauth moves the key into the session and redirects to a key-free URL.
    response = client.get(link.group(1))
    assert response.status_code == 302
    set_password_url = response.url
    response = client.get(set_password_url)
    assertContains(response, "Choose a new password")

    response = client.post(set_password_url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert response.status_code == 302
    assert response.url == reverse("account_reset_password_from_key_done")

    client.logout()
    assert login(client, "alice", NEW_PASSWORD).status_code == 302
    assert logged_in_user(client) == str(user.pk)


# --- throttling ------------------------------------------------------------------------


@pytest.mark.django_db
def test_failed_logins_lock_the_account_key(client):
    """ACCOUNT_RATE_LIMITS["login_failed"] = 5 per 5 minutes per login: then even the right
    password is refused (allauth answers with a form error here, not a 429)."""
    make_user("alice")
    for _ in range(5):
        login(client, "alice", "wrong-password")

    response = login(client, "alice", PASSWORD)

    assert response.status_code == 200
    assertContains(response, "Too many failed login attempts")
    assert logged_in_user(client) is None


@pytest.mark.django_db
def test_login_posts_per_ip_get_a_429(client):
    """allauth's "login" limit (30 POSTs a minute per IP) answers with its 429 response."""
    for attempt in range(30):
        assert login(client, f"nobody{attempt}", "wrong-password").status_code == 200

    response = login(client, "nobody", "wrong-password")

    assert response.status_code == 429


# --- profile -------------------------------------------------------------------------


@pytest.mark.django_db
def test_profile_requires_login(client):
    response = client.get(reverse("profile"))

    assert response.status_code == 302
    assert response.url.startswith(reverse("account_login"))


@pytest.mark.django_db
def test_profile_shows_games_played_and_won(client):
    user = make_user("alice")
    finished_match(user=user, winners=(0,))
    finished_match(user=user, seat_index=1, winners=(0,), resigned=True)
    unfinished = finished_match(user=user)
    Match.objects.filter(pk=unfinished.pk).update(status=Match.Status.ACTIVE)
    client.force_login(user)

    response = client.get(reverse("profile"))

    assert response.status_code == 200
    assert response.context["record"] == PlayerRecord(played=2, won=1, resigned=1)
    assert response.context["record"].win_rate == 50
    assertContains(response, "<dt>Played</dt><dd>2</dd>", html=False)
    assertContains(response, "<dt>Won</dt><dd>1</dd>", html=False)
    assertContains(response, "50%")
    assertContains(response, "Won")
    assertContains(response, "Lost")


@pytest.mark.django_db
def test_profile_without_matches_shows_no_win_rate(client):
    client.force_login(make_user("alice"))

    response = client.get(reverse("profile"))

    assert response.context["record"].win_rate is None
    assertContains(response, "No finished matches yet.")


@pytest.mark.django_db
def test_edit_display_name(client):
    user = make_user("alice")
    client.force_login(user)

    response = client.post(reverse("profile"), {"display_name": "  Queen of Blades  "}, follow=True)

    assert Profile.objects.get(user=user).display_name == "Queen of Blades"
    assertContains(response, "Your display name is now “Queen of Blades”.")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("display_name", "message"),
    [
        ("x" * 41, "40 characters or fewer"),
        ("", "Enter a display name."),
        ("    ", "Enter a display name."),
        ("grimjaw", "already taken"),  # another player's display name, other case
        ("BOB", "already taken"),  # another player's username
    ],
)
def test_edit_display_name_rejects_invalid_names(client, display_name, message):
    user = make_user("alice")
    profile_update(user=user, display_name="Alice the Bold")
    profile_update(user=make_user("owner"), display_name="GrimJaw")
    make_user("bob")
    client.force_login(user)

    response = client.post(reverse("profile"), {"display_name": display_name})

    assert response.status_code == 200
    assertContains(response, message)
    assertContains(response, 'class="errorlist"')
    assert Profile.objects.get(user=user).display_name == "Alice the Bold"


@pytest.mark.django_db
def test_player_may_keep_their_own_username_as_display_name(client):
    user = make_user("alice")
    client.force_login(user)

    client.post(reverse("profile"), {"display_name": "ALICE"})

    assert Profile.objects.get(user=user).display_name == "ALICE"


# --- public player page ---------------------------------------------------------------


@pytest.mark.django_db
def test_public_player_page_shows_record(client):
    user = make_user("alice")
    profile_update(user=user, display_name="Queen of Blades")
    finished_match(user=user, winners=(0,))
    finished_match(user=user, winners=(1,))

    response = client.get(reverse("player", args=["alice"]))

    assert response.status_code == 200
    assertContains(response, "Queen of Blades")
    assertContains(response, "<dt>Played</dt><dd>2</dd>", html=False)
    assertContains(response, "50%")
    assertContains(response, "AI · Normal")
    assertNotContains(response, "Display name")  # no edit form on the public page


@pytest.mark.django_db
def test_unknown_player_is_404(client):
    response = client.get(reverse("player", args=["ghost"]))

    assert response.status_code == 404
