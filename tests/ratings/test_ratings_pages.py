"""The leaderboard pages and the player page's ratings: they render, mark me, and answer bad
input with a page, never a 500."""

from __future__ import annotations

import pytest
from django.urls import reverse
from pytest_django.asserts import assertContains, assertNotContains

from ratings import selectors, systems
from ratings.models import Rating

pytestmark = pytest.mark.django_db


def _rated(user, game="dogblade", *, rating=1500.0, deviation=80.0, games=10, wins=5):
    return Rating.objects.create(
        user=user,
        game=game,
        system=systems.system_for(game),
        rating=rating,
        deviation=deviation,
        volatility=0.06,
        games=games,
        wins=wins,
    )


def test_the_index_has_a_tab_per_game_and_links_the_banira_board(client, alice):
    _rated(alice, rating=1712)
    response = client.get(reverse("ratings:index"))
    assertContains(response, "Leaderboards")
    for slug in ("dogblade", "grimhand", "haymaker", "shield"):
        assertContains(response, reverse("ratings:board", args=[slug]))
    assertContains(response, reverse("banira:leaderboard"))
    assertContains(response, "1712")
    assertContains(response, reverse("player", args=["alice"]))


def test_a_board_ranks_established_players_and_hides_provisional_ones(
    client, alice, bob, make_user
):
    carol = make_user("carol")
    _rated(alice, rating=1600)
    _rated(bob, rating=1700)
    _rated(carol, rating=1900, games=2)  # provisional: too few games
    url = reverse("ratings:board", args=["dogblade"])
    response = client.get(url)
    rows = response.context["board"].rows
    assert [(row.rank, row.user.username) for row in rows] == [(1, "bob"), (2, "alice")]
    assertContains(response, "1700")
    assertContains(response, "± 80")
    assertNotContains(response, 'data-testid="row-carol"')
    shown = client.get(url, {"provisional": "1"})
    assert [row.user.username for row in shown.context["board"].rows] == ["carol", "bob", "alice"]
    assertContains(shown, "provisional")


def test_a_high_deviation_is_provisional_in_glicko_but_not_in_openskill(alice, bob):
    _rated(alice, "dogblade", deviation=150)
    _rated(bob, "shield", deviation=400)
    assert (
        selectors.leaderboard_page(game="dogblade", include_provisional=False, page_number=1).rows
        == []
    )
    assert (
        len(
            selectors.leaderboard_page(game="shield", include_provisional=False, page_number=1).rows
        )
        == 1
    )


def test_my_row_is_marked_and_my_standing_shown(client, alice, bob):
    _rated(alice, rating=1600)
    _rated(bob, rating=1700)
    client.force_login(alice)
    response = client.get(reverse("ratings:board", args=["dogblade"]))
    assertContains(response, 'id="me"')
    assertContains(response, 'data-testid="my-standing"')
    standing = response.context["standing"]
    assert standing.row.rank == 2 and standing.page_number == 1
    mine = [row for row in response.context["board"].rows if row.is_viewer]
    assert [row.user for row in mine] == [alice]


def test_the_toggle_and_pages_swap_the_board_in_place(client, alice, bob):
    _rated(alice)
    _rated(bob, games=1)  # provisional
    body = client.get(reverse("ratings:board", args=["dogblade"]) + "?provisional=1").content
    board = body.decode()
    assert 'id="rt-board" hx-boost="true" hx-target="#rt-board" hx-select="#rt-board"' in board
    # Links that leave the board are full navigations.
    assert board.count('class="rt-name" hx-boost="false"') == 2


def test_an_unknown_game_is_a_404_page(client):
    response = client.get(reverse("ratings:board", args=["chess"]))
    assert response.status_code == 404
    assertContains(response, "There is no leaderboard for “chess”", status_code=404)
    assertContains(response, "Back to the hall", status_code=404)


def test_the_banira_board_is_the_weekly_one(client):
    response = client.get(reverse("ratings:board", args=["banira"]))
    assert response.status_code == 302
    assert response["Location"] == reverse("banira:leaderboard")


@pytest.mark.parametrize("page", ["abc", "-1", "0", "999", "1.5", "9" * 40, ""])
def test_a_bad_page_number_shows_a_real_page(client, alice, page):
    _rated(alice)
    response = client.get(reverse("ratings:board", args=["dogblade"]), {"page": page})
    assert response.status_code == 200
    assert response.context["board"].page.number == 1
    if page:
        assertContains(response, 'data-testid="page-notice"')


def test_pages_of_a_long_board(client, make_user):
    users = [make_user() for _ in range(selectors.PER_PAGE + 3)]
    for index, user in enumerate(users):
        _rated(user, rating=2000 - index)
    response = client.get(reverse("ratings:board", args=["dogblade"]), {"page": "2"})
    rows = response.context["board"].rows
    assert [row.rank for row in rows] == [26, 27, 28]
    assertContains(response, "Page 2 of 2")


def test_an_empty_board_says_so(client):
    response = client.get(reverse("ratings:board", args=["shield"]))
    assertContains(response, 'data-testid="leaderboard-empty"')


def test_the_player_page_with_no_games(client, alice):
    response = client.get(reverse("player", args=["alice"]))
    assertContains(response, 'data-testid="no-ratings"')
    assertNotContains(response, '<svg class="rt-chart')


def test_the_player_page_shows_ratings_and_a_chart(
    client, alice, bob, make_user, finish_duel, finish_shield
):
    finish_duel(alice, bob)
    finish_duel(alice, bob)
    finish_duel(bob, alice)
    carol = make_user("carol")
    finish_shield([alice, bob, carol], [bob, carol])
    response = client.get(reverse("player", args=["alice"]))
    assertContains(response, 'data-testid="rating-dogblade"')
    assertContains(response, 'data-testid="rating-shield"')
    assertContains(response, 'data-testid="rating-chart-wide"')
    assertContains(response, 'data-testid="rating-chart-narrow"')
    body = response.content.decode()
    assert body.count('class="rt-series rt-game-dogblade"') == 2  # one line per game, per size
    assert body.count('class="rt-series rt-game-shield"') == 2
    assert "<polyline" in body and "Dog Blade ·" in body
    assertContains(response, "ratings.css")


def test_my_profile_shows_my_ratings_too(client, alice, bob, finish_duel):
    finish_duel(alice, bob)
    client.force_login(alice)
    response = client.get(reverse("profile"))
    assertContains(response, 'data-testid="player-ratings"')
    assertContains(response, 'data-testid="rating-dogblade"')


def test_history_chart_geometry_stays_inside_the_plot(alice, bob, finish_duel):
    for _ in range(3):
        finish_duel(alice, bob)
    history = selectors.player_history_charts(user=alice)
    chart = history.wide
    dots = [dot for line in chart.lines for dot in line.dots]
    assert len(dots) == 3
    assert all(chart.left <= d.x <= chart.right and chart.top <= d.y <= chart.bottom for d in dots)
    assert chart.y_ticks and chart.x_ticks
    assert selectors.player_history_charts(user=bob).narrow.lines[0].key == "dogblade"


def test_the_nav_links_the_leaderboards(client):
    assertContains(client.get(reverse("ratings:index")), f'href="{reverse("ratings:index")}"')


def test_the_admin_lists_ratings_read_only(client, make_user, alice, bob, finish_duel):
    match = finish_duel(alice, bob)
    admin = make_user("root")
    admin.is_staff = admin.is_superuser = True
    admin.save()
    client.force_login(admin)
    for name in ("rating", "ratedmatch", "ratingchange"):
        listing = client.get(reverse(f"admin:ratings_{name}_changelist"))
        assert listing.status_code == 200, name
        assert client.get(reverse(f"admin:ratings_{name}_add")).status_code == 403
    rated = match.rated_match
    page = client.get(reverse("admin:ratings_ratedmatch_change", args=[rated.pk]))
    assertContains(page, "alice")
    assertNotContains(page, 'type="submit" value="Save"')
