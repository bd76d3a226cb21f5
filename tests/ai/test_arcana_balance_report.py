"""The Arcana balance report (games.ai.simulation.balance, `simulate --balance`) on a tiny
run: its shape, its arithmetic, its decks and its errors."""

from __future__ import annotations

import json
import random
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.ai.simulation import balance
from games.ai.simulation.checks import SimulationError
from games.engine import registry
from games.engine.grimhand.arcana.cards import DECK_RULES, DEFAULT_POOL, check_deck

GAME = registry.get("grimhand")
ARCANA = {"variant": "arcana"}
POOL = {card.id: card for card in DEFAULT_POOL}


def simulate(*args: str) -> str:
    out = StringIO()
    call_command("simulate", *args, stdout=out)
    return out.getvalue()


@pytest.fixture(scope="module")
def report() -> dict:
    return balance.balance(
        GAME, ["easy", "easy"], matches=12, seed=3, max_plies=3000, options=ARCANA
    )


def test_the_report_has_every_part(report: dict) -> None:
    assert report["matches"] == 12 and report["levels"] == ["easy", "easy"]
    assert report["decks"] == "random legal decks" and report["deck_fallbacks"] == 0
    seat = report["seat_advantage"]
    assert seat["seat0_wins"] == report["wins_by_seat"][0]
    assert 0 <= seat["ci95"][0] <= seat["share"] <= seat["ci95"][1] <= 1
    assert sum(report["wins_by_seat"]) + report["draws"] + report["unfinished"] == 12
    plies = report["plies"]
    assert plies["min"] <= plies["q1"] <= plies["median"] <= plies["q3"] <= plies["max"]
    assert sum(row["count"] for row in plies["histogram"]) == 12
    assert plies["histogram"][-1]["high"] is None
    assert sum(report["endings"].values()) == 12 - report["unfinished"]
    assert report["death_share"] == round(report["endings"].get("death_card", 0) / 12, 4)
    assert [target["met"] for target in report["targets"]] == [
        plies["median"] >= 20,
        report["death_share"] < 0.4,
        all(abs(row["delta"]) <= 0.1 for row in report["cards"] if row["delta"] is not None),
    ]


def test_each_card_of_the_pool_has_a_row(report: dict) -> None:
    rows = {row["card"]: row for row in report["cards"]}
    assert set(rows) == set(POOL)
    seats = 2 * report["matches"]
    for row in rows.values():
        assert 0 <= row["played_by"] <= row["in_decks"] <= seats
        if row["in_decks"] and row["in_decks"] < seats:
            assert row["delta"] == pytest.approx(row["win_with"] - row["win_without"], abs=1e-3)
            low, high = row["ci95"]
            assert low <= row["delta"] <= high
    assert sum(row["plays"] for row in rows.values()) > 0  # card_played events counted


def test_a_run_is_reproducible_from_its_seed(report: dict) -> None:
    again = balance.balance(
        GAME, ["easy", "easy"], matches=12, seed=3, max_plies=3000, options=ARCANA
    )
    for key in ("cards", "plies", "endings", "seat_advantage", "targets"):
        assert again[key] == report[key]


def test_random_decks_are_legal_and_follow_their_level_round_the_table() -> None:
    rng = random.Random(5)
    for _deck in range(200):
        deck = balance.random_deck(POOL, rng)
        assert deck is not None and len(deck) == DECK_RULES.size
        assert check_deck(deck, POOL) == []
    first, _ = balance.deal_decks(POOL, 1, 0)
    assert balance.deal_decks(POOL, 1, 0)[0] == first != balance.deal_decks(POOL, 1, 1)[0]
    # A pool too small for a legal deck falls back to the archetype decks.
    tiny = {"purge": POOL["purge"]}
    assert balance.random_deck(tiny, rng) is None


def test_the_command_prints_the_report_and_its_targets() -> None:
    args = ["grimhand", "--options", json.dumps(ARCANA), "--balance", "--matches", "4"]
    table = simulate(*args, "--bots", "easy")
    assert "grimhand arcana balance: 4 matches" in table
    assert "targets" in table and "median match at least 20 plies" in table
    assert "seat advantage" in table and "match length in plies" in table
    assert "scrying_orb" in table
    report = json.loads(simulate(*args, "--bots", "easy", "--json"))
    assert report["matches"] == 4 and len(report["targets"]) == 3


def test_bad_balance_runs_get_a_readable_error() -> None:
    with pytest.raises(CommandError, match="add --options"):
        simulate("grimhand", "--balance", "--matches", "2")
    with pytest.raises(CommandError, match="Grimhand Arcana only"):
        simulate("haymaker", "--balance", "--matches", "2")
    with pytest.raises(CommandError, match="takes --bots"):
        simulate("grimhand", "--balance", "--ladder", "--options", json.dumps(ARCANA))
    with pytest.raises(SimulationError, match="two levels"):
        balance.balance(GAME, ["easy"], matches=2, seed=1, max_plies=10, options=ARCANA)
    with pytest.raises(SimulationError, match="pool"):
        balance.balance(
            GAME,
            ["easy", "easy"],
            matches=2,
            seed=1,
            max_plies=10,
            options={**ARCANA, "pool": [{"id": "x"}]},
        )
