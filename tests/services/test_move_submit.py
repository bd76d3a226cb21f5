"""move_submit: the only way a player's move enters the log."""

import pytest

from games import selectors, services
from games.errors import (
    BadMove,
    InvalidMove,
    MatchFinished,
    MatchNotStarted,
    NotSeated,
    NotYourTurn,
    StaleMove,
)
from games.models import Match, Move
from tests.conftest import EXAMPLE_DEAL

ATTACK = {"type": "attack"}


@pytest.fixture
def match(alice, bob, make_match):
    return make_match(alice, bob, options=EXAMPLE_DEAL)  # seat 0 (alice) moves first


def test_a_legal_move_is_logged_and_advances_the_ply(match, alice):
    result = services.move_submit(match_id=match.pk, user=alice, ply=0, move=ATTACK)
    assert result.ply == 0
    assert [event.type for event in result.events] == ["attack"]
    match.refresh_from_db()
    assert match.ply == 1
    assert match.to_act == "1"
    assert Move.objects.get(match=match).payload == ATTACK


def test_the_wrong_user_is_refused(match, make_user):
    with pytest.raises(NotSeated):
        services.move_submit(match_id=match.pk, user=make_user(), ply=0, move=ATTACK)
    assert not Move.objects.exists()


def test_not_your_turn(match, bob):
    with pytest.raises(NotYourTurn, match="not your turn"):
        services.move_submit(match_id=match.pk, user=bob, ply=0, move=ATTACK)
    assert not Move.objects.exists()


def test_a_stale_ply_is_refused(match, alice, bob):
    services.move_submit(match_id=match.pk, user=alice, ply=0, move=ATTACK)
    with pytest.raises(StaleMove):
        services.move_submit(match_id=match.pk, user=bob, ply=0, move=ATTACK)
    with pytest.raises(StaleMove):
        services.move_submit(match_id=match.pk, user=bob, ply=5, move=ATTACK)
    assert Move.objects.count() == 1


def test_a_repeated_move_id_gets_the_committed_answer(match, alice):
    first = services.move_submit(match_id=match.pk, user=alice, ply=0, move=ATTACK, move_id="abc")
    again = services.move_submit(match_id=match.pk, user=alice, ply=0, move=ATTACK, move_id="abc")
    assert again.is_repeat and not first.is_repeat
    assert again.ply == first.ply == 0
    assert again.events == first.events
    assert Move.objects.count() == 1


def test_a_move_id_of_another_player_is_not_theirs(match, alice, bob):
    services.move_submit(match_id=match.pk, user=alice, ply=0, move=ATTACK, move_id="abc")
    with pytest.raises(BadMove):
        services.move_submit(match_id=match.pk, user=bob, ply=1, move=ATTACK, move_id="abc")
    assert Move.objects.count() == 1


@pytest.mark.parametrize("move", [None, [], "attack", {"kind": "attack"}, {"type": 3}])
def test_malformed_moves(match, alice, move):
    with pytest.raises(BadMove):
        services.move_submit(match_id=match.pk, user=alice, ply=0, move=move)
    assert not Move.objects.exists()


def test_an_illegal_move_reads_like_the_rules(match, alice):
    with pytest.raises(InvalidMove, match="only move is to attack"):
        services.move_submit(match_id=match.pk, user=alice, ply=0, move={"type": "flee"})
    match.refresh_from_db()
    assert match.ply == 0 and not Move.objects.exists()


def test_no_move_before_the_start_or_after_the_end(alice, bob, match):
    waiting = services.match_create(
        creator=alice, game_slug="dogblade", opponent="player", invitee_username="bob"
    )
    with pytest.raises(MatchNotStarted):
        services.move_submit(match_id=waiting.pk, user=alice, ply=0, move=ATTACK)
    services.match_resign(match_id=match.pk, user=alice)
    with pytest.raises(MatchFinished):
        services.move_submit(match_id=match.pk, user=bob, ply=0, move=ATTACK)


def test_the_cached_state_equals_a_fresh_replay(match, alice, bob):
    """Incremental state (cached by the service) equals the replay of the log."""
    for ply, user in enumerate([alice, bob, alice]):
        services.move_submit(match_id=match.pk, user=user, ply=ply, move=ATTACK)
    match.refresh_from_db()
    cached = selectors.match_position(match=match)
    from django.core.cache import cache

    from games import replay

    cache.clear()
    replay.memo_clear()
    fresh = selectors.match_position(match=match)
    assert cached.state == fresh.state
    assert cached.tail == fresh.tail
    assert match.status == Match.Status.ACTIVE
