"""No tutorial can be lost, to its very end (issue 18): the player follows the coach while it
points at a move, then plays the worst legal moves it can (every move that would lose
first, then the one its game's greedy heuristic scores lowest); each losing move is taken
back with the coach's reason and nothing written, and the match still ends in the player's
win. Classic Grimhand and Haymaker hand over control before the end; the other tutorials
are scripted to the win, and the same walk checks that too (games.boards.tutorial)."""

from unittest import mock

import pytest

from games import replay, selectors, services
from games.ai.greedy import evaluator_for
from games.boards import tutorial_for
from games.boards.tutorial import CONCEDE, LOSING_MOVE, PLAY, REFUSE, _holds
from games.engine import registry
from games.errors import OffScript
from games.models import Match, Move

pytestmark = pytest.mark.django_db(transaction=True)  # on-commit hooks run: the tutor moves

TUTORIALS = ["grimhand", "grimhand-arcana", "haymaker", "dogblade", "shield", "banira"]
HANDED_OVER = ["grimhand", "haymaker"]  # the coach lets go before the end
MAX_PLAYER_MOVES = 300


def _worst_first(game, state, view, seat, legal):
    """The player's legal moves, worst first: those that lose at once, then by the game's
    greedy heuristic, lowest first (its list order where it has none)."""
    evaluate = evaluator_for(game.slug)
    losing = [move for move in legal if not _holds(game, state, seat, move)]
    rest = [move for move in legal if move not in losing]
    if evaluate is not None and view.get("variant") != "arcana":
        rest.sort(key=lambda move: evaluate(view, move))
    return losing + rest


def _play_badly(match, user):
    """Follow the coach while it points at a move, then play the worst moves; returns the
    finished match, how many player moves were played after hand-over and how many losing
    moves were taken back."""
    tutorial = tutorial_for(match.tutorial)
    game = registry.get(match.game)
    seat = tutorial.player_seat
    free, taken_back = 0, 0
    for _ in range(MAX_PLAYER_MOVES):
        match.refresh_from_db()
        if match.is_finished:
            return match, free, taken_back
        assert seat in match.seats_to_act, (match.ply, match.to_act)
        coached = tutorial.expected_move(match.ply)
        if coached is not None:
            services.move_submit(match_id=match.pk, user=user, ply=match.ply, move=coached)
            continue
        state = replay.match_position(match=match).state
        view = game.view(state, seat)
        for move in _worst_first(game, state, view, seat, game.legal_moves(state, seat)):
            before = (match.ply, Move.objects.filter(match=match).count())
            try:
                services.move_submit(match_id=match.pk, user=user, ply=match.ply, move=move)
            except OffScript as refused:
                assert refused.message == LOSING_MOVE
                assert not _holds(game, state, seat, move), move  # only losing moves
                match.refresh_from_db()
                assert (match.ply, Move.objects.filter(match=match).count()) == before
                taken_back += 1
                continue
            free += 1
            break
        else:
            pytest.fail(f"every move was taken back at ply {match.ply}")
    pytest.fail(f"{match.tutorial}: not over after {MAX_PLAYER_MOVES} moves of the player")


@pytest.mark.parametrize("key", TUTORIALS)
def test_the_worst_moves_still_win_every_tutorial(make_user, key):
    player = make_user()
    match = services.tutorial_start(user=player, game_slug=key)
    match, free, _ = _play_badly(match, player)
    assert match.status == Match.Status.FINISHED
    assert match.outcome["winners"] == [tutorial_for(key).player_seat], match.outcome
    if key in HANDED_OVER:
        assert free > 0  # the worst moves were really played on the player's own
    else:
        assert free == 0  # scripted to the win: the coach never lets go


def test_the_grimhand_death_card_is_taken_back_after_hand_over():
    """After hand-over, with the Attack deck's top a Death card and no Lucky 7, that draw is
    refused and the others are played; the tutor in the same spot draws it (its loss)."""
    tutorial = tutorial_for("grimhand")
    game = registry.get("grimhand")
    player, tutor = tutorial.player_seat, 1
    dealt = game.new(2, bytes(32), tutorial.options)
    state = dealt.replace(
        decks=((13, *dealt.decks[0][1:]), (2, *dealt.decks[1][1:])),
        hands=(((5,), (4,)), ((8,), (3,))),
        lucky=(None, None),
        turn=player,
        ply=10,
    )
    draw_attack = {"type": "draw", "deck": "attack"}
    draw_defense = {"type": "draw", "deck": "defense"}
    assert tutorial.verdict(game, state, draw_attack) == REFUSE
    assert tutorial.verdict(game, state, draw_defense) == PLAY
    assert tutorial.verdict(game, state, {"type": "attack"}) == PLAY
    tutor_turn = state.replace(turn=tutor, ply=11)
    legal = game.legal_moves(tutor_turn, tutor)
    assert tutorial.tutor_moves(game, tutor_turn, tutor, legal) == [draw_attack]


def test_the_tutor_never_strikes_the_last_blow_and_concedes_when_it_must():
    """A tutor whose attack would take the player's last HP does not attack; a player
    cornered (every move loses) sees the tutor concede instead."""
    tutorial = tutorial_for("grimhand")
    game = registry.get("grimhand")
    state = game.new(2, bytes(32), tutorial.options)
    tutor, player = 1, tutorial.player_seat
    lethal = state.replace(
        hands=(((), ()), ((12,), ())), hp=(5, 50), turn=tutor, lucky=(None, None)
    )
    legal = game.legal_moves(lethal, tutor)
    assert {"type": "attack"} in legal
    assert {"type": "attack"} not in tutorial.tutor_moves(game, lethal, tutor, legal)
    # Both decks topped by a Death card, no attack cards and no Lucky 7: every move loses.
    cornered = state.replace(
        decks=((13, *state.decks[0]), (13, *state.decks[1])),
        hands=(((), ()), ((), ())),
        turn=player,
        lucky=(None, None),
    )
    assert all(not _holds(game, cornered, player, m) for m in game.legal_moves(cornered, player))
    assert tutorial.verdict(game, cornered, {"type": "draw", "deck": "attack"}) == CONCEDE


def test_a_cornered_player_wins_by_the_tutor_s_concession(alice):
    """Through the service: the cornered move is not played, the tutor resigns."""
    match = services.tutorial_start(user=alice, game_slug="grimhand")
    tutorial = tutorial_for("grimhand")
    for _ in range(5):
        match.refresh_from_db()
        move = tutorial.expected_move(match.ply)
        services.move_submit(match_id=match.pk, user=alice, ply=match.ply, move=move)
    match.refresh_from_db()
    assert tutorial.expected_move(match.ply) is None and not match.is_finished
    with mock.patch.object(type(tutorial), "verdict", return_value=CONCEDE):
        services.move_submit(
            match_id=match.pk, user=alice, ply=match.ply, move={"type": "draw", "deck": "attack"}
        )
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert match.outcome["winners"] == [tutorial.player_seat]
    assert not match.moves.filter(ply__gte=10).exists()
    tutor_seat = match.seats.get(index=1)
    assert tutor_seat.resigned
    board = selectors.match_board(match=match, seat=match.seats.get(user=alice))
    assert board["coach"] is None
