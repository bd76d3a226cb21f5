"""Querysets compiled once per process (config/compiled.py): the move's lock and every
board fetch read the match and its seats through them. They must give exactly what the
ORM gives, related objects included, with no query more."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.db.transaction import TransactionManagementError

from accounts.services import profile_ensure
from config.compiled import CompiledQuery
from games import selectors, services
from games.models import Match, Seat
from tests.conftest import IS_POSTGRES

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(make_user):
    users = [make_user(), make_user()]
    for user in users:
        profile_ensure(user=user)
    created = services.match_create(
        creator=users[0],
        game_slug="dogblade",
        opponent="player",
        invitee_username=users[1].username,
    )
    services.match_join(match_id=created.pk, user=users[1])
    return created


def fields(obj) -> dict:
    return {field.attname: getattr(obj, field.attname) for field in obj._meta.concrete_fields}


def test_the_seats_with_their_players_are_what_the_orm_reads(match, django_assert_num_queries):
    expected = list(selectors.seats_with_players().filter(match_id=match.pk))
    with django_assert_num_queries(2):
        found = selectors.match_read(match_id=match.pk, with_players=True)
    assert fields(found) == fields(Match.objects.get(pk=match.pk))
    with django_assert_num_queries(0):  # seats, players, profiles, looks: all loaded
        seats = list(found.seats.all())
        assert [fields(seat) for seat in seats] == [fields(seat) for seat in expected]
        assert [fields(seat.user) for seat in seats] == [fields(seat.user) for seat in expected]
        assert [seat.user.profile.pk for seat in seats] == [s.user.profile.pk for s in expected]
        assert all(seat.match is found for seat in seats)
        assert selectors.seat_names(match=found)


def test_bare_seats_and_no_seats(match, django_assert_num_queries):
    with django_assert_num_queries(2):
        found = selectors.match_read(match_id=match.pk)
    with django_assert_num_queries(0):
        assert [seat.index for seat in found.seats.all()] == [0, 1]
    with django_assert_num_queries(1):  # the players come only when a board is drawn
        selectors.players_load(match=found)
    with transaction.atomic(), django_assert_num_queries(1):
        selectors.match_read(match_id=match.pk, lock=True, seats=False)


def test_another_match_and_no_match(match, make_user):
    other = services.match_create(creator=make_user(), game_slug="dogblade", opponent="ai")
    assert selectors.match_read(match_id=other.pk).pk == other.pk
    assert [seat.match_id for seat in selectors.match_read(match_id=other.pk).seats.all()] == [
        other.pk,
        other.pk,
    ]
    assert selectors.match_read(match_id=10**9) is None
    assert selectors.match_read(match_id="not a number") is None


@pytest.mark.django_db(transaction=True)  # outside the test's own transaction
def test_a_locking_read_needs_a_transaction(match):
    with transaction.atomic():
        assert selectors.match_read(match_id=match.pk, lock=True).pk == match.pk
    if not IS_POSTGRES:
        return  # SQLite has no row locks: Django lets it run anywhere
    with pytest.raises(TransactionManagementError):
        selectors.match_read(match_id=match.pk, lock=True)


def test_compiled_once_and_again_for_a_new_variant(match):
    built = []
    variant = ["a"]

    def build(match_id):
        built.append(match_id)
        return Seat.objects.filter(match_id=match_id).order_by("index")

    query = CompiledQuery(build, variant=lambda: variant[0])
    assert [seat.index for seat in query(match.pk)] == [0, 1]
    assert query(10**9) == []
    assert len(built) == 1  # built with a stand-in once, never with the values
    variant[0] = "b"
    query(match.pk)
    assert len(built) == 2


def test_a_value_that_is_not_one_parameter_is_refused():
    query = CompiledQuery(lambda match_id: Seat.objects.filter(index=0))
    with pytest.raises(ValueError, match="one parameter"):
        query(1)


# --- save_fields: the move's UPDATEs, written once ----------------------------------------


def test_save_fields_writes_what_save_with_update_fields_writes(match, django_assert_num_queries):
    import datetime as dt

    from django.utils import timezone

    from config.compiled import save_fields

    ours = Match.objects.get(pk=match.pk)
    theirs = Match.objects.get(pk=match.pk)
    before = ours.updated
    ours.ply = theirs.ply = 7
    ours.to_act = theirs.to_act = "1"
    ours.options = {"not": "written"}  # a field not named is left as it is in the row
    with django_assert_num_queries(1):
        save_fields(ours, ("ply", "to_act", "updated"))
    assert ours.updated > before  # auto_now stamps, as save() does
    row = Match.objects.get(pk=match.pk)
    assert (row.ply, row.to_act, row.updated) == (7, "1", ours.updated)
    assert row.options == theirs.options

    seat = Seat.objects.get(match=match, index=0)
    seat.turn_started = timezone.now()
    seat.deadline = seat.turn_started + dt.timedelta(hours=1)
    seat.bank_seconds = 123
    seat.paused_seconds_left = None
    save_fields(seat, ("turn_started", "deadline", "bank_seconds", "paused_seconds_left"))
    again = Seat.objects.get(pk=seat.pk)
    assert fields(again) == fields(seat)


def test_save_fields_refuses_a_missing_row_and_what_is_not_a_plain_column(match):
    from django.db import DatabaseError

    from config.compiled import save_fields

    gone = Match.objects.get(pk=match.pk)
    gone.pk = 10**9
    with pytest.raises(DatabaseError, match="did not affect any rows"):
        save_fields(gone, ("ply",))
    seat = Seat.objects.get(match=match, index=0)
    for name in ("id", "no_such_field"):
        with pytest.raises(Exception, match=name):
            save_fields(seat, (name,))


def test_save_fields_sends_the_signals_through_save_while_someone_listens(match):
    from django.db.models import signals

    from config.compiled import save_fields

    heard = []

    def listener(sender, instance, update_fields, **kwargs):
        heard.append((sender, instance.pk, tuple(sorted(update_fields))))

    signals.post_save.connect(listener, sender=Match)
    try:
        row = Match.objects.get(pk=match.pk)
        row.ply = 3
        save_fields(row, ("ply",))
    finally:
        signals.post_save.disconnect(listener, sender=Match)
    assert heard == [(Match, match.pk, ("ply",))]
    assert Match.objects.get(pk=match.pk).ply == 3


# --- CompiledUpdate: an UPDATE ... WHERE run often, compiled once ---------------------------


def _seat_update():
    from config.compiled import CompiledUpdate

    return CompiledUpdate(
        lambda match_id, index, before, bank, started: (
            Seat.objects.filter(match_id=match_id, index=index, joined__lte=before),
            {"bank_seconds": bank, "turn_started": started},
        )
    )


def test_a_compiled_update_writes_what_the_orm_writes_and_counts_the_rows(
    match, make_user, django_assert_num_queries
):
    import datetime as dt

    from django.utils import timezone

    other = services.match_create(creator=make_user(), game_slug="dogblade", opponent="open")
    update = _seat_update()
    now = timezone.now().replace(microsecond=123456)
    later = now + dt.timedelta(hours=1)
    with django_assert_num_queries(1):
        assert update(match.pk, 1, later, 42, now) == 1
    with django_assert_num_queries(1):  # compiled once: the same SQL, other values
        assert update(match.pk, 0, later, 43, later) == 1
    assert update(match.pk, 0, now - dt.timedelta(days=1), 44, now) == 0  # joined since
    assert update(10**9, 0, later, 45, now) == 0  # no such match
    seats = {seat.index: seat for seat in Seat.objects.filter(match=match)}
    assert (seats[1].bank_seconds, seats[1].turn_started) == (42, now)
    assert (seats[0].bank_seconds, seats[0].turn_started) == (43, later)
    untouched = Seat.objects.get(match=other, index=0)
    assert untouched.bank_seconds not in (42, 43, 44, 45)


def test_a_compiled_update_refuses_what_it_cannot_put_in_its_place(match):
    from django.utils import timezone

    from config.compiled import CompiledUpdate

    update = _seat_update()
    now = timezone.now()
    with pytest.raises(TypeError, match="aware"):
        update(match.pk, 0, now.replace(tzinfo=None), 1, now)
    with pytest.raises(TypeError, match="numbers, strings and datetimes"):
        update(match.pk, 0, now, None, now)
    update(match.pk, 0, now, 1, now)
    with pytest.raises(TypeError, match="compiled for another"):
        update(match.pk, 0, 7, 1, now)  # a number where a datetime was compiled
    twice = CompiledUpdate(
        lambda ply: (Match.objects.filter(ply=ply), {"ply": ply})  # one value, two places
    )
    with pytest.raises(ValueError, match="one parameter"):
        twice(3)


# --- insert_row: the move's INSERT, written once ----------------------------------------------


def test_insert_row_writes_what_save_writes_and_reads_the_key_back(
    match, django_assert_num_queries
):
    from django.db import IntegrityError

    from config.compiled import insert_row
    from games.models import Move

    seat = Seat.objects.get(match=match, index=0)
    ours = Move(match=match, ply=50, seat=0, payload={"type": "attack"}, move_id="m50")
    ours.user_id = seat.user_id
    with django_assert_num_queries(1):
        insert_row(ours)
    theirs = Move.objects.create(match=match, ply=51, seat=1, payload={"n": [1, "two"]})
    assert ours.pk is not None and ours.pk != theirs.pk
    assert ours.created is not None  # auto_now_add stamps, as save() does
    row = Move.objects.get(pk=ours.pk)
    assert fields(row) == fields(ours)
    assert not ours._state.adding
    with pytest.raises(IntegrityError), transaction.atomic():
        insert_row(Move(match=match, ply=50, seat=1, payload={}))  # (match, ply) is unique
    assert Move.objects.filter(match=match, ply=50).count() == 1


def test_insert_row_sends_the_signals_through_save_while_someone_listens(match):
    from django.db.models import signals

    from config.compiled import insert_row
    from games.models import Move

    heard = []

    def listener(sender, instance, created, **kwargs):
        heard.append((sender, instance.ply, created))

    signals.post_save.connect(listener, sender=Move)
    try:
        insert_row(Move(match=match, ply=60, seat=0, payload={}))
    finally:
        signals.post_save.disconnect(listener, sender=Move)
    assert heard == [(Move, 60, True)]
