"""games.services.adjudication: an admin aborts or adjudicates a match, once, with a reason
that both players are told; ratings and progression follow the ruling
(docs/operations-admin.md)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games import replay, services
from games.engine import registry
from games.models import Match
from games.services import adjudication
from games.services.adjudication import RulingRefused
from inbox.models import Notification
from progression.models import MatchCredit
from ratings.models import RatedMatch, Rating
from tests.concurrency import race
from tests.conftest import requires_postgres

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(db):
    return get_user_model().objects.create_superuser("ref", "ref@example.com", "pw")


def _play_one_move(match: Match) -> Match:
    """The player to act makes a legal move, so both seats earn credit for a result."""
    game = registry.get(match.game)
    state = replay.match_position(match=match).state
    seat = match.seats.get(index=match.seats_to_act[0])
    services.move_submit(
        match_id=match.pk,
        user=seat.user,
        ply=match.ply,
        move=game.legal_moves(state, seat.index)[0],
    )
    match.refresh_from_db()
    return match


def _notices(match: Match) -> dict[str, str]:
    rows = Notification.objects.filter(key=f"ruling:{match.pk}")
    return {row.user.username: row.text for row in rows}


def test_abort_cancels_unrated_without_credit_and_tells_both(
    alice, bob, make_match, staff, django_capture_on_commit_callbacks
):
    match = _play_one_move(make_match(alice, bob))
    with django_capture_on_commit_callbacks(execute=True):
        ruling = adjudication.match_abort(match_id=match.pk, admin=staff, reason="  Server bug  ")
    assert ruling.changed
    match.refresh_from_db()
    assert match.status == Match.Status.CANCELLED and match.to_act == ""
    assert match.outcome["reason"] == "aborted" and match.outcome["winners"] == []
    assert match.outcome["ruling"]["by"] == staff.pk
    assert match.outcome["ruling"]["note"] == "Server bug"
    assert not RatedMatch.objects.filter(match=match).exists()
    assert not MatchCredit.objects.filter(match=match).exists()
    assert all(seat.deadline is None for seat in match.seats.all())
    notices = _notices(match)
    assert set(notices) == {"alice", "bob"}
    assert all("aborted" in text and "Server bug" in text for text in notices.values())


def test_adjudicating_a_winner_rates_and_credits_it_as_that_result(
    alice, bob, make_match, staff, django_capture_on_commit_callbacks
):
    match = _play_one_move(make_match(alice, bob))
    with django_capture_on_commit_callbacks(execute=True):
        ruling = adjudication.match_adjudicate(
            match_id=match.pk, admin=staff, reason="Disconnect dispute", winner=1
        )
    assert ruling.changed and "seat 1" in ruling.message
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.outcome["winners"] == [1] and match.outcome["ranking"] == [[1], [0]]
    assert match.outcome["reason"] == "adjudicated"
    assert match.outcome["ruling"]["note"] == "Disconnect dispute"
    assert RatedMatch.objects.filter(match=match).count() == 1
    assert Rating.objects.get(user=bob, game="dogblade").wins == 1
    assert Rating.objects.get(user=alice, game="dogblade").wins == 0
    assert MatchCredit.objects.filter(match=match).count() == 2
    assert set(_notices(match)) == {"alice", "bob"}


def test_adjudicating_a_draw(alice, bob, make_match, staff):
    match = make_match(alice, bob)
    adjudication.match_adjudicate(match_id=match.pk, admin=staff, reason="Agreed", winner=None)
    match.refresh_from_db()
    assert match.outcome["winners"] == [] and match.outcome["ranking"] == [[0, 1]]
    ratings = Rating.objects.filter(game="dogblade")
    assert ratings.count() == 2 and all(rating.wins == 0 for rating in ratings)


def test_a_second_ruling_does_nothing(
    alice, bob, make_match, staff, django_capture_on_commit_callbacks
):
    match = make_match(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        adjudication.match_adjudicate(match_id=match.pk, admin=staff, reason="First", winner=0)
    match.refresh_from_db()
    before = (match.status, match.outcome, match.updated)
    with django_capture_on_commit_callbacks(execute=True):
        again = adjudication.match_adjudicate(
            match_id=match.pk, admin=staff, reason="Second", winner=1
        )
        abort = adjudication.match_abort(match_id=match.pk, admin=staff, reason="Third")
    assert not again.changed and not abort.changed and "already over" in abort.message
    match.refresh_from_db()
    assert (match.status, match.outcome, match.updated) == before
    assert RatedMatch.objects.filter(match=match).count() == 1
    assert Notification.objects.filter(key=f"ruling:{match.pk}").count() == 2


def test_a_waiting_table_can_be_aborted_but_not_adjudicated(alice, bob, staff):
    match = services.match_create(
        creator=alice, game_slug="dogblade", opponent="player", invitee_username="bob"
    )
    with pytest.raises(RulingRefused, match="has not started"):
        adjudication.match_adjudicate(match_id=match.pk, admin=staff, reason="x", winner=0)
    assert adjudication.match_abort(match_id=match.pk, admin=staff, reason="Stale").changed
    match.refresh_from_db()
    assert match.status == Match.Status.CANCELLED


@pytest.mark.parametrize(
    ("reason", "winner", "message"),
    [
        ("", 0, "Give a reason"),
        ("   \n ", None, "Give a reason"),
        ("x" * 501, 0, "under 500"),
        ("Fine", 5, "Seat 5 is not a seat"),
    ],
)
def test_bad_rulings_are_refused_and_write_nothing(
    alice, bob, make_match, staff, reason, winner, message, django_capture_on_commit_callbacks
):
    match = make_match(alice, bob)
    with django_capture_on_commit_callbacks(execute=True):
        with pytest.raises(RulingRefused, match=message):
            adjudication.match_adjudicate(
                match_id=match.pk, admin=staff, reason=reason, winner=winner
            )
        if winner == 0:
            with pytest.raises(RulingRefused, match=message):
                adjudication.match_abort(match_id=match.pk, admin=staff, reason=reason)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE and match.outcome is None
    assert not RatedMatch.objects.exists()
    assert not Notification.objects.filter(key__startswith="ruling:").exists()


@requires_postgres
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_admins_at_once_make_one_ruling(alice, bob, make_match, staff):
    match = make_match(alice, bob)

    def act(index: int):
        if index % 2:
            return adjudication.match_abort(match_id=match.pk, admin=staff, reason=f"a{index}")
        return adjudication.match_adjudicate(
            match_id=match.pk, admin=staff, reason=f"j{index}", winner=index % 2
        )

    results = race(4, act)
    assert sum(result.changed for result in results) == 1
    match.refresh_from_db()
    assert match.status in (Match.Status.CANCELLED, Match.Status.FINISHED)
    assert RatedMatch.objects.filter(match=match).count() == (
        1 if match.status == Match.Status.FINISHED else 0
    )
    assert Notification.objects.filter(key=f"ruling:{match.pk}").count() == 2
