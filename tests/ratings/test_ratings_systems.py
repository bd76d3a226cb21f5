"""The rating maths through our wrappers of the libraries, on known examples."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from ratings import systems
from ratings.systems import Skill


def test_glickmans_example_through_our_wrapper():
    """Glickman's Glicko-2 paper: 1500/200/0.06 beats 1400/30, loses to 1550/100 and 1700/300
    in one rating period; the paper gets 1464.06 and 151.52 (rounding as it goes)."""
    player = Skill(1500, 200, 0.06)
    after = systems.glicko2_period(
        player, [(Skill(1400, 30), 1.0), (Skill(1550, 100), 0.0), (Skill(1700, 300), 0.0)]
    )
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def test_one_game_between_new_players_is_symmetric():
    new = systems.start_skill(systems.GLICKO2)
    winner, loser = systems.glicko2_match(new, new, first_score=1.0)
    assert winner.rating > 1500 > loser.rating
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)
    assert winner.deviation == pytest.approx(loser.deviation) and winner.deviation < 350
    drawn = systems.glicko2_match(new, new, first_score=0.5)
    assert drawn[0].rating == pytest.approx(1500) and drawn[1].rating == pytest.approx(1500)


def test_an_upset_moves_more_than_an_expected_win():
    strong, weak = Skill(1800, 60, 0.06), Skill(1400, 60, 0.06)
    expected, _ = systems.glicko2_match(strong, weak, first_score=1.0)
    _, upset = systems.glicko2_match(strong, weak, first_score=0.0)
    assert upset.rating - weak.rating > expected.rating - strong.rating > 0


def test_idle_days_grow_the_deviation_up_to_a_new_players():
    t0 = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
    settled = Skill(1620, 50, 0.06)
    assert systems.glicko2_idle(settled, since=None, now=t0) == settled
    assert systems.glicko2_idle(settled, since=t0, now=t0 + datetime.timedelta(hours=20)) == settled
    month = systems.glicko2_idle(settled, since=t0, now=t0 + datetime.timedelta(days=30))
    assert month.rating == settled.rating and 70 < month.deviation < 80
    years = systems.glicko2_idle(settled, since=t0, now=t0 + datetime.timedelta(days=5000))
    assert years.deviation == systems.GLICKO_RD


def test_openskill_orders_places_and_ties_are_equal():
    new = systems.start_skill(systems.OPENSKILL)
    assert (new.rating, round(new.deviation, 2)) == (1500, 500)
    first, second, also_second, last = systems.openskill_match([new] * 4, [1, 2, 2, 4])
    assert first.rating > second.rating > last.rating
    assert first.rating > 1500 > last.rating
    assert second.rating == pytest.approx(also_second.rating)
    assert all(after.deviation < new.deviation for after in (first, second, last))


def test_openskill_two_players_tied_stay_level():
    new = systems.start_skill(systems.OPENSKILL)
    one, two = systems.openskill_match([new, new], [1, 1])
    assert one.rating == pytest.approx(two.rating) == pytest.approx(1500)


def test_every_multi_seat_game_has_a_system_and_solo_games_none():
    from games.engine import registry

    for game in registry.all():
        if game.max_seats == 1:
            assert systems.system_for(game.slug) is None
        elif game.max_seats == 2:
            assert systems.system_for(game.slug) == systems.GLICKO2, game.slug
        else:
            assert systems.system_for(game.slug) == systems.OPENSKILL, game.slug


def test_the_repos_tests_package_wins_over_the_one_glicko2_ships():
    """The glicko2 wheel installs a top-level `tests` package; ours (tests/__init__.py) must
    be the one imported, or `from tests.conftest import ...` breaks everywhere."""
    import tests

    assert Path(tests.__file__).resolve().parent == Path(__file__).resolve().parent.parent
