"""`manage.py simulate`: AI levels play matches through the engine, no database (the
command over games.ai.simulation)."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command


def simulate(*args: str) -> str:
    out = StringIO()
    call_command("simulate", *args, stdout=out)
    return out.getvalue()


def test_simulate_reports_json() -> None:
    args = ("dogblade", "--matches", "50", "--bots", "easy,easy", "--seed", "1", "--json")
    report = json.loads(simulate(*args))
    assert {
        "game",
        "matches",
        "seed",
        "bots",
        "wins",
        "wins_by_seat",
        "draws",
        "unfinished",
        "plies",
        "engine_moves",
        "engine_moves_per_second",
    } <= set(report)
    assert report["game"] == "dogblade" and report["matches"] == 50
    assert report["wins"] + report["draws"] == report["matches"]
    assert report["unfinished"] == 0
    assert sum(report["wins_by_seat"]) == sum(bot["wins"] for bot in report["bots"]) == 50
    assert [bot["bot"] for bot in report["bots"]] == ["easy", "easy"]
    assert 0 < report["plies"]["mean"] <= report["plies"]["max"]
    assert report["engine_moves"] == round(report["plies"]["mean"] * 50)
    assert report["engine_moves_per_second"] > 0


def test_simulate_is_reproducible_from_its_seed() -> None:
    def tally(seed: str) -> tuple[object, ...]:
        report = json.loads(simulate("dogblade", "--matches", "20", "--seed", seed, "--json"))
        return report["bots"], report["wins_by_seat"], report["plies"]

    assert tally("7") == tally("7")
    assert tally("7") != tally("8")


def test_simulate_prints_a_table_by_default() -> None:
    table = simulate("dogblade", "--matches", "5", "--bots", "easy")
    assert "dogblade: 5 matches" in table
    assert "seat 0" in table and "moves/s" in table


# Whoever moves first draws a Death card: seat 0 loses every match.
FIRST_DRAW_LOSES = {"deal": {"attack": [13, 1], "defense": [13, 2], "first": 0}}


def test_simulate_plays_every_deal_with_the_match_options() -> None:
    options = json.dumps(FIRST_DRAW_LOSES)
    report = json.loads(simulate("grimhand", "--matches", "4", "--json", "--options", options))
    assert report["options"] == FIRST_DRAW_LOSES
    assert report["wins_by_seat"] == [0, 4] and report["plies"]["mean"] == 1
    assert [bot["wins"] for bot in report["bots"]] == [2, 2]  # the seats rotate
    table = simulate("grimhand", "--matches", "2", "--options", '{"hp": 10}')
    assert table.splitlines()[0].endswith(', options {"hp": 10}')


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("nosuchgame",), "There is no game called"),
        (("dogblade", "--bots", "easy,nosuchlevel"), "There is no AI level “nosuchlevel”"),
        (("dogblade", "--bots", "random"), "There is no AI level “random”"),  # a bot, not a level
        (("dogblade", "--bots", "tutorial"), "There is no AI level “tutorial”"),
        (("dogblade", "--bots", "easy,easy,easy"), "exactly 2 players"),
        (("dogblade", "--bots", "easy", "--seats", "3"), "exactly 2 players"),
        (("shield", "--bots", "easy,normal", "--seats", "3"), "does not match the 2 levels"),
        (("dogblade", "--matches", "0"), "--matches must be at least 1"),
        (("dogblade", "--matches", "many"), "invalid int value"),
        (("grimhand", "--options", '{"hp": 2}'), "--options: Starting HP is a whole number"),
        (("grimhand", "--options", "[1]"), "must be a JSON object"),
        (("grimhand", "--options", "{hp"), "--options is not JSON"),
    ],
)
def test_simulate_refuses_bad_arguments(args: tuple[str, ...], message: str) -> None:
    with pytest.raises(CommandError, match=message):
        simulate(*args)
