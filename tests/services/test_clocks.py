"""Clocks: time controls, the time bank, timeouts settled by the sweeper, pauses, and
deadlines moved for a vacation."""

import datetime as dt

import pytest
from django.core.management import call_command
from django.utils import timezone

from games import selectors, services
from games.engine import registry
from games.errors import (
    CannotCreate,
    LimitReached,
    MatchFinished,
    MatchPaused,
    NotSeated,
    SeatUnavailable,
    TimeRanOut,
)
from games.models import Match, Move, Seat
from games.services import clock, timeouts
from tests.conftest import EXAMPLE_DEAL

DAY = 24 * 3600


def _seat(match, index):
    return Seat.objects.get(match=match, index=index)


def _user_of(match, index):
    return _seat(match, index).user


def _play_legal(match):
    """The seat to act plays its first legal move (whatever the game)."""
    match.refresh_from_db()
    index = match.seats_to_act[0]
    state = selectors.match_position(match=match).state
    move = registry.get(match.game).legal_moves(state, index)[0]
    return services.move_submit(
        match_id=match.pk, user=_user_of(match, index), ply=match.ply, move=move
    )


# --- time controls --------------------------------------------------------------------------


def test_a_match_with_another_player_needs_a_clock(alice, bob):
    with pytest.raises(CannotCreate, match="needs a clock"):
        services.match_create(
            creator=alice,
            game_slug="dogblade",
            opponent="player",
            invitee_username="bob",
            time_control="none",
        )
    assert not Match.objects.exists()


def test_an_unknown_time_control_is_refused(alice):
    with pytest.raises(CannotCreate, match="time controls on offer"):
        services.match_create(
            creator=alice, game_slug="dogblade", opponent="ai", time_control="2 weeks"
        )


def test_defaults_a_day_with_players_and_no_clock_against_the_ai(alice, make_match, bob):
    with services.automation_paused():
        against_ai = services.match_create(creator=alice, game_slug="dogblade", opponent="ai")
    assert against_ai.move_seconds is None
    assert _seat(against_ai, 0).deadline is None
    match = make_match(alice, bob)
    assert match.move_seconds == DAY


def test_the_first_deadline_is_the_move_time_plus_the_starting_bank(alice, bob, make_match):
    match = make_match(alice, bob, options=EXAMPLE_DEAL)
    seat = _seat(match, 0)
    assert seat.bank_seconds == DAY // 2
    assert seat.deadline - seat.turn_started == dt.timedelta(seconds=DAY + DAY // 2)
    assert _seat(match, 1).deadline is None  # not bob's turn


def test_a_quick_move_grows_the_bank_and_a_slow_one_spends_it(alice, bob, make_match):
    match = make_match(alice, bob, options=EXAMPLE_DEAL)
    seat = _seat(match, 0)
    clock.clocks_update(match, moved_seat=0, now=seat.turn_started + dt.timedelta(hours=1))
    seat.refresh_from_db()
    assert seat.bank_seconds == DAY // 2 + DAY // 10
    # Still seat 0's turn (nothing was played), so its next clock starts with the new bank.
    assert seat.deadline - seat.turn_started == dt.timedelta(seconds=DAY + seat.bank_seconds)
    # A slow move: 6 hours over the move time comes out of the bank.
    seat.turn_started, seat.deadline = timezone.now(), timezone.now() + dt.timedelta(days=2)
    seat.save()
    clock.clocks_update(match, moved_seat=0, now=seat.turn_started + dt.timedelta(hours=30))
    seat.refresh_from_db()
    assert seat.bank_seconds == DAY // 2 + DAY // 10 - 6 * 3600 + DAY // 10


def test_the_bank_never_passes_twice_the_move_time(alice, bob, make_match):
    match = make_match(alice, bob, options=EXAMPLE_DEAL)
    Seat.objects.filter(match=match, index=0).update(bank_seconds=2 * DAY)
    match.refresh_from_db()
    clock.clocks_update(match, moved_seat=0)
    assert _seat(match, 0).bank_seconds == 2 * DAY


def test_after_a_move_the_next_seat_clock_starts(alice, bob, make_match):
    match = make_match(alice, bob, options=EXAMPLE_DEAL)
    for _ in range(6):
        _play_legal(match)
        match.refresh_from_db()
        if match.is_finished:
            break
        for seat in match.seats.all():
            assert (seat.deadline is not None) == (seat.index in match.seats_to_act)


# --- timeouts --------------------------------------------------------------------------------


def test_the_sweeper_settles_a_match_whose_deadline_passed_with_nobody_online(
    alice, bob, make_match
):
    match = make_match(alice, bob, options=EXAMPLE_DEAL)
    late = _seat(match, 0).deadline + dt.timedelta(seconds=1)
    assert timeouts.sweep(now=late - dt.timedelta(seconds=2))["timeouts"] == 0
    done = timeouts.sweep(now=late)
    match.refresh_from_db()
    assert done["timeouts"] == 1
    assert match.status == Match.Status.FINISHED
    assert match.outcome["reason"] == "timeout" and match.outcome["winners"] == [1]
    assert _seat(match, 0).timed_out and _seat(match, 0).deadline is None
    assert timeouts.sweep(now=late)["timeouts"] == 0  # settled once


def test_the_management_command_settles_every_overdue_match(alice, bob, make_match, capsys):
    match = make_match(alice, bob, options=EXAMPLE_DEAL)
    Seat.objects.filter(match=match, index=0).update(
        deadline=timezone.now() - dt.timedelta(minutes=1)
    )
    call_command("settle_overdue")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert "1 turn(s) settled on time" in capsys.readouterr().out


def test_a_move_after_the_deadline_is_refused_and_the_match_settled(alice, bob, make_match):
    match = make_match(alice, bob, options=EXAMPLE_DEAL)
    Seat.objects.filter(match=match, index=0).update(
        deadline=timezone.now() - dt.timedelta(seconds=1)
    )
    with pytest.raises(TimeRanOut, match="time for this move ran out"):
        services.move_submit(match_id=match.pk, user=alice, ply=0, move={"type": "attack"})
    match.refresh_from_db()
    assert not Move.objects.filter(match=match).exists()
    assert match.status == Match.Status.FINISHED and match.outcome["reason"] == "timeout"


def test_in_shield_the_late_player_is_out_and_play_goes_on(make_user):
    ann, ben, cat = make_user("ann"), make_user("ben"), make_user("cat")
    match = services.match_create(
        creator=ann,
        game_slug="shield",
        others=[services.SeatSpec(kind="player", username=n) for n in ("ben", "cat")],
        time_control="1h",
    )
    services.match_join(match_id=match.pk, user=ben)
    services.match_join(match_id=match.pk, user=cat)
    match.refresh_from_db()
    # Setup is simultaneous: ann and ben set up, cat does not.
    for user, index in ((ann, 0), (ben, 1)):
        match.refresh_from_db()
        state = selectors.match_position(match=match).state
        move = registry.get("shield").legal_moves(state, index)[0]
        services.move_submit(match_id=match.pk, user=user, ply=match.ply, move=move)
    late = _seat(match, 2).deadline + dt.timedelta(seconds=1)
    timeouts.sweep(now=late)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    assert _seat(match, 2).timed_out
    forfeit = Move.objects.filter(match=match, seat=2).get()
    assert forfeit.payload == {"type": "forfeit", "reason": "timeout"}
    assert 2 not in match.seats_to_act and match.seats_to_act
    assert all(_seat(match, i).deadline for i in match.seats_to_act)


def test_a_banira_run_with_a_clock_simply_ends(alice):
    match = services.match_create(creator=alice, game_slug="banira", time_control="1h")
    timeouts.sweep(now=_seat(match, 0).deadline + dt.timedelta(seconds=1))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.outcome["reason"] == "timeout" and match.outcome["scores"] == [0]


def test_reading_an_overdue_match_settles_it(client, alice, bob, make_match):
    match = make_match(alice, bob, options=EXAMPLE_DEAL)
    Seat.objects.filter(match=match, index=1).update(bank_seconds=0)
    Seat.objects.filter(match=match, index=0).update(
        deadline=timezone.now() - dt.timedelta(seconds=5)
    )
    client.force_login(bob)
    page = client.get(match.get_absolute_url())
    assert page.status_code == 200
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert "their time ran out" in page.content.decode()


def test_my_matches_settles_my_overdue_matches(client, alice, bob, make_match):
    match = make_match(alice, bob, options=EXAMPLE_DEAL)
    Seat.objects.filter(match=match, index=0).update(
        deadline=timezone.now() - dt.timedelta(seconds=5)
    )
    client.force_login(alice)
    assert client.get("/matches/").status_code == 200
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED


# --- pause by agreement ------------------------------------------------------------------------


def test_both_players_agree_to_pause_and_every_clock_stops(alice, bob, make_match):
    match = make_match(alice, bob, options=EXAMPLE_DEAL)
    services.match_pause_request(match_id=match.pk, user=alice)
    match.refresh_from_db()
    assert not match.is_paused and match.pause_seats == (0,)
    services.match_pause_request(match_id=match.pk, user=bob)
    match.refresh_from_db()
    assert match.is_paused and _seat(match, 0).deadline is None
    left = _seat(match, 0).paused_seconds_left
    assert DAY + DAY // 2 - 60 < left <= DAY + DAY // 2
    with pytest.raises(MatchPaused):
        services.move_submit(match_id=match.pk, user=alice, ply=0, move={"type": "attack"})
    # Nothing times out while paused, however long.
    assert timeouts.sweep(now=timezone.now() + dt.timedelta(days=10))["timeouts"] == 0
    services.match_resume(match_id=match.pk, user=bob)
    seat = _seat(match, 0)
    assert seat.paused_seconds_left is None
    assert abs((seat.deadline - timezone.now()).total_seconds() - left) < 60


def test_pausing_a_match_i_am_not_in_is_refused(alice, bob, make_match, make_user):
    match = make_match(alice, bob, options=EXAMPLE_DEAL)
    with pytest.raises(NotSeated, match="Only the players"):
        services.match_pause_request(match_id=match.pk, user=make_user("mallory"))
    match.refresh_from_db()
    assert match.pause_votes == "" and not match.is_paused


def test_a_pause_nobody_ends_resumes_by_itself(alice, bob, make_match):
    match = make_match(alice, bob, options=EXAMPLE_DEAL)
    services.match_pause_request(match_id=match.pk, user=alice)
    services.match_pause_request(match_id=match.pk, user=bob)
    assert timeouts.sweep(now=timezone.now() + clock.MAX_PAUSE + dt.timedelta(1))["resumed"] == 1
    match.refresh_from_db()
    assert not match.is_paused and _seat(match, 0).deadline is not None


def test_a_match_against_the_ai_has_no_clock_to_pause(alice):
    with services.automation_paused():
        match = services.match_create(creator=alice, game_slug="dogblade", opponent="ai")
    with pytest.raises(CannotCreate, match="no clock"):
        services.match_pause_request(match_id=match.pk, user=alice)


def test_a_finished_match_cannot_be_paused(alice, bob, make_match):
    match = make_match(alice, bob, options=EXAMPLE_DEAL)
    services.match_resign(match_id=match.pk, user=bob)
    with pytest.raises((MatchFinished, NotSeated)):
        services.match_pause_request(match_id=match.pk, user=alice)


# --- deadlines moved for a player (what a vacation does: tests/accounts/test_vacation.py) ---


def test_deadlines_shift_moves_only_that_players_running_turns(alice, bob, make_match):
    match = make_match(alice, bob, options=EXAMPLE_DEAL)
    mover = match.seats_to_act[0]
    other = 1 - mover
    before = _seat(match, mover).deadline
    services.deadlines_shift(user=_user_of(match, mover), by=dt.timedelta(days=2))
    assert _seat(match, mover).deadline == before + dt.timedelta(days=2)
    assert _seat(match, other).deadline is None  # not their turn: no clock to move
    services.deadlines_shift(user=_user_of(match, other), by=dt.timedelta(days=2))
    assert _seat(match, mover).deadline == before + dt.timedelta(days=2)


def test_deadlines_shift_back_never_comes_closer_than_an_hour(alice, bob, make_match):
    match = make_match(alice, bob, options=EXAMPLE_DEAL)
    mover = match.seats_to_act[0]
    now = timezone.now()
    services.deadlines_shift(user=_user_of(match, mover), by=-dt.timedelta(days=30), now=now)
    assert _seat(match, mover).deadline == now + dt.timedelta(hours=1)


# --- open tables, the cap, rematch -------------------------------------------------------------


def test_a_table_nobody_joined_in_time_is_taken_down(alice, bob):
    match = services.match_create(creator=alice, game_slug="dogblade", opponent="open")
    assert [m.pk for m in selectors.open_matches(user=bob)] == [match.pk]
    Match.objects.filter(pk=match.pk).update(created=timezone.now() - dt.timedelta(hours=73))
    assert selectors.open_matches(user=bob) == []  # hidden at once, before any sweep
    assert timeouts.sweep()["expired"] == 1
    match.refresh_from_db()
    assert match.status == Match.Status.CANCELLED and match.outcome["reason"] == "expired"


def test_the_cap_on_timed_matches_rises_with_finished_ones(alice, make_user, settings):
    players = [make_user(f"p{i}") for i in range(12)]
    for player in players[: selectors.BASE_CAP]:
        services.match_create(
            creator=alice, game_slug="dogblade", opponent="player", invitee_username=player.username
        )
    with pytest.raises(LimitReached, match="timed matches already"):
        services.match_create(
            creator=alice, game_slug="dogblade", opponent="player", invitee_username="p11"
        )
    assert selectors.correspondence_load(user=alice).playing == selectors.BASE_CAP


def test_rematch_swaps_the_seats_and_takes_one_click_each(alice, bob, make_match):
    match = make_match(alice, bob, options=EXAMPLE_DEAL)
    services.match_resign(match_id=match.pk, user=bob)
    rematch = services.match_rematch(match_id=match.pk, user=bob)
    assert rematch.status == Match.Status.WAITING
    assert _user_of(rematch, 0) == bob and _user_of(rematch, 1) == alice  # turned by one
    assert rematch.move_seconds == match.move_seconds and rematch.options == match.options
    again = services.match_rematch(match_id=match.pk, user=alice)
    assert again.pk == rematch.pk
    rematch.refresh_from_db()
    assert rematch.status == Match.Status.ACTIVE
    assert Match.objects.filter(rematch_of=match).count() == 1
    assert services.match_rematch(match_id=match.pk, user=bob).pk == rematch.pk


def test_a_rematch_needs_a_finished_match_and_a_player(alice, bob, make_match, make_user):
    match = make_match(alice, bob, options=EXAMPLE_DEAL)
    with pytest.raises(SeatUnavailable, match="once the match is over"):
        services.match_rematch(match_id=match.pk, user=alice)
    services.match_resign(match_id=match.pk, user=bob)
    with pytest.raises(NotSeated):
        services.match_rematch(match_id=match.pk, user=make_user("mallory"))
    assert not Match.objects.filter(rematch_of=match).exists()


# --- reliability -------------------------------------------------------------------------------


def test_reliability_counts_timeouts_and_abandoned_matches(alice, bob, make_match):
    assert selectors.reliability(user=alice).percent is None  # too new to tell
    for _ in range(3):
        services.match_resign(match_id=make_match(alice, bob).pk, user=bob)  # bob abandons
    timed = make_match(alice, bob, options=EXAMPLE_DEAL)
    timeouts.sweep(now=_seat(timed, 0).deadline + dt.timedelta(seconds=1))  # alice times out
    assert selectors.reliability(user=bob).percent == 25  # 1 kept of 4
    assert selectors.reliability(user=alice).percent == 75  # 3 kept of 4
    assert selectors.reliability(user=alice).at_least(75)
    assert not selectors.reliability(user=alice).at_least(80)


@pytest.mark.parametrize("game", ["dogblade", "grimhand", "haymaker"])
def test_in_every_two_player_game_the_late_player_loses_on_time(alice, bob, game):
    match = services.match_create(
        creator=alice, game_slug=game, opponent="player", invitee_username="bob"
    )
    services.match_join(match_id=match.pk, user=bob)
    match.refresh_from_db()
    late_seat = match.seats_to_act[0]
    timeouts.sweep(now=_seat(match, late_seat).deadline + dt.timedelta(seconds=1))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.outcome["reason"] == "timeout"
    assert match.outcome["winners"] == [1 - late_seat]
