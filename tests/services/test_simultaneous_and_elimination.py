"""The platform side of Shield: a secret setup that every seat plays at once, and a
resignation that puts one seat out while the others play on."""

import pytest

from games import selectors, services
from games.errors import BadMove, MatchError, StaleMove
from games.models import Match, Move
from tests.concurrency import race
from tests.conftest import requires_postgres


@pytest.fixture(autouse=True)
def _shield_is_open(monkeypatch):
    monkeypatch.setattr(services.tables, "has_board", lambda slug: True)


@pytest.fixture
def table(alice, bob, make_user):
    carol = make_user("carol")
    match = services.match_create(
        creator=alice,
        game_slug="shield",
        others=[services.SeatSpec(kind="player", username=name) for name in ("bob", "carol")],
    )
    for user in (bob, carol):
        services.match_join(match_id=match.pk, user=user)
    match.refresh_from_db()
    return match, (alice, bob, carol)


def _pick(match, seat):
    state = selectors.match_position(match=match).state
    return {
        "type": "choose_shield",
        "card": selectors.match_game(match=match).view(state, seat)["hand"][0],
    }


def test_every_seat_acts_during_the_secret_setup(table):
    match, (alice, bob, carol) = table
    assert match.seats_to_act == (0, 1, 2)
    first_pick = _pick(match, 0)
    services.move_submit(match_id=match.pk, user=bob, ply=0, move=_pick(match, 1))
    # alice loaded the board at ply 0: bob's move since then does not make hers stale
    result = services.move_submit(match_id=match.pk, user=alice, ply=0, move=first_pick)
    assert result.ply == 1
    # but her own move since then does
    with pytest.raises(StaleMove):
        services.move_submit(match_id=match.pk, user=alice, ply=0, move={"type": "confirm"})
    assert Move.objects.filter(match=match).count() == 2


def test_a_player_cannot_forfeit_through_the_move_form(table):
    match, (alice, _, _) = table
    with pytest.raises(BadMove, match="resign"):
        services.move_submit(
            match_id=match.pk, user=alice, ply=0, move={"type": "forfeit", "reason": "resign"}
        )
    assert not Move.objects.exists()


def test_resigning_puts_one_seat_out_and_the_others_play_on(table):
    match, (alice, bob, carol) = table
    services.match_resign(match_id=match.pk, user=bob)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    assert match.seats.get(index=1).resigned
    logged = Move.objects.get(match=match)
    assert (logged.seat, logged.payload) == (1, {"type": "forfeit", "reason": "resign"})
    assert 1 not in match.seats_to_act
    services.match_resign(match_id=match.pk, user=alice)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.outcome["winners"] == [2]
    assert match.outcome["ranking"][0] == [2]
    said = {
        seat.index: selectors.match_board(match=match, seat=seat)["outcome_text"]
        for seat in match.seats.all()
    }
    assert said[2] == "You won: they resigned!"
    assert said[0] == "You finished 2nd of 3: you resigned."
    assert said[1] == "You finished 3rd of 3: you resigned."


@requires_postgres
@pytest.mark.django_db(transaction=True)
def test_two_seats_confirming_at_the_same_moment_both_count(table):
    match, (alice, bob, carol) = table
    for user, seat in [(alice, 0), (bob, 1)]:
        match.refresh_from_db()
        services.move_submit(match_id=match.pk, user=user, ply=match.ply, move=_pick(match, seat))
    users = (alice, bob)
    results = race(
        2,
        lambda i: services.move_submit(
            match_id=match.pk, user=users[i], ply=2, move={"type": "confirm"}
        ),
    )
    assert [r for r in results if isinstance(r, MatchError)] == []
    assert all(isinstance(r, services.MoveResult) for r in results)
    assert sorted(Move.objects.filter(match=match, ply__gte=2).values_list("seat", flat=True)) == [
        0,
        1,
    ]
    match.refresh_from_db()
    assert match.ply == 4 and match.seats_to_act == (2,)
