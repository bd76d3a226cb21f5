"""The lobby: each game's rule options from its engine schema, checked by the engine; rated
or casual; private tables by link (docs/lobby.md)."""

import html

import pytest
from django.urls import reverse

from games import rule_options, selectors, services
from games.errors import CannotCreate, MatchNotFound, SeatUnavailable
from games.models import Match
from ratings import services as ratings

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _every_board_open(monkeypatch):
    monkeypatch.setattr(services.tables, "has_board", lambda slug: True)


def _lobby(client, **fields):
    form = {"game": "grimhand", "players": "2", "opponent": "ai", "ai_level": "normal"}
    form.update(fields)
    return client.post(reverse("games:lobby"), form)


def test_each_game_offers_its_engine_options_as_fields(client, alice):
    client.force_login(alice)
    page = client.get(reverse("games:lobby")).content.decode()
    for field in (
        "opt_grimhand_copies",
        "opt_grimhand_hp",
        "opt_grimhand_overdraw",
        "opt_haymaker_discards",
        "opt_shield_boost",
        "opt_shield_start_tie",
    ):
        assert f'name="{field}"' in page, field
    assert 'value="discard_lowest"' in page and 'value="before_draw"' in page


def test_the_lobby_preselects_the_normal_ai(client, alice):
    """Issue 18: Easy plays at random; a first match against the preselected AI is Normal."""
    client.force_login(alice)
    page = client.get(reverse("games:lobby")).content.decode()
    assert '<option value="normal" selected>' in page
    assert '<option value="easy">' in page
    assert 'min="2" max="8"' in page  # Grimhand's copies, from the engine's bounds
    assert not rule_options.offered("dogblade")
    assert [rule.name for rule in rule_options.offered("grimhand")] == ["copies", "overdraw", "hp"]


@pytest.mark.parametrize(
    ("game", "fields", "options"),
    [
        (
            "grimhand",
            {"opt_grimhand_copies": "6", "opt_grimhand_hp": "80"},
            {"copies": 6, "hp": 80},
        ),
        ("grimhand", {"opt_grimhand_overdraw": "hp_penalty"}, {"overdraw": "hp_penalty"}),
        ("haymaker", {"opt_haymaker_discards": "own"}, {"discards": "own"}),
        (
            "shield",
            {"opt_shield_boost": "before_draw", "opt_shield_start_tie": "random"},
            {"boost": "before_draw", "start_tie": "random"},
        ),
        ("grimhand", {"opt_grimhand_copies": "4", "opt_grimhand_hp": "50"}, {}),  # defaults
    ],
)
def test_chosen_options_reach_the_match_and_the_engine(client, alice, game, fields, options):
    client.force_login(alice)
    response = _lobby(client, game=game, **fields)
    assert response.status_code == 302, response.content.decode()[:2000]
    match = Match.objects.get()
    assert match.options == options
    state = selectors.match_position(match=match).state
    if game == "grimhand" and "hp" in options:
        assert selectors.match_game(match=match).view(state, 0)["players"][0]["hp"] == 80


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"opt_grimhand_copies": "9"}, "copies of each card is a whole number from 2 to 8"),
        ({"opt_grimhand_hp": "5"}, "Starting HP is a whole number from 10 to 200"),
        ({"opt_grimhand_hp": "lots"}, "Starting HP is a whole number from 10 to 200"),
        ({"opt_grimhand_overdraw": "explode"}, "The overdraw rule is"),
        ({"game": "haymaker", "opt_haymaker_discards": "nowhere"}, 'is "together" or "own"'),
        ({"game": "shield", "opt_shield_boost": "never"}, 'is "after_draw" or "before_draw"'),
    ],
)
def test_bad_values_get_the_engines_message_and_write_nothing(client, alice, fields, message):
    client.force_login(alice)
    response = _lobby(client, **fields)
    assert response.status_code == 400
    assert message in html.unescape(response.content.decode())
    assert not Match.objects.exists()


def test_an_unknown_option_is_refused_by_name(alice):
    with pytest.raises(CannotCreate, match="Haymaker has no option “speed”"):
        services.match_create(
            creator=alice, game_slug="haymaker", opponent="ai", rules={"speed": "fast"}
        )
    assert not Match.objects.exists()


def test_options_show_on_the_header_and_the_open_tables(client, alice, bob):
    client.force_login(alice)
    _lobby(client, opponent="open", time_control="1d", opt_grimhand_hp="80", rated="casual")
    match = Match.objects.get()
    header = client.get(match.get_absolute_url()).content.decode()
    assert "Starting HP: 80" in header and "Casual" in header
    client.force_login(bob)
    listed = client.get(reverse("games:open_matches")).content.decode()
    assert "Starting HP: 80" in listed and "Casual" in listed


def test_a_classic_rule_is_refused_for_arcana(alice):
    with pytest.raises(CannotCreate, match="Classic rule"):
        services.match_create(
            creator=alice,
            game_slug="grimhand",
            opponent="ai",
            options={"variant": "arcana"},
            rules={"copies": "6"},
        )


def _finish(match, winner_user, loser_user):
    services.match_resign(match_id=match.pk, user=loser_user)
    match.refresh_from_db()
    return match


def test_rated_and_casual(alice, bob):
    rated = services.match_create(
        creator=alice, game_slug="dogblade", opponent="player", invitee_username="bob"
    )
    services.match_join(match_id=rated.pk, user=bob)
    casual = services.match_create(
        creator=alice,
        game_slug="dogblade",
        opponent="player",
        invitee_username="bob",
        is_casual=True,
    )
    services.match_join(match_id=casual.pk, user=bob)
    assert selectors.table_kind(match=rated) == "Rated"
    assert selectors.table_kind(match=casual) == "Casual"
    rated, casual = _finish(rated, alice, bob), _finish(casual, alice, bob)
    assert ratings.match_is_rated(match=rated)
    assert not ratings.match_is_rated(match=casual)
    from ratings.models import RatedMatch

    assert list(RatedMatch.objects.values_list("match_id", flat=True)) == [rated.pk]


def test_a_casual_rematch_stays_casual(alice, bob):
    match = services.match_create(
        creator=alice,
        game_slug="dogblade",
        opponent="player",
        invitee_username="bob",
        is_casual=True,
    )
    services.match_join(match_id=match.pk, user=bob)
    _finish(match, alice, bob)
    assert services.match_rematch(match_id=match.pk, user=alice).is_casual


def test_a_private_table_is_joined_by_its_link_only_and_never_listed(client, alice, bob, make_user):
    carol = make_user("carol")
    client.force_login(alice)
    response = _lobby(client, game="dogblade", opponent="open", time_control="1d", is_private="on")
    assert response.status_code == 302
    match = Match.objects.get()
    assert len(match.invite_token) >= 32
    page = client.get(match.get_absolute_url()).content.decode()
    link = reverse("games:private_table", args=[match.invite_token])
    assert link in page  # the host sees the link to share
    client.force_login(carol)
    assert match.invite_token not in client.get(match.get_absolute_url()).content.decode()
    assert f"/matches/{match.pk}/" not in client.get(reverse("games:open_matches")).content.decode()
    assert selectors.open_matches(user=carol) == []
    # the match's own join, without the link: refused
    with pytest.raises(SeatUnavailable, match="private"):
        services.match_join(match_id=match.pk, user=carol)
    response = client.post(reverse("games:join", args=[match.pk]))
    assert response.status_code == 409
    # a junk token: a clear 404, nothing written
    for junk in ("nope", "x" * 150, match.invite_token[:-1] + "!"):
        response = client.post(f"/tables/private/{junk}/")
        assert response.status_code == 404
        assert "no table at this link" in response.content.decode()
    with pytest.raises(MatchNotFound):
        services.match_join_by_link(token="junk", user=carol)
    match.refresh_from_db()
    assert match.status == "waiting"
    # the link: bob sees the invitation and takes the seat
    client.force_login(bob)
    invitation = client.get(link)
    assert invitation.status_code == 200 and "private table" in invitation.content.decode()
    assert client.post(link).status_code == 302
    match.refresh_from_db()
    assert match.status == "active"
    assert client.get(link).status_code == 404  # a started table's link leads nowhere


def test_a_private_table_needs_an_open_seat(alice):
    with pytest.raises(CannotCreate, match="open seat"):
        services.match_create(creator=alice, game_slug="dogblade", opponent="ai", is_private=True)
    assert not Match.objects.exists()


def test_a_private_table_is_not_watched_from_the_live_list(alice, bob, make_user):
    match = services.match_create(
        creator=alice, game_slug="dogblade", opponent="open", time_control="1d", is_private=True
    )
    services.match_join_by_link(token=match.invite_token, user=bob)
    assert match.pk not in [m.pk for m in selectors.live_matches(user=make_user("dave"))]
