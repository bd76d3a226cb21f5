"""Rating finished matches: once per match, only rated matches, every seat of a table."""

from __future__ import annotations

import datetime
import io

import pytest

from games import services
from games.models import Match
from ratings import services as rating_services
from ratings import systems
from ratings.models import RatedMatch, Rating, RatingChange

pytestmark = pytest.mark.django_db


def _rating(user, game="dogblade"):
    return Rating.objects.get(user=user, game=game)


def test_a_finished_match_rates_both_players_once(alice, bob, finish_duel):
    match = finish_duel(bob, alice)  # alice resigns: bob wins
    assert match.status == Match.Status.FINISHED
    assert RatedMatch.objects.filter(match=match).count() == 1
    winner, loser = _rating(bob), _rating(alice)
    assert winner.rating > 1500 > loser.rating
    assert (winner.games, winner.wins, loser.games, loser.wins) == (1, 1, 1, 0)
    assert winner.system == systems.GLICKO2 and winner.last_played == match.finished
    changes = {c.user_id: c for c in RatingChange.objects.filter(match=match)}
    assert set(changes) == {alice.pk, bob.pk}
    assert changes[bob.pk].place == 1 and changes[alice.pk].place == 2
    assert changes[bob.pk].opponent_ids == [alice.pk]
    assert changes[bob.pk].rating_before == 1500 and changes[bob.pk].rating_after == winner.rating


def test_rating_the_same_match_again_changes_nothing(alice, bob, finish_duel):
    match = finish_duel(bob, alice)
    before = list(Rating.objects.order_by("pk").values())
    assert rating_services.match_rate(match_id=match.pk) is None
    assert rating_services.match_rate(match_id=match.pk) is None
    assert list(Rating.objects.order_by("pk").values()) == before
    assert RatingChange.objects.count() == 2 and RatedMatch.objects.count() == 1


def test_consecutive_matches_chain_and_count(alice, bob, finish_duel):
    first = finish_duel(bob, alice)
    second = finish_duel(bob, alice)
    bobs = list(RatingChange.objects.filter(user=bob).order_by("played", "pk"))
    assert [c.match_id for c in bobs] == [first.pk, second.pk]
    assert bobs[1].rating_before == bobs[0].rating_after
    assert _rating(bob).games == 2 and _rating(bob).rating == bobs[1].rating_after


def test_ai_matches_are_not_rated(alice):
    match = services.match_create(creator=alice, game_slug="dogblade", opponent="ai")
    services.match_resign(match_id=match.pk, user=alice)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert not Rating.objects.exists() and not RatedMatch.objects.exists()


def test_tutorials_are_not_rated(alice, bob, finish_duel):
    match = services.tutorial_start(user=alice, game_slug="grimhand")
    services.match_resign(match_id=match.pk, user=alice)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert not Rating.objects.exists() and not RatedMatch.objects.exists()
    # even with two humans seated, a match marked as a tutorial is not rated
    duel = finish_duel(bob, alice)
    Match.objects.filter(pk=duel.pk).update(tutorial="dogblade")
    duel.refresh_from_db()
    assert not rating_services.match_is_rated(match=duel)


def test_private_runs_and_unrated_games_are_not_rated(alice, bob, finish_duel):
    match = finish_duel(bob, alice)
    RatedMatch.objects.all().delete()  # pretend it was never rated, then make it private
    Match.objects.filter(pk=match.pk).update(private_until=match.finished)
    assert rating_services.match_rate(match_id=match.pk) is None
    Match.objects.filter(pk=match.pk).update(private_until=None, game="banira")
    assert rating_services.match_rate(match_id=match.pk) is None
    assert rating_services.match_rate(match_id=0) is None
    assert not RatedMatch.objects.exists()


def test_a_four_player_shield_table_rates_all_four(alice, bob, make_user, finish_shield):
    carol, dave = make_user("carol"), make_user("dave")
    # dave resigns first (4th), then bob (3rd), then alice (2nd): carol wins
    match = finish_shield([alice, bob, carol, dave], [dave, bob, alice])
    assert match.status == Match.Status.FINISHED
    places = dict(RatingChange.objects.filter(match=match).values_list("user__username", "place"))
    assert places == {"carol": 1, "alice": 2, "bob": 3, "dave": 4}
    ratings = {r.user.username: r for r in Rating.objects.filter(game="shield")}
    assert set(ratings) == {"alice", "bob", "carol", "dave"}
    assert all(r.system == systems.OPENSKILL and r.games == 1 for r in ratings.values())
    order = sorted(ratings, key=lambda name: -ratings[name].rating)
    assert order == ["carol", "alice", "bob", "dave"]
    assert ratings["carol"].wins == 1 and ratings["dave"].wins == 0
    assert rating_services.match_rate(match_id=match.pk) is None  # once only


def test_idle_days_widen_the_deviation_before_the_next_match(alice, bob, finish_duel):
    finish_duel(bob, alice)
    settled = _rating(bob)
    a_month_ago = settled.last_played - datetime.timedelta(days=30)
    Rating.objects.filter(pk=settled.pk).update(last_played=a_month_ago)
    Rating.objects.filter(user=alice).update(last_played=a_month_ago)
    finish_duel(bob, alice)
    grown = systems.glicko2_idle(
        systems.Skill(settled.rating, settled.deviation, settled.volatility),
        since=a_month_ago,
        now=_rating(bob).last_played,
    )
    assert grown.deviation > settled.deviation
    # the stored "before" is the rating as it stood; the update used the grown deviation
    assert RatingChange.objects.filter(user=bob).last().deviation_before == settled.deviation


def test_a_failure_in_ratings_never_undoes_the_result(alice, bob, make_match, monkeypatch):
    def broken(**kwargs):
        raise RuntimeError("a bug in ratings")

    monkeypatch.setattr(rating_services, "_record", broken)
    match = make_match(bob, alice)
    services.match_resign(match_id=match.pk, user=alice)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert not RatedMatch.objects.exists() and not Rating.objects.exists()


def test_the_demo_plays_rated_matches_once(monkeypatch):
    from ratings import demo

    monkeypatch.setattr(demo, "DUELS_PER_GAME", {"dogblade": 3, "grimhand": 2, "haymaker": 2})
    monkeypatch.setattr(demo, "SHIELD_TABLES", 2)
    rated = demo.populate()
    assert rated == sum(demo.DUELS_PER_GAME.values()) + demo.SHIELD_TABLES
    assert {r.game for r in Rating.objects.all()} == {"dogblade", "grimhand", "haymaker", "shield"}
    assert demo.populate() == 0
    assert RatedMatch.objects.count() == rated


def test_the_backfill_rates_what_was_missed_once(alice, bob, make_match, monkeypatch):
    from django.core.management import call_command

    from ratings import services as rating_services

    def broken(*, match_id):
        raise RuntimeError("rating failed")

    monkeypatch.setattr(rating_services, "match_rate", broken)  # logged, never raised
    match = make_match(bob, alice)
    services.match_resign(match_id=match.pk, user=alice)
    monkeypatch.undo()
    assert not RatedMatch.objects.exists()
    call_command("ratings_backfill", stdout=io.StringIO())
    call_command("ratings_backfill", stdout=io.StringIO())
    assert RatedMatch.objects.filter(match=match).count() == 1
    assert _rating(bob).games == 1
