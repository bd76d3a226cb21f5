"""What a game says lives in its board's folder: a one-seat run's ending is the board's
`solo_endings` (games/boards/banira/), and the selectors only pick and format it."""

from __future__ import annotations

import dataclasses

from games import boards
from games.boards import banira
from games.models import Match
from games.selectors.matches import outcome_text


def finished_run(reason: str, score: int) -> Match:
    outcome = {"reason": reason, "winners": [], "scores": [score]}
    return Match(game="banira", size=1, status=Match.Status.FINISHED, outcome=outcome)


def test_a_banira_run_ends_in_its_boards_words() -> None:
    assert banira.BOARD.solo_endings["resign"] == "You gave up the run: score {score}."
    assert outcome_text(finished_run("resign", 0), ["alice"], 0) == "You gave up the run: score 0."
    assert outcome_text(finished_run("complete", 41), ["alice"], 0) == (
        "Run complete! Final score 41."
    )
    assert outcome_text(finished_run("comet", 7), ["alice"], 0) == (
        "The run is over: score 7."  # a reason the board does not word
    )


def test_the_selectors_read_the_endings_from_the_board(monkeypatch) -> None:
    reworded = dataclasses.replace(banira.BOARD, solo_endings={"stuck": "Wedged at {score}."})
    monkeypatch.setitem(boards._BY_SLUG, "banira", reworded)
    assert outcome_text(finished_run("stuck", 12), ["alice"], 0) == "Wedged at 12."
