"""Vacations (accounts.services): the profile's days and dates, and the clocks they move
through the games' one "shift deadlines" service, in the same transaction."""

import datetime as dt

import pytest

from accounts import services as accounts
from accounts.errors import VacationRefused
from accounts.models import Profile
from accounts.selectors import VACATION_DAYS_PER_YEAR, is_on_vacation, vacation_days_left
from games import selectors
from games import services as games
from games.engine import registry
from games.models import Seat
from tests.conftest import EXAMPLE_DEAL


def _seat(match, index):
    return Seat.objects.get(match=match, index=index)


def _profile(user):
    return Profile.objects.get(user=user)


def _play_legal(match):
    """The seat to act plays its first legal move (whatever the game)."""
    match.refresh_from_db()
    index = match.seats_to_act[0]
    state = selectors.match_position(match=match).state
    move = registry.get(match.game).legal_moves(state, index)[0]
    games.move_submit(match_id=match.pk, user=_seat(match, index).user, ply=match.ply, move=move)


def test_a_vacation_moves_my_running_deadlines_and_returning_early_gives_days_back(
    alice, bob, make_match
):
    match = make_match(alice, bob, options=EXAMPLE_DEAL)
    before = _seat(match, 0).deadline
    accounts.vacation_start(user=alice, days=5)
    assert _seat(match, 0).deadline == before + dt.timedelta(days=5)
    assert is_on_vacation(profile=_profile(alice))
    assert vacation_days_left(profile=_profile(alice)) == VACATION_DAYS_PER_YEAR - 5
    accounts.vacation_end(user=alice)
    assert not is_on_vacation(profile=_profile(alice))
    assert vacation_days_left(profile=_profile(alice)) >= VACATION_DAYS_PER_YEAR - 1
    assert abs((_seat(match, 0).deadline - before).total_seconds()) < 24 * 3600


def test_a_turn_that_starts_during_my_vacation_counts_from_its_end(alice, bob, make_match):
    match = make_match(alice, bob, options=EXAMPLE_DEAL)
    accounts.vacation_start(user=bob, days=3)
    while 1 not in match.seats_to_act:
        _play_legal(match)
        match.refresh_from_db()
    seat = _seat(match, 1)
    assert seat.deadline - seat.turn_started > dt.timedelta(days=3)


@pytest.mark.parametrize("days", [0, -1, "soon", None, 31])
def test_bad_vacation_days_are_refused(alice, days):
    with pytest.raises(VacationRefused):
        accounts.vacation_start(user=alice, days=days)
    profile = _profile(alice)
    assert profile.vacation_until is None and profile.vacation_days_used == 0


def test_one_vacation_at_a_time_and_no_end_without_one(alice):
    with pytest.raises(VacationRefused, match="not on vacation"):
        accounts.vacation_end(user=alice)
    accounts.vacation_start(user=alice, days=2)
    with pytest.raises(VacationRefused, match="on vacation already"):
        accounts.vacation_start(user=alice, days=2)
    assert _profile(alice).vacation_days_used == 2


def test_the_allowance_is_per_calendar_year(alice):
    march = dt.datetime(2030, 3, 1, 12, tzinfo=dt.UTC)
    accounts.vacation_start(user=alice, days=VACATION_DAYS_PER_YEAR, now=march)
    after = march + dt.timedelta(days=VACATION_DAYS_PER_YEAR + 1)  # over, same year
    assert not is_on_vacation(profile=_profile(alice), now=after)
    with pytest.raises(VacationRefused, match="used all your vacation days this year"):
        accounts.vacation_start(user=alice, days=1, now=after)
    next_year = dt.datetime(2031, 1, 2, 12, tzinfo=dt.UTC)
    assert vacation_days_left(profile=_profile(alice), now=next_year) == VACATION_DAYS_PER_YEAR
    accounts.vacation_start(user=alice, days=3, now=next_year)
    profile = _profile(alice)
    assert (profile.vacation_year, profile.vacation_days_used) == (2031, 3)


def test_the_profile_and_the_deadlines_change_together_or_not_at_all(
    alice, bob, make_match, monkeypatch
):
    match = make_match(alice, bob, options=EXAMPLE_DEAL)
    before = _seat(match, 0).deadline

    def broken(**kwargs):
        raise RuntimeError("the clocks could not be moved")

    monkeypatch.setattr(accounts, "deadlines_shift", broken)
    with pytest.raises(RuntimeError):
        accounts.vacation_start(user=alice, days=5)
    profile = _profile(alice)
    assert profile.vacation_until is None and profile.vacation_days_used == 0
    assert _seat(match, 0).deadline == before
