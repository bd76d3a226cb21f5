"""BaniraCards played out: random runs with invariants, replay, golden logs, hidden
information and properties (decisions in docs/rules/banira.md)."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from games.ai import RandomBot
from games.ai.play import play_match, seat_chance
from games.engine import registry
from games.engine.banira.cards import DECK_SIZE, RARITIES, SLOTS, TYPES
from games.engine.banira.default_deck import DEFAULT_DECK
from games.engine.banira.state import HAND_LIMIT, BaniraState
from games.engine.core import Chance, Event, IllegalMove, InvalidOptions, replay

GAME = registry.get("banira")
# Every move but an unlock costs score or plays a card (at most 50 plays, +8 each), and
# there are ten unlocks: no run is longer than 10 + 50 + (50 + 8 * 50) moves.
MAX_PLIES = 510
MAX_LEGAL_MOVES = HAND_LIMIT * 3 + 10 + HAND_LIMIT + 2
IDS = [card["id"] for card in DEFAULT_DECK]

seeds = st.binary(min_size=32, max_size=32)


def seed_for(index: int) -> bytes:
    return hashlib.sha256(f"banira-play:{index}".encode()).digest()


def every_card(state: BaniraState) -> list[int]:
    return sorted(
        state.deck + state.hand + state.discard + tuple(c for stack in state.field for c in stack)
    )


def check_position(state: BaniraState, moves: list[dict[str, Any]]) -> None:
    """The invariants of every position, cheap enough to check after every move."""
    assert every_card(state) == list(range(DECK_SIZE))
    assert state.points >= 0 and state.stamina >= 0 and state.score >= 0
    for slot, stack in enumerate(state.field):
        assert not stack or state.unlocked >> slot & 1
    if GAME.outcome(state) is None:
        assert moves and len(moves) <= MAX_LEGAL_MOVES
        assert GAME.to_act(state) == (0,)
    else:
        assert not moves and GAME.to_act(state) == ()


def check_view(state: BaniraState, moves: list[dict[str, Any]]) -> None:
    view = GAME.view(state, 0)
    assert GAME.view(state, None) == {**view, "seat": None}
    assert [card["id"] for card in view["hand"]] == [
        state.setup.cards[card].id for card in state.hand[:HAND_LIMIT]
    ]
    assert view["overflow_count"] + len(view["hand"]) == len(state.hand)
    assert view["deck_count"] == len(state.deck)
    plays = {(move["card"], move["slot"]) for move in moves if move["type"] == "play"}
    listed = {
        (card_id, slot)
        for card_id, row in view["costs"].items()
        for slot, entry in row.items()
        if entry["legal"]
    }
    assert listed == plays
    assert all(GAME.is_legal(state, 0, move) for move in moves)


def play_checked(seed: bytes) -> tuple[BaniraState, list[tuple[int, Any]], list[list[Event]]]:
    bot = RandomBot()
    chance = Chance(seed, "test/random-play")
    state = GAME.new(1, seed)
    log: list[tuple[int, Any]] = []
    events: list[list[Event]] = []
    while True:
        moves = GAME.legal_moves(state, 0)
        check_position(state, moves)
        if len(log) % 7 == 0:
            check_view(state, moves)
        if GAME.outcome(state) is not None:
            return state, log, events
        move = bot.choose(GAME, {}, moves, chance)
        state, move_events = GAME.apply(state, 0, move)
        assert all(event.visible_to is None for event in move_events)
        log.append((0, move))
        events.append(move_events)
        assert len(log) <= MAX_PLIES


def test_a_thousand_random_runs_keep_every_invariant_and_replay() -> None:
    reasons: dict[str, int] = {}
    for index in range(1000):
        seed = seed_for(index)
        state, log, events = play_checked(seed)
        outcome = GAME.outcome(state)
        assert outcome is not None and outcome.scores is not None
        reasons[outcome.reason] = reasons.get(outcome.reason, 0) + 1
        if outcome.reason == "complete":
            assert all(state.field) and outcome.scores == (state.score,)
        else:
            assert outcome.scores == (0,) and not GAME.legal_moves(state, 0)
        assert state.ply == len(log)
        if index % 4 == 0:
            replayed, replayed_events = replay(GAME, 1, seed, None, log)
            assert replayed == state and replayed_events == events
    assert set(reasons) == {"complete", "stuck"}, reasons


def test_a_run_replays_to_the_same_states_and_events() -> None:
    for index in range(20):
        seed = seed_for(index)
        state, _plies, log = play_match(GAME, seed, [RandomBot()])
        first = replay(GAME, 1, seed, None, log)
        assert first[0] == state
        assert replay(GAME, 1, seed, None, log) == first


# --- the golden logs --------------------------------------------------------------------------
# If one fails, the deal, the chance stream, the legal-move list or the rules changed.
# Regenerate the constants ONLY for a deliberate rules change (and bump the move-log
# version in docs/move-log.md).


def events_json(events: list[list[Event]]) -> str:
    return json.dumps(
        [
            [{**event.to_json(), "visible_to": event.visible_to} for event in move_events]
            for move_events in events
        ],
        sort_keys=True,
        separators=(",", ":"),
    )


def events_hash(events: list[list[Event]]) -> str:
    return hashlib.sha256(events_json(events).encode()).hexdigest()


# A completed run (played by the greedy bot, written down here so that bot changes do not
# move it): unlocks, plays onto empty slots and stacks, draws, a discard, boosts.
COMPLETE_SEED = bytes.fromhex("7fc3c2c1eb9394af89bee45c15f85978439e1a17e71a3562f1706b10ea641b04")
COMPLETE_LOG = (
    "unlock moon, play to4 moon, unlock sun, play em2 sun, play sa3 moon, unlock diamond, "
    "play di5 diamond, unlock flex, play di1 diamond, play di3 sun, unlock ruby, "
    "play ru3 ruby, play to6 flex, unlock emerald, play em4 emerald, play em3 emerald, "
    "unlock amethyst, play am1 amethyst, boost, unlock topaz, play to1 topaz, "
    "play di6 diamond, play to3 topaz, discard am2, play em1 emerald, unlock aquamarine, "
    "boost, boost, play aq5 aquamarine, unlock sapphire, draw, draw, play to2 topaz, "
    "boost, boost, boost, boost, play sa7 sapphire"
)
COMPLETE_OUTCOME = {"winners": [0], "ranking": [[0]], "reason": "complete", "scores": [107]}
COMPLETE_EVENTS_SHA256 = "1d0e4c42159798653e87a46ed9a2706b5e020d66a2093b3dbe57761e5a58433b"

# A random run, end to end (the random bot's moves come from its own chance stream): all
# ten unlocks, 21 plays with negative draws and overflow, boosts, discards, then stuck.
RANDOM_SEED = bytes.fromhex("39c561d9f045dd951d10f14568bdfb32ca43722347b586c90061e9caf7e869d7")
RANDOM_OUTCOME = {"winners": [], "ranking": [[0]], "reason": "stuck", "scores": [0]}
RANDOM_PLIES = 83
RANDOM_EVENTS_SHA256 = "f667efab919189fade305020b5a71bdfee2b7e36f9258f5929c17708bfc44c76"


def decode(log: str) -> list[tuple[int, dict[str, Any]]]:
    moves = []
    for entry in log.split(", "):
        kind, *rest = entry.split()
        move: dict[str, Any] = {"type": kind}
        if kind == "play":
            move.update(card=rest[0], slot=rest[1])
        elif kind == "discard":
            move["card"] = rest[0]
        elif kind == "unlock":
            move["slot"] = rest[0]
        moves.append((0, move))
    return moves


def test_the_golden_complete_run() -> None:
    state, events = replay(GAME, 1, COMPLETE_SEED, None, decode(COMPLETE_LOG))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.to_json() == COMPLETE_OUTCOME
    assert events_hash(events) == COMPLETE_EVENTS_SHA256


def test_the_golden_random_run() -> None:
    state, plies, log = play_match(GAME, RANDOM_SEED, [RandomBot()])
    state, events = replay(GAME, 1, RANDOM_SEED, None, log)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.to_json() == RANDOM_OUTCOME
    assert plies == RANDOM_PLIES
    assert events_hash(events) == RANDOM_EVENTS_SHA256


# --- hidden information -------------------------------------------------------------------------


def positions(seed: bytes) -> list[BaniraState]:
    state = GAME.new(1, seed)
    states = [state]
    chance = seat_chance(seed, 0)
    while GAME.outcome(state) is None:
        state, _events = GAME.apply(state, 0, chance.choice(GAME.legal_moves(state, 0)))
        states.append(state)
    return states


def shuffle_unseen(state: BaniraState, rng: random.Random) -> BaniraState:
    """The same run but for the deck's order and the overflow's cards, dealt differently."""
    held = state.hand[:HAND_LIMIT]
    pool = list(state.deck + state.hand[HAND_LIMIT:])
    rng.shuffle(pool)
    overflow = len(state.hand) - len(held)
    return state.replace(hand=held + tuple(pool[:overflow]), deck=tuple(pool[overflow:]))


def test_the_view_does_not_depend_on_the_deck_order_or_the_overflow() -> None:
    rng = random.Random(9)
    changed = 0
    for index in range(40):
        for state in positions(seed_for(index))[::3]:
            twin = shuffle_unseen(state, rng)
            assert every_card(twin) == list(range(DECK_SIZE))
            for seat in (0, None):
                assert GAME.view(twin, seat) == GAME.view(state, seat)
            changed += twin != state
    assert changed > 100


def test_no_view_or_event_names_a_face_down_card_in_a_way_that_orders_it() -> None:
    # The unseen cards are listed in deck-list order, never in the order they will come.
    for index in range(10):
        for state in positions(seed_for(index))[::5]:
            view = GAME.view(state, 0)
            unseen = [card["id"] for card in view["unseen"]]
            assert unseen == [id_ for id_ in IDS if id_ in set(unseen)]
            hidden = state.deck + state.hand[HAND_LIMIT:]
            assert sorted(unseen) == sorted(state.setup.cards[card].id for card in hidden)


def test_sample_hidden_keeps_what_the_player_knows() -> None:
    changed = 0
    for index in range(20):
        for state in positions(seed_for(index))[::4]:
            sample = GAME.sample_hidden(state, 0, Chance(seed_for(index), "sample"))
            assert every_card(sample) == list(range(DECK_SIZE))
            assert GAME.view(sample, 0) == GAME.view(state, 0)
            changed += sample.deck != state.deck
            twin = shuffle_unseen(state, random.Random(index))
            twin_sample = GAME.sample_hidden(twin, 0, Chance(seed_for(index), "sample"))
            assert twin_sample == sample  # it depends only on what the player knows
    assert changed > 20


def test_a_sampled_run_plays_on_to_the_end() -> None:
    for index in range(20):
        for state in positions(seed_for(index))[:-1:6]:
            sample = GAME.sample_hidden(state, 0, Chance(seed_for(index), "sample"))
            chance = Chance(seed_for(index), "sample/play")
            while GAME.outcome(sample) is None:
                move = chance.choice(GAME.legal_moves(sample, 0))
                sample, _events = GAME.apply(sample, 0, move)


# --- properties ---------------------------------------------------------------------------------

RANKS = {"rainbow": 4, "gold": 3, "silver": 2, "bronze": 1}
COSTS = {"rainbow": 0, "gold": 3, "silver": 6, "bronze": 9, "shiny": 4}


def oracle(state: BaniraState, move: dict[str, Any]) -> bool:
    """Legality written again from the rules page, independently of the engine."""
    if GAME.outcome(state) is not None:
        return False
    cards = {card.id: card.to_json() for card in state.setup.cards}
    held = [state.setup.cards[card].id for card in state.hand[:HAND_LIMIT]]
    opened = [slot for index, slot in enumerate(SLOTS) if state.unlocked >> index & 1]
    kind = move["type"]
    if kind == "boost":
        return state.score >= 10
    if kind == "draw":
        return bool(state.deck) and state.score >= 2
    if kind == "discard":
        return move["card"] in held and state.score >= 1
    if kind == "unlock":
        return move["slot"] not in opened and len(opened) + 1 <= state.points
    card, slot = cards.get(move["card"]), move["slot"]
    if card is None or move["card"] not in held or slot not in opened:
        return False
    if slot not in (card["element"], card["type"], "flex"):
        return False
    stack = state.field[SLOTS.index(slot)]
    if stack:
        top = state.setup.cards[stack[-1]].to_json()["rarity"]
        mine = card["rarity"]
        if "shiny" not in (top, mine) and RANKS[mine] >= RANKS[top]:
            return False
        cost = COSTS[top]
    else:
        cost = sum(1 for covered in state.field if covered) + 1
    return (
        cost <= state.stamina
        and state.stamina - cost + card["stamina"] >= 0
        and state.points + card["points"] >= 0
    )


@st.composite
def candidate_moves(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(["play", "play", "play", "unlock", "discard", "draw", "boost"]))
    if kind in ("draw", "boost"):
        return {"type": kind}
    if kind == "unlock":
        return {"type": kind, "slot": draw(st.sampled_from(SLOTS))}
    card = draw(st.sampled_from(IDS))
    if kind == "discard":
        return {"type": kind, "card": card}
    return {"type": kind, "card": card, "slot": draw(st.sampled_from(SLOTS))}


@settings(max_examples=60, deadline=None)
@given(seed=seeds, data=st.data())
def test_is_legal_agrees_with_apply_and_the_rules(seed: bytes, data: st.DataObject) -> None:
    state = GAME.new(1, seed)
    chance = Chance(seed, "test/candidates")
    while GAME.outcome(state) is None:
        legal = GAME.legal_moves(state, 0)
        for _ in range(3):
            move = data.draw(candidate_moves())
            expected = oracle(state, move)
            assert GAME.is_legal(state, 0, move) == expected, move
            assert (move in legal) == expected, move
            try:
                GAME.apply(state, 0, move)
            except IllegalMove as refusal:
                assert not expected and refusal.message
            else:
                assert expected
        state, _events = GAME.apply(state, 0, chance.choice(legal))


@settings(max_examples=40, deadline=None)
@given(seed=seeds)
def test_any_seed_plays_deterministically(seed: bytes) -> None:
    first = play_match(GAME, seed, [RandomBot()])
    assert play_match(GAME, seed, [RandomBot()]) == first
    assert every_card(first[0]) == list(range(DECK_SIZE))
    assert GAME.outcome(first[0]) is not None and first[1] <= MAX_PLIES


@settings(max_examples=25, deadline=None)
@given(seed=seeds)
def test_views_are_json_and_never_hold_the_seed(seed: bytes) -> None:
    for state in positions(seed)[::6]:
        view = GAME.view(state, 0)
        text = json.dumps(view)
        assert json.loads(text) == view
        assert seed.hex() not in text


stats = st.integers(-20, 20)
random_cards = st.fixed_dictionaries(
    {
        "name": st.text(min_size=1, max_size=20).filter(str.strip),
        "element": st.sampled_from(["aquamarine", "ruby", "diamond"]),
        "type": st.sampled_from(TYPES),
        "rarity": st.sampled_from(RARITIES),
        "points": stats,
        "stamina": stats,
        "draws": stats,
    }
)


@settings(max_examples=30, deadline=None)
@given(cards=st.lists(random_cards, min_size=50, max_size=50), seed=seeds)
def test_any_valid_deck_list_plays_to_an_end(cards: list[dict[str, Any]], seed: bytes) -> None:
    deck = [{"id": f"c{index}", **card} for index, card in enumerate(cards)]
    state, plies, _log = play_match(GAME, seed, [RandomBot()], {"deck": deck})
    assert GAME.outcome(state) is not None and plies <= MAX_PLIES
    assert every_card(state) == list(range(DECK_SIZE))


@settings(max_examples=40, deadline=None)
@given(
    index=st.integers(0, 49),
    key=st.sampled_from(["id", "name", "element", "type", "rarity", "points", "draws"]),
    value=st.one_of(st.none(), st.integers(-50, 50), st.text(max_size=5), st.booleans()),
)
def test_a_broken_card_is_refused_or_harmless(index: int, key: str, value: Any) -> None:
    deck = [dict(card) for card in DEFAULT_DECK]
    deck[index][key] = value
    try:
        state = GAME.new(1, seed_for(0), {"deck": deck})
    except InvalidOptions as refusal:
        assert refusal.message
    else:
        assert state.setup.cards[index].to_json() == deck[index]
