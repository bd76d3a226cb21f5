"""A move and a timeout at the same moment, on real PostgreSQL with real threads."""

import datetime as dt

import pytest

from games import services
from games.errors import MatchError
from games.models import Match, Move, Seat
from games.services import timeouts
from tests.concurrency import race
from tests.conftest import EXAMPLE_DEAL, requires_postgres

pytestmark = [requires_postgres, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("attempt", range(5))
def test_a_move_and_the_sweeper_racing_exactly_one_wins(alice, bob, make_match, attempt):
    match = make_match(alice, bob, options=EXAMPLE_DEAL)
    deadline = Seat.objects.get(match=match, index=0).deadline
    # Bob's clock, once it starts, must not be overdue at the sweeper's time as well.
    Seat.objects.filter(match=match, index=1).update(bank_seconds=2 * 24 * 3600)
    # The move is made just in time; the sweeper runs with a clock a second past it.
    actions = [
        lambda: services.move_submit(match_id=match.pk, user=alice, ply=0, move={"type": "attack"}),
        lambda: timeouts.sweep(now=deadline + dt.timedelta(seconds=1)),
    ]
    results = race(2, lambda i: actions[i]())
    match.refresh_from_db()
    moved = Move.objects.filter(match=match).exists()
    timed_out = Seat.objects.get(match=match, index=0).timed_out
    assert moved != timed_out, (results, moved, timed_out)
    if timed_out:
        assert match.status == Match.Status.FINISHED and match.outcome["reason"] == "timeout"
        assert isinstance(results[0], MatchError)
        assert results[1]["timeouts"] == 1
    else:
        assert results[1]["timeouts"] == 0
        assert not isinstance(results[0], MatchError)


def test_two_sweepers_at_once_settle_a_timeout_once(alice, bob, make_match):
    match = make_match(alice, bob, options=EXAMPLE_DEAL)
    late = Seat.objects.get(match=match, index=0).deadline + dt.timedelta(seconds=1)
    results = race(3, lambda i: timeouts.sweep(now=late))
    assert sum(result["timeouts"] for result in results) == 1
    match.refresh_from_db()
    assert match.outcome["reason"] == "timeout"


def test_two_players_asking_for_the_rematch_at_once_open_one(alice, bob, make_match):
    match = make_match(alice, bob, options=EXAMPLE_DEAL)
    services.match_resign(match_id=match.pk, user=bob)
    players = [alice, bob]
    results = race(2, lambda i: services.match_rematch(match_id=match.pk, user=players[i]))
    assert not any(isinstance(result, MatchError) for result in results), results
    assert Match.objects.filter(rematch_of=match).count() == 1
    rematch = Match.objects.get(rematch_of=match)
    assert rematch.status == Match.Status.ACTIVE
    assert {seat.user_id for seat in rematch.seats.all()} == {alice.pk, bob.pk}
