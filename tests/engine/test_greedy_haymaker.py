"""The greedy bot at Haymaker: it beats the random bot over paired deals (and the simulator
pairs deals and reports a confidence interval).

The 90%-over-1,000-matches measurement is in docs/benchmarks.md; this test asserts a
looser bound over fewer matches so it stays fast and never flaky.
"""

from __future__ import annotations

import hashlib
import json
from io import StringIO

from games.ai import RandomBot, get_bot
from games.ai.greedy import GreedyBot, evaluator_for
from games.ai.haymaker_greedy import evaluate
from games.ai.play import play_match
from games.engine import registry
from games.engine.core import Chance
from games.engine.haymaker.cards import NAMES

GAME = registry.get("haymaker")
PAIRS = 100


def deal_seed(index: int) -> bytes:
    return hashlib.sha256(f"greedy-haymaker:{index}".encode()).digest()


def test_greedy_beats_random_in_paired_matches() -> None:
    wins = 0
    for index in range(PAIRS):
        seed = deal_seed(index)  # each deal twice, with the seats swapped
        for greedy_seat in (0, 1):
            bots = [GreedyBot(), RandomBot()] if greedy_seat == 0 else [RandomBot(), GreedyBot()]
            state, _plies, _moves = play_match(GAME, seed, bots)
            outcome = GAME.outcome(state)
            assert outcome is not None
            wins += greedy_seat in outcome.winners
    assert wins / (2 * PAIRS) >= 0.85, wins


def test_greedy_is_registered_and_reproducible() -> None:
    assert isinstance(get_bot("greedy"), GreedyBot)
    assert evaluator_for("haymaker") is evaluate
    seed = deal_seed(0)
    first = play_match(GAME, seed, [GreedyBot(), GreedyBot()])
    assert play_match(GAME, seed, [GreedyBot(), GreedyBot()]) == first


def test_greedy_always_picks_a_listed_move_from_its_own_view() -> None:
    seed = deal_seed(1)
    state = GAME.new(2, seed)
    chance = Chance(seed, "test/greedy")
    while GAME.outcome(state) is None:
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_moves(state, seat)
        move = GreedyBot().choose(GAME, GAME.view(state, seat), legal, chance)
        assert move in legal
        state, _events = GAME.apply(state, seat, move)


def test_greedy_knocks_out_an_empty_handed_defender() -> None:
    names = ["9C", "2S", "5H"]
    burned = [card for card in NAMES if card not in names + ["AD"]]
    deal = {"hands": [names, ["AD"]], "deck": [], "burned": burned, "first": 0}
    state = GAME.new(2, deal_seed(2), {"deal": deal})
    state, _events = GAME.apply(state, 0, {"type": "attack", "cards": ["9C"]})
    state, _events = GAME.apply(state, 1, {"type": "take_hit"})  # seat 1 now holds nothing
    legal = GAME.legal_moves(state, 0)
    move = GreedyBot().choose(GAME, GAME.view(state, 0), legal, Chance(deal_seed(2)))
    state, _events = GAME.apply(state, 0, move)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == (0,) and outcome.reason == "knockout"


def test_greedy_plays_a_game_without_a_heuristic_at_random() -> None:
    dogblade = registry.get("dogblade")
    state, _plies, _moves = play_match(dogblade, deal_seed(3), [GreedyBot(), RandomBot()])
    assert dogblade.outcome(state) is not None


def test_simulate_pairs_each_deal_and_reports_a_wilson_interval() -> None:
    from django.core.management import call_command

    from games.ai.simulation.deals import deal_index
    from games.ai.simulation.stats import wilson_interval

    assert [deal_index(2, index, True) for index in range(6)] == [0, 0, 1, 1, 2, 2]
    assert [deal_index(2, index, False) for index in range(3)] == [0, 1, 2]
    low, high = wilson_interval(996, 1000)
    assert (round(low, 4), round(high, 4)) == (0.9898, 0.9984)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == 1.0

    out = StringIO()
    args = ("haymaker", "--matches", "40", "--bots", "normal,easy", "--json")
    call_command("simulate", *args, stdout=out)
    report = json.loads(out.getvalue())
    assert report["paired"] is True and report["rotate_seats"] is True
    share = report["bots"][0]["wins"] / report["matches"]
    assert report["ci95"][0] <= share <= report["ci95"][1]
    unpaired = StringIO()
    call_command("simulate", *args, "--no-paired", stdout=unpaired)
    assert json.loads(unpaired.getvalue())["paired"] is False
