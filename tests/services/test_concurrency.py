"""Two submits at the same moment, on real PostgreSQL with real threads: exactly one move."""

import pytest

from games import services
from games.errors import MatchError
from games.models import Move
from tests.concurrency import race
from tests.conftest import EXAMPLE_DEAL, requires_postgres

pytestmark = [requires_postgres, pytest.mark.django_db(transaction=True)]


def test_double_submit_from_two_threads_makes_one_move(alice, bob, make_match):
    match = make_match(alice, bob, options=EXAMPLE_DEAL)
    results = race(
        2,
        lambda i: services.move_submit(
            match_id=match.pk, user=alice, ply=0, move={"type": "attack"}, move_id=f"click-{i}"
        ),
    )
    assert Move.objects.filter(match=match).count() == 1
    made = [r for r in results if not isinstance(r, MatchError)]
    refused = [r for r in results if isinstance(r, MatchError)]
    assert len(made) == 1 and len(refused) == 1
    assert "already played" in refused[0].message or "changed" in refused[0].message


def test_the_same_retry_from_two_threads_answers_both_with_one_move(alice, bob, make_match):
    match = make_match(alice, bob, options=EXAMPLE_DEAL)
    results = race(
        4,
        lambda i: services.move_submit(
            match_id=match.pk, user=alice, ply=0, move={"type": "attack"}, move_id="same"
        ),
    )
    assert Move.objects.filter(match=match).count() == 1
    assert all(not isinstance(r, MatchError) for r in results), results
    assert sum(not r.is_repeat for r in results) == 1


def test_automation_running_twice_at_once_plays_each_ply_once(alice, make_user):
    match = services.match_create(creator=alice, game_slug="dogblade", opponent="ai")
    with services.automation_paused():
        services.seat_set_autoplay(match_id=match.pk, user=alice, is_enabled=True)
    match.refresh_from_db()
    before = match.ply
    results = race(3, lambda i: services.automation_run(match_id=match.pk))
    match.refresh_from_db()
    plies = list(Move.objects.filter(match=match).order_by("ply").values_list("ply", flat=True))
    assert plies == list(range(match.ply))
    assert match.status == "finished"
    assert sum(results) == match.ply - before
