"""Ratings under real concurrency (PostgreSQL, real threads): one update per match, and no
update lost when two matches of one player finish at the same moment."""

from __future__ import annotations

import pytest

from games import services
from ratings import services as rating_services
from ratings.models import RatedMatch, Rating, RatingChange
from tests.concurrency import race
from tests.conftest import requires_postgres

pytestmark = [requires_postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def unrated_on_finish(monkeypatch):
    """Matches finish without being rated, so a test can rate them itself."""
    monkeypatch.setattr(rating_services, "match_rate", lambda *, match_id: None)
    yield monkeypatch


def test_two_threads_rating_one_match_rate_it_once(alice, bob, make_match, unrated_on_finish):
    match = make_match(bob, alice)
    services.match_resign(match_id=match.pk, user=alice)
    unrated_on_finish.undo()
    assert not RatedMatch.objects.exists()
    errors = []

    def rate(index):
        try:
            return rating_services.match_rate(match_id=match.pk) or "no-op"
        except Exception as error:  # a lost race must be a no-op, not an error
            errors.append(error)
            raise

    results = race(4, rate)
    assert errors == []
    assert sorted(map(str, results)).count("no-op") == 3
    assert RatedMatch.objects.count() == 1 and RatingChange.objects.count() == 2
    assert sorted(Rating.objects.values_list("user__username", "games")) == [
        ("alice", 1),
        ("bob", 1),
    ]


def test_two_matches_of_one_player_finishing_at_once_both_count(alice, bob, make_user, make_match):
    carol = make_user("carol")
    matches = [make_match(alice, bob), make_match(alice, carol)]
    losers = [bob, carol]
    race(2, lambda i: services.match_resign(match_id=matches[i].pk, user=losers[i]))
    mine = Rating.objects.get(user=alice, game="dogblade")
    assert (mine.games, mine.wins) == (2, 2)
    changes = list(RatingChange.objects.filter(user=alice).order_by("rating_before"))
    assert len(changes) == 2
    # the second update started from the first one's result: nothing was lost
    assert changes[1].rating_before == pytest.approx(changes[0].rating_after)
    assert mine.rating == pytest.approx(changes[1].rating_after)
