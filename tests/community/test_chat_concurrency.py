"""Two requests at once never apply anything twice: posts at once are counted against the
pace one after the other, and one report filed twice at once is one report (PostgreSQL,
real threads)."""

from __future__ import annotations

import pytest

from community import services
from community.errors import CommunityError, TooFast
from community.models import ChatMessage, Report
from tests.concurrency import race
from tests.conftest import requires_postgres

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres, requires_postgres]


def _caught(act):
    def run(index):
        try:
            return act(index)
        except CommunityError as error:
            return error

    return run


def test_posts_at_once_keep_the_pace(alice, bob, make_match):
    match = make_match(alice, bob)
    count = services.PACE_LINES + 3
    results = race(
        count,
        _caught(lambda n: services.chat_post(match_id=match.pk, user=alice, text=f"line {n}")),
    )
    refused = [result for result in results if isinstance(result, TooFast)]
    stored = [result for result in results if isinstance(result, ChatMessage)]
    assert len(stored) == services.PACE_LINES and len(refused) == 3
    assert ChatMessage.objects.count() == services.PACE_LINES


def test_one_report_filed_twice_at_once_is_one_report(alice, bob, make_match):
    match = make_match(alice, bob)
    line = services.chat_post(match_id=match.pk, user=bob, text="rude")
    results = race(
        4,
        _caught(lambda n: services.report_file(reporter=alice, reason="abuse", message_id=line.pk)),
    )
    assert Report.objects.count() == 1
    assert {result.pk for result in results} == {Report.objects.get().pk}
