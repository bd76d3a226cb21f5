"""The Haymaker tutorial: follow the coach's moves and check the position after each.

The player meets an attack, a plain block, a haymaker, a reversal against them and one of
their own, a hit and a pass; the scripted tutor answers on its own (on-commit hooks run).
"""

import pytest

from games import selectors, services
from games.boards import tutorial_for
from games.engine import registry
from games.errors import OffScript
from games.models import Match, Seat

pytestmark = pytest.mark.django_db(transaction=True)  # on-commit hooks run: the tutor moves


def _board(match, user):
    match = selectors.match_get(match_id=match.pk)
    return selectors.match_board(match=match, seat=match.seats.get(user=user))


def _follow_the_coach(match, user):
    """Play the move the coach points at; returns the board after the tutor's answer."""
    match.refresh_from_db()
    board = _board(match, user)
    move = board["coach"].move
    assert move is not None, board["coach"].text
    services.move_submit(match_id=match.pk, user=user, ply=match.ply, move=move)
    match.refresh_from_db()
    return _board(match, user)


def _sides(view):
    me, tutor = view["players"]
    return me, tutor


def test_the_tutorial_walks_through_every_move(alice):
    match = services.tutorial_start(user=alice, game_slug="haymaker")
    assert match.tutorial == "haymaker"
    assert Seat.objects.get(match=match, index=1).ai_level == services.TUTOR
    board = _board(match, alice)
    view = board["view"]
    assert view["my_role"] == "attacker" and view["to_act"] == [0]
    assert "Tap your 7♣" in board["coach"].text
    assert board["coached_move"] == '{"cards":["7C"],"type":"attack"}'

    # ply 0: a jab of 7; the tutor blocks with 8, no reversal: both cards to my pile.
    view = _follow_the_coach(match, alice)["view"]
    me, tutor = _sides(view)
    assert view["ply"] == 2 and view["my_role"] == "attacker" and view["can_pass"]
    assert me["discard"] == ["7C", "8D"] and tutor["hand_count"] == 9
    assert view["last_turn"]["response"] == "block" and not view["last_turn"]["is_reversal"]

    # ply 2: a haymaker of 8; any block of it is a reversal: the tutor attacks next, with 6S.
    board = _follow_the_coach(match, alice)
    view = board["view"]
    me, tutor = _sides(view)
    assert view["ply"] == 5 and view["my_role"] == "defender"
    attack = view["attack"]
    assert (attack["cards"], attack["strength"], attack["is_haymaker"]) == (["6S"], 6, False)
    assert tutor["discard"] == ["3H", "5H", "9C"]
    assert "7H" in view["hand"]  # drawn after the reversal
    assert board["coached_move"] == '{"cards":["6D"],"type":"block"}'
    assert "Every block of a haymaker is a reversal" in board["coach"].text

    # ply 5: my exact block of 6: my reversal; I attack again.
    view = _follow_the_coach(match, alice)["view"]
    me, tutor = _sides(view)
    assert view["ply"] == 6 and view["my_role"] == "attacker" and not view["can_pass"]
    assert me["discard"] == ["7C", "8D", "6S", "6D"]
    assert view["last_turn"]["is_reversal"] and "8H" in view["hand"]

    # ply 6: a jab of 4; the tutor takes the hit: one of its cards comes to my hand.
    board = _follow_the_coach(match, alice)
    view = board["view"]
    me, tutor = _sides(view)
    (taken,) = view["last_turn"]["taken"]
    assert view["ply"] == 8 and view["can_pass"] and view["last_turn"]["response"] == "take_hit"
    assert taken in view["hand"] and me["revealed"] == [taken]
    assert tutor["hand_count"] == 8 and me["discard"][-1] == "4S"
    assert board["coached_move"] == '{"type":"pass"}'

    # ply 8: the pass: both draw, the roles switch, and the tutor attacks on its own.
    board = _follow_the_coach(match, alice)
    view = board["view"]
    assert view["ply"] == 10 and view["my_role"] == "defender"
    assert "5C" in view["hand"] and view["deck_count"] == 10
    assert board["coach"].text == tutorial_for("haymaker").farewell
    assert Match.objects.get(pk=match.pk).status == Match.Status.ACTIVE


def test_every_scripted_tutor_move_is_one_the_engine_lists():
    """The scripted bot plays a planned move only if it is in the listed legal moves."""
    tutorial = tutorial_for("haymaker")
    game = registry.get("haymaker")
    state = game.new(2, bytes(32), tutorial.options)
    for ply in range(9):
        (seat,) = game.to_act(state)
        if seat == tutorial.player_seat:
            move = tutorial.steps[ply].move
            assert game.is_legal(state, seat, move), (ply, move)
        else:
            move = tutorial.ai_script[ply]
            assert move in game.legal_moves(state, seat), (ply, move)
        state, _ = game.apply(state, seat, move)
    assert state.ply == 9


def test_an_off_script_move_is_taken_back_with_the_coach_s_reason(alice):
    """Another first attack than the coached one is refused before the engine sees it
    (games.boards.tutorial): nothing is written, and the coach still points at the jab."""
    match = services.tutorial_start(user=alice, game_slug="haymaker")
    move = {"type": "attack", "cards": ["9S"]}
    with pytest.raises(OffScript) as refused:
        services.move_submit(match_id=match.pk, user=alice, ply=0, move=move)
    assert "taken back" in refused.value.message and "Tap your 7♣" in refused.value.message
    match.refresh_from_db()
    assert match.ply == 0 and not match.moves.exists()
    board = _board(match, alice)
    assert board["coached_move"] == '{"cards":["7C"],"type":"attack"}'


def test_the_coach_names_no_card_off_the_script():
    """Were a match ever off the script, the lines (which name the tutor's cards) give way
    to one that names none."""
    tutorial = tutorial_for("haymaker")
    moves = [{"type": "attack", "cards": ["9S"]}, {"type": "block", "cards": ["10S"]}]
    assert tutorial.coach(ply=2, is_finished=False, moves=moves).text == tutorial.off_script
