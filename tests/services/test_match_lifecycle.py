"""match_create, match_join, match_cancel, match_resign, the seed commitment."""

import hashlib

import pytest

from games import services
from games.errors import CannotCreate, MatchFinished, NotSeated, SeatUnavailable
from games.models import Match, Move, Seat
from tests.conftest import EXAMPLE_DEAL


def test_create_against_a_named_player_waits_for_the_invitation(alice, bob):
    match = services.match_create(
        creator=alice, game_slug="dogblade", opponent="player", invitee_username="BOB"
    )
    assert match.status == Match.Status.WAITING
    seats = list(match.seats.all())
    assert [(s.index, s.user, s.joined is not None) for s in seats] == [
        (0, alice, True),
        (1, bob, False),
    ]
    assert match.seed_commitment == hashlib.sha256(bytes(match.seed)).hexdigest()
    assert len(bytes(match.seed)) == 32


def test_accepting_the_invitation_starts_the_match(alice, bob):
    match = services.match_create(
        creator=alice, game_slug="dogblade", opponent="player", invitee_username="bob"
    )
    services.match_join(match_id=match.pk, user=bob)
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    assert match.started is not None
    assert match.to_act in ("0", "1")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"game_slug": "chess", "opponent": "ai"}, "no game called"),
        ({"game_slug": "dogblade", "opponent": "robot"}, "Choose an opponent"),
        (
            {"game_slug": "dogblade", "opponent": "player", "invitee_username": ""},
            "Type the username",
        ),
        (
            {"game_slug": "dogblade", "opponent": "player", "invitee_username": "nobody"},
            "no player called",
        ),
        (
            {"game_slug": "dogblade", "opponent": "player", "invitee_username": "alice"},
            "cannot invite yourself",
        ),
        ({"game_slug": "dogblade", "opponent": "ai", "ai_level": "godlike"}, "AI levels"),
        (
            {"game_slug": "dogblade", "opponent": "ai", "options": {"deal": {"decks": []}}},
            "two decks",
        ),
    ],
)
def test_bad_creations_explain_and_write_nothing(alice, kwargs, message):
    with pytest.raises(CannotCreate, match=message):
        services.match_create(creator=alice, **kwargs)
    assert Match.objects.count() == 0
    assert Seat.objects.count() == 0


def test_an_open_seat_is_taken_by_the_first_comer(alice, bob, make_user):
    match = services.match_create(creator=alice, game_slug="dogblade", opponent="open")
    services.match_join(match_id=match.pk, user=bob)
    carol = make_user("carol")
    with pytest.raises(SeatUnavailable, match="already started"):
        services.match_join(match_id=match.pk, user=carol)
    assert match.seats.get(index=1).user == bob


def test_joining_twice_or_a_full_table_is_refused(alice, bob, make_user):
    match = services.match_create(
        creator=alice, game_slug="dogblade", opponent="player", invitee_username="bob"
    )
    with pytest.raises(SeatUnavailable, match="already have a seat"):
        services.match_join(match_id=match.pk, user=alice)
    carol = make_user("carol")
    with pytest.raises(SeatUnavailable, match="full"):
        services.match_join(match_id=match.pk, user=carol)
    assert match.seats.filter(user=carol).count() == 0


def test_an_invitee_can_decline(alice, bob):
    match = services.match_create(
        creator=alice, game_slug="dogblade", opponent="player", invitee_username="bob"
    )
    services.match_cancel(match_id=match.pk, user=bob)
    match.refresh_from_db()
    assert match.status == Match.Status.CANCELLED
    with pytest.raises(MatchFinished):
        services.match_join(match_id=match.pk, user=bob)


def test_resigning_gives_the_other_seat_the_win(alice, bob, make_match):
    match = make_match(alice, bob)
    services.match_resign(match_id=match.pk, user=bob)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.outcome["winners"] == [0]
    assert match.outcome["reason"] == "resign"
    assert match.seats.get(index=1).resigned
    with pytest.raises(MatchFinished):
        services.match_resign(match_id=match.pk, user=alice)


def test_only_a_seated_player_may_resign(alice, bob, make_user, make_match):
    match = make_match(alice, bob)
    with pytest.raises(NotSeated):
        services.match_resign(match_id=match.pk, user=make_user())
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE


def test_the_example_battle_through_the_services(alice, bob, make_match):
    match = make_match(alice, bob, options=EXAMPLE_DEAL)
    for ply, user in enumerate([alice, bob, alice, bob]):
        services.move_submit(match_id=match.pk, user=user, ply=ply, move={"type": "attack"})
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.outcome == {
        "winners": [1],
        "ranking": [[1], [0]],
        "reason": "out_of_cards",
        "scores": None,
    }
    assert list(Move.objects.filter(match=match).values_list("ply", "seat")) == [
        (0, 0),
        (1, 1),
        (2, 0),
        (3, 1),
    ]


def test_a_table_described_seat_by_seat(alice, bob):
    match = services.match_create(
        creator=alice,
        game_slug="dogblade",
        others=[services.SeatSpec(kind="player", username="bob")],
    )
    assert [(s.index, s.user) for s in match.seats.all()] == [(0, alice), (1, bob)]


@pytest.mark.parametrize(
    ("others", "message"),
    [
        ([], "exactly 2 players"),
        ([services.SeatSpec(kind="open"), services.SeatSpec(kind="open")], "exactly 2 players"),
        ([services.SeatSpec(kind="robot")], "Each seat is"),
        ([services.SeatSpec(kind="ai", ai_level="godlike")], "AI levels"),
    ],
)
def test_bad_tables_write_nothing(alice, others, message):
    with pytest.raises(CannotCreate, match=message):
        services.match_create(creator=alice, game_slug="dogblade", others=others)
    assert not Match.objects.exists()


def test_the_host_fills_the_empty_seats_with_ai(alice, bob):
    match = services.match_create(creator=alice, game_slug="dogblade", opponent="open")
    with pytest.raises(NotSeated, match="Only the host"):
        services.match_fill_with_ai(match_id=match.pk, user=bob)
    services.match_fill_with_ai(match_id=match.pk, user=alice, ai_level="normal")
    match.refresh_from_db()
    assert match.status == Match.Status.ACTIVE
    seat = match.seats.get(index=1)
    assert seat.is_ai and seat.ai_level == "normal" and seat.joined is not None
    with pytest.raises(SeatUnavailable):
        services.match_fill_with_ai(match_id=match.pk, user=alice)


def test_filling_withdraws_an_unanswered_invitation(alice, bob):
    match = services.match_create(
        creator=alice, game_slug="dogblade", opponent="player", invitee_username="bob"
    )
    services.match_fill_with_ai(match_id=match.pk, user=alice)
    assert match.seats.get(index=1).user is None
    assert Match.objects.get(pk=match.pk).status == Match.Status.ACTIVE
