"""Fixtures of the notification tests: a timed match between two players, after commit."""

from __future__ import annotations

import pytest

from tests.conftest import EXAMPLE_DEAL

# Four cards each, seat 0 first: the match runs for a few moves.
LONG_DEAL = {"deal": {"decks": [[[20, 150]] * 4, [[20, 150]] * 4], "first": 0}}


@pytest.fixture
def duel(alice, bob, make_match):
    """alice (seat 0, to act) against bob, a day per move; nothing delivered yet."""
    from django.core import mail

    from inbox.models import Notification

    match = make_match(alice, bob, LONG_DEAL)
    Notification.objects.all().delete()  # what the match's start sent (with on-commit on)
    mail.outbox.clear()
    return match


@pytest.fixture
def example_deal():
    return EXAMPLE_DEAL
