"""Quick pairing: seeks matched by rating, at once, once (docs/lobby.md)."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from games.errors import CannotCreate, NotSeated, SeatUnavailable
from games.models import Match, Seek
from games.services import pairing
from ratings.models import Rating
from tests.concurrency import race
from tests.conftest import requires_postgres


def _rate(user, game, value):
    Rating.objects.create(
        user=user, game=game, system="glicko2", rating=value, deviation=60, volatility=0.06
    )


@pytest.mark.django_db
def test_two_compatible_seeks_become_one_match_at_once(alice, bob):
    first = pairing.seek_create(user=alice, game_slug="dogblade", time_control="1d")
    assert first.status == "open" and first.match is None
    second = pairing.seek_create(user=bob, game_slug="dogblade", time_control="1d")
    assert second.status == "paired"
    match = second.match
    first.refresh_from_db()
    assert first.match == match and first.status == "paired"
    assert match.status == "active" and not match.is_casual
    assert [seat.user for seat in match.seats.all()] == [alice, bob]  # who waited: seat 0
    assert match.move_seconds == 24 * 3600


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("bob_game", "bob_clock", "bob_rated"),
    [("haymaker", "1d", True), ("dogblade", "3d", True), ("dogblade", "1d", False)],
)
def test_seeks_pair_only_within_game_clock_and_kind(alice, bob, bob_game, bob_clock, bob_rated):
    pairing.seek_create(user=alice, game_slug="dogblade", time_control="1d")
    seek = pairing.seek_create(
        user=bob, game_slug=bob_game, time_control=bob_clock, is_rated=bob_rated
    )
    assert seek.status == "open"
    assert not Match.objects.exists()


@pytest.mark.django_db
def test_a_casual_pairing_makes_a_casual_match(alice, bob):
    pairing.seek_create(user=alice, game_slug="dogblade", time_control="1d", is_rated=False)
    seek = pairing.seek_create(user=bob, game_slug="dogblade", time_control="1d", is_rated=False)
    assert seek.match.is_casual


@pytest.mark.django_db
def test_ratings_far_apart_wait_until_the_window_widens(alice, bob, make_user):
    _rate(alice, "dogblade", 1500)
    _rate(bob, "dogblade", 1900)
    carol = make_user("carol")
    _rate(carol, "dogblade", 1950)
    first = pairing.seek_create(user=alice, game_slug="dogblade", time_control="1d")
    far = pairing.seek_create(user=bob, game_slug="dogblade", time_control="1d")
    assert far.status == "open"  # 400 apart, windows of 200
    # carol is closest to bob: they pair, alice keeps waiting
    near = pairing.seek_create(user=carol, game_slug="dogblade", time_control="1d")
    assert near.status == "paired" and {s.user for s in near.match.seats.all()} == {bob, carol}
    first.refresh_from_db()
    assert first.status == "open"
    # a newcomer 400 away pairs once alice has waited two minutes (200 + 2 x 100)
    dave = make_user("dave")
    _rate(dave, "dogblade", 1900)
    Seek.objects.filter(pk=first.pk).update(created=timezone.now() - dt.timedelta(minutes=2))
    late = pairing.seek_create(user=dave, game_slug="dogblade", time_control="1d")
    assert late.status == "paired" and {s.user for s in late.match.seats.all()} == {alice, dave}


@pytest.mark.django_db
def test_a_seek_expires(alice, bob):
    old = pairing.seek_create(user=alice, game_slug="dogblade", time_control="1d")
    Seek.objects.filter(pk=old.pk).update(expires=timezone.now() - dt.timedelta(seconds=1))
    assert pairing.seek_create(user=bob, game_slug="dogblade", time_control="1d").status == "open"
    assert pairing.seek_refresh(user=alice, seek_id=old.pk).status == "open"
    assert not Match.objects.exists()


@pytest.mark.django_db
def test_one_search_at_a_time_and_cancel(alice):
    first = pairing.seek_create(user=alice, game_slug="dogblade", time_control="1d")
    second = pairing.seek_create(user=alice, game_slug="haymaker", time_control="3d")
    first.refresh_from_db()
    assert first.status == "cancelled" and second.status == "open"
    assert pairing.seek_cancel(user=alice, seek_id=second.pk).status == "cancelled"


@pytest.mark.django_db
def test_bad_seeks_are_refused_and_write_nothing(alice, bob):
    for game, clock in (("banira", "1d"), ("chess", "1d"), ("dogblade", "none"), ("dogblade", "")):
        with pytest.raises(CannotCreate):
            pairing.seek_create(user=alice, game_slug=game, time_control=clock)
    seek = pairing.seek_create(user=alice, game_slug="dogblade", time_control="1d")
    with pytest.raises(NotSeated):
        pairing.seek_cancel(user=bob, seek_id=seek.pk)
    with pytest.raises(CannotCreate):
        pairing.seek_accept(user=alice, seek_id=seek.pk)
    with pytest.raises(SeatUnavailable):
        pairing.seek_accept(user=bob, seek_id=seek.pk + 1000)
    assert Seek.objects.count() == 1 and not Match.objects.exists()


@pytest.mark.django_db
def test_accepting_a_listed_seek(alice, bob):
    _rate(alice, "dogblade", 2400)
    seek = pairing.seek_create(user=alice, game_slug="dogblade", time_control="1d")
    match = pairing.seek_accept(user=bob, seek_id=seek.pk)
    assert match.status == "active"
    with pytest.raises(SeatUnavailable):
        pairing.seek_accept(user=bob, seek_id=seek.pk)


@pytest.mark.django_db
def test_the_pages(client, alice, bob):
    client.force_login(alice)
    page = client.get(reverse("games:quick_pair")).content.decode()
    assert 'data-testid="seek-empty"' in page and "play the AI while you wait" in page
    response = client.post(
        reverse("games:quick_pair"), {"game": "dogblade", "time_control": "1d", "rated": "rated"}
    )
    seek = Seek.objects.get(user=alice)
    assert response["Location"] == reverse("games:seek", args=[seek.pk])
    waiting = client.get(response["Location"]).content.decode()
    assert "Nobody else is looking for Dog Blade" in waiting
    assert "Play the AI while you wait" in waiting
    bad = client.post(reverse("games:quick_pair"), {"game": "dogblade", "time_control": "zzz"})
    assert bad.status_code == 400
    client.force_login(bob)
    listed = client.get(reverse("games:quick_pair")).content.decode()
    assert "alice" in listed
    response = client.post(
        reverse("games:quick_pair"), {"game": "dogblade", "time_control": "1d", "rated": "rated"}
    )
    match = Match.objects.get()
    assert response["Location"] == match.get_absolute_url()
    client.force_login(alice)
    poll = client.post(reverse("games:seek_poll", args=[seek.pk]), HTTP_HX_REQUEST="true")
    assert poll["HX-Redirect"] == match.get_absolute_url()
    assert client.get(reverse("games:seek", args=[seek.pk]))["Location"] == match.get_absolute_url()
    assert client.get(reverse("games:seek", args=[seek.pk + 99])).status_code == 404


@requires_postgres
@pytest.mark.django_db(transaction=True)
def test_two_players_clicking_at_once_make_exactly_one_match(make_user):
    for round_ in range(3):
        players = [make_user(f"racer{round_}a"), make_user(f"racer{round_}b")]
        results = race(
            2,
            lambda i, players=players: pairing.seek_create(
                user=players[i], game_slug="dogblade", time_control="1d"
            ),
        )
        assert all(isinstance(result, Seek) for result in results), results
        made = Match.objects.filter(seats__user=players[0]).distinct()
        assert made.count() == 1
        statuses = sorted(Seek.objects.filter(user__in=players).values_list("status", flat=True))
        assert statuses == ["paired", "paired"]


@requires_postgres
@pytest.mark.django_db(transaction=True)
def test_many_seekers_at_once_pair_off_without_loss(make_user):
    players = [make_user(f"crowd{i}") for i in range(6)]
    race(6, lambda i: pairing.seek_create(user=players[i], game_slug="haymaker", time_control="1d"))
    assert Match.objects.count() == 3
    seated = sorted(
        user for match in Match.objects.all() for user in match.seats.values_list("user", flat=True)
    )
    assert seated == sorted(player.pk for player in players)
    assert not Seek.objects.filter(status="open").exists()
