"""`manage.py simulate GAME --ladder`: every AI level against every other, no database
(games.ai.simulation.ladder under the command).

Most tests name their levels (easy and normal) so they do not wait for Hard's search.
"""

from __future__ import annotations

import json
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from games.ai import levels
from games.ai.random_bot import RandomBot
from games.ai.simulation import ladder

PAIR_KEYS = {"a", "b", "a_wins", "b_wins", "draws", "unfinished", "a_share", "ci95", "mean_plies"}


def simulate(*args: str) -> str:
    out = StringIO()
    call_command("simulate", *args, stdout=out)
    return out.getvalue()


def ladder_json(*args: str) -> dict[str, Any]:
    return json.loads(simulate(*args, "--ladder", "--json"))


def test_haymaker_ladder_json_shape_sums_and_normal_beats_easy() -> None:
    report = ladder_json("haymaker", "--levels", "easy,normal", "--matches", "40", "--seed", "3")
    assert {"game", "levels", "matches_per_pair", "seed", "pairs", "decision_ms"} <= set(report)
    assert report["game"] == "haymaker" and report["levels"] == ["easy", "normal"]
    assert report["matches_per_pair"] == 40 and report["seed"] == 3
    [pair] = report["pairs"]
    assert set(pair) == PAIR_KEYS
    assert (pair["a"], pair["b"]) == ("normal", "easy")  # the harder level is "a"
    assert pair["a_wins"] + pair["b_wins"] + pair["draws"] + pair["unfinished"] == 40
    assert pair["a_share"] == pair["a_wins"] / 40 >= 0.8, pair
    low, high = pair["ci95"]
    assert 0 <= low <= pair["a_share"] <= high <= 1
    assert pair["mean_plies"] > 0
    assert set(report["decision_ms"]) == {"easy", "normal"}
    for times in report["decision_ms"].values():
        assert times["moves"] > 0 and times["mean"] >= 0 and times["p95"] >= 0
    # Every ply is one decision of one level.
    moves = sum(times["moves"] for times in report["decision_ms"].values())
    assert moves == round(pair["mean_plies"] * 40)


def test_ladder_is_reproducible_from_its_seed() -> None:
    def pairs(seed: str) -> list[dict[str, Any]]:
        args = ("grimhand", "--levels", "easy,normal", "--matches", "20", "--seed", seed)
        return ladder_json(*args)["pairs"]

    assert pairs("7") == pairs("7")
    assert pairs("7") != pairs("8")


def test_ladder_pairs_every_level_with_every_other() -> None:
    names = ["easy", "normal", "hard"]
    assert ladder.pairings(names, 2) == [
        ("normal", "easy"),
        ("hard", "easy"),
        ("hard", "normal"),
    ]
    # Above two seats each pair is played both ways round (a lone a among b's).
    assert ladder.pairings(names[:2], 4) == [("normal", "easy"), ("easy", "normal")]


def test_ladder_at_a_bigger_table_puts_one_seat_against_the_rest() -> None:
    args = ("shield", "--seats", "3", "--levels", "easy,normal", "--matches", "6")
    report = ladder_json(*args)
    assert report["seats"] == 3
    assert [(pair["a"], pair["b"]) for pair in report["pairs"]] == [
        ("normal", "easy"),
        ("easy", "normal"),
    ]
    for pair in report["pairs"]:
        assert pair["a_wins"] + pair["b_wins"] + pair["draws"] + pair["unfinished"] == 6
    table = simulate(
        "shield", "--seats", "3", "--levels", "easy,normal", "--matches", "3", "--ladder"
    )
    assert "fair share 33.3%" in table and "normal v 2x easy" in table


def test_one_way_ladder_plays_only_the_lone_harder_seat() -> None:
    args = ("shield", "--seats", "4", "--levels", "easy,normal", "--matches", "4")
    report = ladder_json(*args, "--one-way")
    assert report["one_way"] is True
    assert [(pair["a"], pair["b"]) for pair in report["pairs"]] == [("normal", "easy")]
    [pair] = report["pairs"]
    assert pair["a_wins"] + pair["b_wins"] + pair["draws"] + pair["unfinished"] == 4


def test_ladder_of_a_one_seat_game_reports_scores_per_level() -> None:
    report = ladder_json("banira", "--levels", "easy,normal", "--matches", "5", "--seed", "2")
    assert report["pairs"] == [] and report["seats"] == 1
    assert set(report["runs"]) == {"easy", "normal"}
    for run in report["runs"].values():
        assert {"mean", "median", "p10", "p90", "min", "max"} == set(run["scores"])
        assert run["mean_plies"] > 0
    [difference] = report["score_differences"]
    assert (difference["a"], difference["b"], difference["runs"]) == ("normal", "easy", 5)
    assert difference["ci95"][0] <= difference["mean"] <= difference["ci95"][1]
    assert set(report["decision_ms"]) == {"easy", "normal"}
    table = simulate("banira", "--ladder", "--levels", "normal", "--matches", "2")
    assert "banira ladder: 2 runs per level" in table and "normal" in table


def test_ladder_table_names_every_level() -> None:
    table = simulate("haymaker", "--ladder", "--levels", "easy,normal", "--matches", "4")
    assert "haymaker ladder: 4 matches per pair" in table
    lines = table.splitlines()
    assert lines[1] == "levels: easy = random legal moves; normal = the game's greedy heuristic"
    header = lines[4]
    assert header.split() == ["easy", "normal"]
    rows = {line.split()[0] for line in lines[5:7]}
    assert rows == {"easy", "normal"}
    assert "normal v easy" in table
    assert "decision ms" in table and "p95" in table


def test_ladder_levels_default_to_the_offered_ones_easy_first() -> None:
    # Grimhand's first draw of this deal loses: every match is one ply, Hard's included.
    deal = {"deal": {"attack": [13, 1], "defense": [13, 2], "first": 0}}
    report = ladder_json("grimhand", "--matches", "2", "--options", json.dumps(deal))
    assert report["levels"] == ["easy", "normal", "hard"]
    assert report["levels"] == [level.id for level in levels.offered()]
    assert report["searches"]["hard"] == "flat Monte Carlo, 48 samples"


def test_timed_bot_passes_everything_through() -> None:
    class Sampler(RandomBot):
        wants_samples = True

        def choose(self, game: Any, view: Any, legal_moves: Any, chance: Any, **extra: Any) -> Any:
            self.extra = extra
            return legal_moves[0]

    inner, samples = Sampler(), []
    bot = ladder.TimedBot(inner, samples)
    assert bot.wants_samples is True and bot.name == inner.name
    assert bot.choose(None, {}, ["x"], None, sample="s") == "x"  # type: ignore[arg-type]
    assert inner.extra == {"sample": "s"} and len(samples) == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("haymaker", "--ladder", "--levels", "easy,nosuchlevel"), "no AI level “nosuchlevel”"),
        (("haymaker", "--ladder", "--levels", "normal"), "needs at least 2 levels, got 1"),
        (("haymaker", "--ladder", "--levels", "normal,normal"), "names a level twice"),
        (("haymaker", "--ladder", "--levels", "easy,tutorial"), "no AI level “tutorial”"),
        (("haymaker", "--ladder", "--matches", "0"), "--matches must be at least 1"),
        (("haymaker", "--ladder", "--bots", "normal"), "--ladder takes --levels"),
        (("haymaker", "--ladder", "--fixed-seats"), "always rotates the seats"),
        (("shield", "--ladder", "--seats", "9"), "2 to 8 players, not 9"),
        (("haymaker", "--levels", "easy,normal"), "--levels only goes with --ladder"),
        (("haymaker", "--one-way"), "--one-way only goes with --ladder"),
        (("haymaker", "--bots", "oracle,easy"), "There is no AI level “oracle”"),
        (("nosuchgame", "--ladder"), "There is no game called"),
    ],
)
def test_ladder_refuses_bad_arguments(args: tuple[str, ...], message: str) -> None:
    with pytest.raises(CommandError, match=message):
        simulate(*args)


def test_ladder_plays_with_the_match_options() -> None:
    deal = {"deal": {"attack": [13, 1], "defense": [13, 2], "first": 0}}  # seat 0 loses
    report = ladder_json(
        "grimhand", "--levels", "easy,normal", "--matches", "4", "--options", json.dumps(deal)
    )
    assert report["options"] == deal
    [pair] = report["pairs"]
    assert (pair["a_wins"], pair["b_wins"], pair["mean_plies"]) == (2, 2, 1)
