"""Shared fixtures: players, matches, and which real services this run has."""

from __future__ import annotations

import itertools
import time

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.core.cache import cache

from accounts.services import profile_ensure

_names = itertools.count(1)

IS_POSTGRES = django_settings.DATABASES["default"]["ENGINE"].endswith("postgresql")

# The example battle of the rules: 50/60 against 30/120, seat 0 first, one card each.
EXAMPLE_DEAL = {"deal": {"decks": [[[50, 60]], [[30, 120]]], "first": 0}}


@pytest.fixture(autouse=True)
def _fast_and_clean(settings):
    from botapi import selectors as botapi_selectors
    from games import rendering, replay

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.RATELIMIT_ENABLE = False  # the suite posts a lot: test_rate_limits.py turns them on
    cache.clear()
    replay.memo_clear()
    rendering.memo_clear()
    botapi_selectors.bot_ids_forget()
    yield
    cache.clear()
    replay.memo_clear()
    rendering.memo_clear()


@pytest.fixture
def ratelimit_clock(monkeypatch):
    """Holds django-ratelimit's clock still: its windows are fixed (a minute, offset per
    key), so a test whose requests straddled a window's end would see its count start over
    and pass or fail by the second it ran. Only the limits' clock stops, nothing else's."""
    from types import SimpleNamespace

    import django_ratelimit.core

    now = float(int(time.time()))
    monkeypatch.setattr(django_ratelimit.core, "time", SimpleNamespace(time=lambda: now))
    return now


@pytest.fixture
def make_user(db):
    def make(username: str | None = None, password: str = "correct horse battery"):
        username = username or f"player{next(_names)}"
        user = get_user_model().objects.create_user(
            username=username, email=f"{username}@example.com", password=password
        )
        profile_ensure(user=user)
        return user

    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def make_match(db):
    """A started two-player match between `creator` and `invitee` (no automation)."""
    from games import services

    def make(creator, invitee, options=None):
        match = services.match_create(
            creator=creator,
            game_slug="dogblade",
            opponent="player",
            invitee_username=invitee.username,
            options=options,
        )
        services.match_join(match_id=match.pk, user=invitee)
        match.refresh_from_db()
        return match

    return make


requires_postgres = pytest.mark.skipif(
    not IS_POSTGRES, reason="needs PostgreSQL (set DATABASE_URL): real row locks across threads"
)


def pytest_collection_modifyitems(config, items):
    """Browser tests run last: Playwright's sync API keeps an event loop running in this
    thread for the whole session, and asyncio tests after it could not start their own."""
    items.sort(key=lambda item: "/e2e/" in str(item.fspath))
