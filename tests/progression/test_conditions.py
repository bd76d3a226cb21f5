"""The condition language: what parses, what is refused (with a message), what counts."""

from __future__ import annotations

import pytest

from games.ai import get_bot
from games.ai.play import play_match
from games.engine import registry
from games.engine.core import replay
from progression import conditions
from progression.conditions import ConditionError, MatchFacts, count, parse


@pytest.mark.parametrize(
    "text",
    [
        "win",
        "finish in grimhand",
        "win in haymaker where reason = knockout",
        "event blocked sum amount in grimhand",
        "event haymaker in haymaker",
        "event played where slot = flex in banira",
        "event lucky_saved in grimhand",
        "win vs human",
        "event attack where damage >= 5 and target != 0 sum damage",
    ],
)
def test_examples_parse(text):
    assert parse(text).subject in ("win", "finish", "event")


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "Write a condition"),
        ("lose", "starts with"),
        ("event", "needs an event type"),
        ("event blok in grimhand", "no event “blok” in grimhand"),
        ("event blocked in chess", "no game “chess”"),
        ("event blocked sum amout in grimhand", "“amout” is not a field"),
        ("win sum damage", "only goes with “event”"),
        ("win vs robots", "ai, human or any"),
        ("event played where slot is flex", "is not a comparison"),
        ("event played where", "needs a test"),
        ("win in", "needs something after it"),
        ("win please", "I don't understand “please”"),
        ("event reversal in banira", "no event “reversal” in banira"),
    ],
)
def test_bad_conditions_say_what_is_wrong(text, says):
    with pytest.raises(ConditionError) as error:
        parse(text)
    assert says in error.value.message


def _facts(events, *, seat=0, is_winner=True, game="grimhand", human=True, reason="hp"):
    return MatchFacts(game, seat, is_winner, reason, human, tuple(events))


def test_sum_counts_only_my_events():
    events = [
        (1, "attack", {"seat": 1, "target": 0, "damage": 4}),
        (1, "blocked", {"seat": 0, "amount": 7}),  # I blocked during their move: mine
        (0, "blocked", {"seat": 1, "amount": 9}),  # they blocked: not mine
    ]
    condition = parse("event blocked sum amount in grimhand")
    assert count(condition, _facts(events)) == 7
    assert count(condition, _facts(events, seat=1)) == 9
    assert count(condition, _facts(events, game="haymaker")) == 0


def test_where_tests_and_seatless_events_belong_to_the_mover():
    events = [
        (0, "played", {"slot": "flex", "cost": 2}),
        (0, "played", {"slot": "sun", "cost": 1}),
        (0, "played", {"slot": "flex", "cost": 0}),
    ]
    assert count(parse("event played where slot = flex"), _facts(events, game="banira")) == 2
    assert count(parse("event played where cost > 0"), _facts(events, game="banira")) == 2


def test_win_finish_and_versus():
    facts = _facts([], is_winner=False, human=False, reason="death_card")
    assert count(parse("finish"), facts) == 1
    assert count(parse("win"), facts) == 0
    assert count(parse("finish vs human"), facts) == 0
    assert count(parse("finish vs ai"), facts) == 1
    assert count(parse("finish where reason = death_card"), facts) == 1
    assert count(parse("finish where reason = hp"), facts) == 0


@pytest.mark.parametrize("game", conditions.GAMES)
def test_the_catalogue_lists_every_event_the_engines_emit(game):
    """Random bot matches of each game: every event type, and its listed fields, exist."""
    engine = registry.get(game)
    seats = engine.min_seats if engine.max_seats == 1 else max(engine.min_seats, 2)
    for number in range(4):
        seed = bytes([number]) * 32
        _, _, moves = play_match(engine, seed, [get_bot("random") for _ in range(seats)])
        _, events = replay(engine, seats, seed, None, moves)
        for event in (event for move_events in events for event in move_events):
            assert event.type in conditions.EVENTS[game], event
            listed = set(conditions.EVENTS[game][event.type])
            assert listed <= set(event.data), (event.type, listed - set(event.data))
