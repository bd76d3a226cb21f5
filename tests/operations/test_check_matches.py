"""`manage.py check_matches`, the check to run after a restore: it passes on sound logs and
reports, with exit status 1, a log that no longer replays or a result it does not reach."""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command

from games.models import Match, Move
from tests.history import helpers

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(make_user):
    """A finished Haymaker match and a running Grimhand one."""
    matches = []
    for game, finish in (("haymaker", True), ("grimhand", False)):
        users = [make_user(), make_user()]
        match = helpers.start(game, users)
        helpers.play(match, users, plies=8, finish=finish)
        matches.append(match)
    return matches


def test_sound_logs_check_out(played, capsys):
    call_command("check_matches", "--json")
    findings = json.loads(capsys.readouterr().out)
    assert findings["problems"] == []
    assert (findings["matches"], findings["verified"], findings["running"]) == (2, 1, 1)
    assert findings["moves"] == Move.objects.count()


def test_a_move_that_does_not_replay_is_reported(played, capsys):
    running = played[1]
    move = running.moves.order_by("ply").last()
    Move.objects.filter(pk=move.pk).update(payload={"type": "draw", "deck": "treasure"})
    with pytest.raises(CommandError, match="1 problem"):
        call_command("check_matches")
    assert f"match {running.pk} (grimhand): move {move.ply} (seat" in capsys.readouterr().err


def test_a_result_the_replay_does_not_reach_is_reported(played, capsys):
    finished = played[0]
    outcome = dict(finished.outcome, winners=[1 - finished.outcome["winners"][0]])
    Match.objects.filter(pk=finished.pk).update(outcome=outcome)
    with pytest.raises(CommandError, match="1 problem"):
        call_command("check_matches")
    assert "export does not verify: The recorded outcome" in capsys.readouterr().err


def test_a_seed_that_is_not_the_committed_one_is_reported(played, capsys):
    Match.objects.filter(pk=played[1].pk).update(seed=bytes(32))
    with pytest.raises(CommandError, match="1 problem"):
        call_command("check_matches")
    assert "not the one committed to" in capsys.readouterr().err
