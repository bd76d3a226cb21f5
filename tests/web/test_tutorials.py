"""Every game's tutorial, through the real views: started from its page, played to its end
by the coach's moves, and unlosable: every other move at a scripted step is taken back with
the coach's reason and nothing written (games.boards.tutorial). Also the rules pages and the
rules link on every board."""

import json

import pytest
from django.urls import reverse

from games import replay, selectors
from games.boards import all_boards, tutorial_for
from games.engine import registry
from games.models import Match, Move

pytestmark = pytest.mark.django_db(transaction=True)  # on-commit hooks run: the tutor moves

TUTORIALS = ["grimhand", "grimhand-arcana", "haymaker", "dogblade", "shield", "banira"]
SCRIPTED_TO_THE_WIN = ["grimhand-arcana", "dogblade", "shield", "banira"]
GAMES = ["banira", "dogblade", "grimhand", "haymaker", "shield"]
OTHERS_PER_STEP = 4  # off-script moves tried at each scripted step (spread over the list)


def _start(client, user, key):
    client.force_login(user)
    response = client.post(reverse("games:tutorial", args=[key]))
    match = Match.objects.get(tutorial=key)
    assert response.status_code == 302 and response["Location"] == match.get_absolute_url()
    return match


def _coach(match, user):
    match = selectors.match_get(match_id=match.pk)
    return selectors.match_board(match=match, seat=match.seats.get(user=user))["coach"]


def _post(client, match, move):
    data = {"ply": match.ply, "move": json.dumps(move), "move_id": f"tutorial-{match.ply}"}
    return client.post(reverse("games:move", args=[match.pk]), data)


def _others(match, seat, coached):
    """A few legal moves at this ply other than the coached one."""
    game = registry.get(match.game)
    state = replay.match_position(match=match).state
    others = [move for move in game.legal_moves(state, seat) if move != coached]
    step = max(1, len(others) // OTHERS_PER_STEP)
    return others[::step][:OTHERS_PER_STEP]


def _play(client, user, key, *, try_others, match=None):
    """Follow the coach through the views while it points at a move; at each such step,
    first try other moves (each taken back). Returns the match and the steps played."""
    match = match or _start(client, user, key)
    tutorial = tutorial_for(key)
    played = 0
    while True:
        match.refresh_from_db()
        step = _coach(match, user)
        if match.is_finished or step is None or step.move is None:
            return match, played
        page = client.get(match.get_absolute_url()).content.decode()
        assert 'data-testid="coach"' in page and 'data-testid="rules-link"' in page
        if try_others:
            for other in _others(match, tutorial.player_seat, step.move):
                before = (match.ply, Move.objects.filter(match=match).count())
                response = _post(client, match, other)
                assert response.status_code == 409, (key, match.ply, other)
                assert "taken back" in response.content.decode()
                match.refresh_from_db()
                assert (match.ply, Move.objects.filter(match=match).count()) == before
        response = _post(client, match, step.move)
        assert response.status_code == 302, (key, match.ply, step.move)
        played += 1
        assert played < 100


@pytest.mark.parametrize("key", TUTORIALS)
def test_each_tutorial_plays_to_its_end_through_the_views(client, make_user, key):
    player = make_user()
    match, played = _play(client, player, key, try_others=False)
    assert played >= 4
    seat = tutorial_for(key).player_seat
    if key in SCRIPTED_TO_THE_WIN:
        assert match.is_finished and match.outcome["winners"] == [seat], match.outcome
        if key == "banira":
            assert match.outcome["reason"] == "complete"
    else:  # the coach hands over for free play, the player well placed
        assert match.status == Match.Status.ACTIVE
        assert _coach(match, player) is not None
    html = client.get(match.get_absolute_url()).content.decode()
    assert 'data-testid="rules-link"' in html


@pytest.mark.parametrize("key", TUTORIALS)
def test_no_tutorial_can_be_lost_off_the_script(client, make_user, key):
    """At every scripted step, other legal moves are taken back, explained; the coached
    line then still ends as it should."""
    player = make_user()
    match, _ = _play(client, player, key, try_others=True)
    if key in SCRIPTED_TO_THE_WIN:
        assert match.outcome["winners"] == [tutorial_for(key).player_seat]
    else:
        assert match.status == Match.Status.ACTIVE


def test_the_grimhand_losing_line_cannot_be_played(client, alice):
    """Issue 18: three Attack draws against the coach's advice drew the stacked Death card.
    The second is taken back, with the reason; the player's Lucky 7 and the Death card stay
    where the script put them, and the coached line survives the Death card."""
    match = _start(client, alice, "grimhand")
    draw_attack = {"type": "draw", "deck": "attack"}
    assert _post(client, match, draw_attack).status_code == 302
    match.refresh_from_db()
    assert match.ply == 2
    for _ in range(2):
        response = _post(client, match, draw_attack)
        assert response.status_code == 409
        text = response.content.decode()
        assert "taken back" in text and "blue Defense deck" in text
        match.refresh_from_db()
        assert match.ply == 2 and match.status == Match.Status.ACTIVE
    match, _ = _play(client, alice, "grimhand", try_others=True, match=match)
    assert match.status == Match.Status.ACTIVE
    events = [e.type for entry in replay.match_position(match=match).tail for e in entry.events]
    assert "lucky_saved" in events and "death" not in events


@pytest.mark.parametrize("key", TUTORIALS)
def test_get_shows_a_page_that_starts_the_tutorial(client, alice, key):
    page = client.get(reverse("games:tutorial", args=[key]))
    assert page.status_code == 200
    html = page.content.decode()
    assert tutorial_for(key).title in html and 'data-testid="tutorial-begin"' in html
    assert f'action="{reverse("games:tutorial", args=[key])}"' in html
    client.force_login(alice)
    assert client.get(reverse("games:tutorial", args=[key])).status_code == 200
    assert not Match.objects.exists()


def test_get_of_an_unknown_tutorial_is_a_404(client):
    assert client.get(reverse("games:tutorial", args=["chess"])).status_code == 404


@pytest.mark.parametrize("slug", GAMES)
def test_every_game_has_a_rules_page_and_a_tutorial(client, alice, slug):
    assert client.get(reverse("games:rules", args=[slug])).status_code == 200
    client.force_login(alice)
    response = client.get(reverse("games:rules", args=[slug]))
    assert response.status_code == 200
    assert tutorial_for(slug) is not None and tutorial_for(slug).game == slug
    assert reverse("games:tutorial", args=[slug]) in response.content.decode()


def test_every_board_links_to_its_rules(client, alice):
    """The link is in the shared board frame (games/match.html), so every board has it."""
    assert sorted(board.slug for board in all_boards()) == GAMES
    client.force_login(alice)
    for slug in GAMES:
        match = _start(client, alice, slug)
        html = client.get(match.get_absolute_url()).content.decode()
        link = f'href="{reverse("games:rules", args=[slug])}"'
        assert 'data-testid="rules-link"' in html and link in html, slug
        fragment = client.get(reverse("games:board", args=[match.pk]), HTTP_HX_REQUEST="true")
        assert 'data-testid="rules-link"' in fragment.content.decode(), slug
