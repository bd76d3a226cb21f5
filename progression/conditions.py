"""The condition language of quests and achievements: what counts, written as one line.

A condition says what one finished match adds to a counter; the template beside it says
how far the counter must go (its `target`). Examples, each a line an admin types:

    win                                   a match won, any game
    finish in grimhand                    a Grimhand match played to its end
    win in haymaker where reason = knockout
    event blocked sum amount in grimhand  damage I blocked (the sum of `amount`)
    event haymaker in haymaker            a haymaker I threw
    event played where slot = flex in banira      a card on BaniraCards' Flex slot
    event lucky_saved in grimhand         a Death card I survived
    win vs human                          a win against people only

Grammar (words are separated by spaces; clauses after the subject in any order):

    condition := subject clause*
    subject   := "win" | "finish" | "event" EVENT_TYPE
    clause    := "in" GAME | "vs" ("ai" | "human" | "any")
               | "where" test ("and" test)* | "sum" FIELD
    test      := FIELD ("=" | "!=" | ">" | ">=" | "<" | "<=") VALUE

`win`/`finish` count matches (their `where` tests read the outcome: `reason`); `event`
counts the engine events that are mine (see `event_seat`), or sums one of their fields.
`parse` checks everything against the catalogue of each game's events below, so a typo is
a clear message in the admin rather than a quest nobody can complete.

Pure Python: no Django import, so the parser is tested without a database.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

# Every event type of every engine, with the fields a condition may test or sum. Read from
# games/engine/*/; tests/progression/test_conditions.py plays random matches of each game and
# checks every event they emit is listed here, so an engine change cannot silently break a
# quest.
EVENTS: dict[str, dict[str, tuple[str, ...]]] = {
    "grimhand": {
        "draw": ("seat", "deck"),
        "card_to_hand": ("seat", "deck", "value"),
        "lucky_slotted": ("seat", "deck"),
        "death_card": ("seat", "deck"),
        "death": ("seat",),
        "lucky_saved": ("seat",),
        "hp_penalty": ("seat", "amount", "hp"),
        "hand_flushed": ("seat", "deck"),
        "card_discarded": ("seat", "deck", "value"),
        "attack": ("seat", "target", "attack_total", "defense_total", "damage", "hp"),
        "blocked": ("seat", "amount"),
        "reshuffled": ("deck", "count"),
        "pass": ("seat",),
    },
    "haymaker": {
        "attack": ("seat", "strength"),
        "haymaker": ("seat", "strength"),
        "block": ("seat", "strength", "attack_strength"),
        "reversal": ("seat",),
        "hit": ("seat", "attacker", "count"),
        "cards_taken": ("from", "to"),
        "knockout": ("winner", "loser", "cards_left"),
        "technical_knockout": ("winner", "loser"),
        "decision": (),
        "pass": ("seat",),
        "roles_switched": ("attacker", "defender"),
        "card_drawn": ("seat", "deck_count"),
        "drew": ("seat", "card"),
        "discarded": ("seat", "count"),
    },
    "banira": {
        "played": ("slot", "cost", "stacked", "depth", "score_gain"),
        "drew": ("count", "manual", "to_overflow", "short", "score_cost"),
        "removed": ("from_hand", "from_overflow", "from_deck", "short"),
        "discarded": (),
        "overflow_entered": (),
        "unlocked": ("slot", "cost"),
        "boosted": (),
        "run_complete": ("score", "plays"),
        "run_stuck": ("score", "score_left"),
    },
    "dogblade": {
        "attack": ("seat", "target", "damage", "hp"),
        "monster_drawn": ("seat",),
        "monster_defeated": ("seat",),
        "out_of_cards": ("seat", "winner"),
    },
    "shield": {
        "shield_chosen": ("seat",),
        "confirmed": ("seat",),
        "play_started": (),
        "next_turn": ("seat",),
        "attack": ("seat", "target", "power", "shield"),
        "hit": ("seat", "target", "power", "shield", "damage", "hp"),
        "blocked": ("seat", "target", "power", "shield"),
        "eliminated": ("seat", "place"),
        "gave": ("seat", "target", "count"),
        "boost": ("seat", "power"),
        "stored": ("seat",),
        "stored_discarded": ("seat",),
        "shield_changed": ("seat", "target"),
        "attack_dropped": ("seat",),
        "last_standing": ("winner",),
        "reshuffled": ("count",),
        "forfeit": ("seat",),
    },
}
GAMES = tuple(EVENTS)
MATCH_FIELDS = ("reason",)  # what `win`/`finish` may test
# Whose an event is, for events that name no `seat`: these fields name the player it is about.
OWNER_FIELDS = ("seat", "winner", "to", "attacker")

OPERATORS: dict[str, Callable[[Any, Any], bool]] = {
    "=": operator.eq,
    "!=": operator.ne,
    ">": operator.gt,
    ">=": operator.ge,
    "<": operator.lt,
    "<=": operator.le,
}


class ConditionError(ValueError):
    """A condition that does not parse; `message` says what is wrong, for the admin."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Test:
    field: str
    op: str
    value: Any

    def holds(self, data: Mapping[str, Any]) -> bool:
        if self.field not in data:
            return False
        actual = data[self.field]
        if isinstance(actual, bool):
            actual = "true" if actual else "false"
        try:
            return OPERATORS[self.op](actual, self.value)
        except TypeError:  # "flex" > 3: a test that cannot hold
            return False


@dataclass(frozen=True)
class Condition:
    """A parsed condition: what one match adds to a counter (see `count`)."""

    subject: str  # "win", "finish" or "event"
    event_type: str = ""
    game: str = ""  # "" = any game
    versus: str = "any"  # "ai", "human" or "any"
    tests: tuple[Test, ...] = field(default=())
    sum_field: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "subject": self.subject,
            "event": self.event_type,
            "game": self.game,
            "vs": self.versus,
            "where": [[t.field, t.op, t.value] for t in self.tests],
            "sum": self.sum_field,
        }


@dataclass(frozen=True)
class MatchFacts:
    """What a condition may look at, for one player in one finished match."""

    game: str
    seat: int
    is_winner: bool
    reason: str
    has_human_opponent: bool
    events: tuple[tuple[int, str, Mapping[str, Any]], ...]  # (mover seat, type, data)


def parse(text: str) -> Condition:
    """The condition written in `text`, or ConditionError saying what is wrong."""
    words = text.split()
    if not words:
        raise ConditionError("Write a condition, e.g. “win” or “event blocked sum amount”.")
    subject, rest = words[0].lower(), words[1:]
    event_type = ""
    if subject == "event":
        if not rest:
            raise ConditionError("“event” needs an event type, e.g. “event reversal”.")
        event_type, rest = rest[0], rest[1:]
    elif subject not in ("win", "finish"):
        raise ConditionError(
            f"A condition starts with “win”, “finish” or “event <type>”, not “{words[0]}”."
        )
    game, versus, tests, sum_field = _clauses(rest)
    condition = Condition(subject, event_type, game, versus, tests, sum_field)
    _check(condition)
    return condition


def _clauses(words: list[str]) -> tuple[str, str, tuple[Test, ...], str]:
    game, versus, sum_field = "", "any", ""
    tests: list[Test] = []
    at = 0
    while at < len(words):
        word = words[at].lower()
        if word in ("in", "vs", "sum"):
            value = words[at + 1] if at + 1 < len(words) else None
            if value is None:
                raise ConditionError(f"“{word}” needs something after it.")
            if word == "in":
                game = value.lower()
            elif word == "vs":
                versus = value.lower()
            else:
                sum_field = value
            at += 2
        elif word == "where":
            at = _tests(words, at + 1, tests)
        else:
            raise ConditionError(
                f"I don't understand “{words[at]}”: after the subject come "
                "“in <game>”, “vs ai|human”, “where <field> = <value>” or “sum <field>”."
            )
    return game, versus, tuple(tests), sum_field


def _tests(words: list[str], at: int, tests: list[Test]) -> int:
    while True:
        if at + 2 >= len(words):
            raise ConditionError("“where” needs a test like “slot = flex” or “amount >= 5”.")
        name, op, raw = words[at], words[at + 1], words[at + 2]
        if op not in OPERATORS:
            raise ConditionError(
                f"“{op}” is not a comparison; use one of {' '.join(OPERATORS)} "
                "(with spaces around it)."
            )
        tests.append(Test(name, op, _value(raw)))
        at += 3
        if at < len(words) and words[at].lower() == "and":
            at += 1
            continue
        return at


def _value(raw: str) -> Any:
    try:
        return int(raw)
    except ValueError:
        return raw.strip("\"'").lower()


def _check(condition: Condition) -> None:
    if condition.game and condition.game not in EVENTS:
        raise ConditionError(
            f"There is no game “{condition.game}”; the games are {', '.join(GAMES)}."
        )
    if condition.versus not in ("ai", "human", "any"):
        raise ConditionError(f"“vs” takes ai, human or any, not “{condition.versus}”.")
    if condition.subject != "event":
        if condition.sum_field:
            raise ConditionError("“sum” only goes with “event”: a match counts as one.")
        _check_fields((t.field for t in condition.tests), MATCH_FIELDS, "a match result")
        return
    games = [condition.game] if condition.game else list(GAMES)
    having = [game for game in games if condition.event_type in EVENTS[game]]
    if not having:
        where = f"in {condition.game}" if condition.game else "in any game"
        known = sorted({t for game in games for t in EVENTS[game]})
        raise ConditionError(
            f"There is no event “{condition.event_type}” {where}. Known: {', '.join(known)}."
        )
    fields = {f for game in having for f in EVENTS[game][condition.event_type]}
    named = [t.field for t in condition.tests] + (
        [condition.sum_field] if condition.sum_field else []
    )
    _check_fields(named, tuple(sorted(fields)), f"the event “{condition.event_type}”")


def _check_fields(named: Iterable[str], allowed: tuple[str, ...], what: str) -> None:
    for name in named:
        if name not in allowed:
            listed = ", ".join(allowed) or "no fields"
            raise ConditionError(f"“{name}” is not a field of {what} (it has {listed}).")


def event_seat(mover: int, data: Mapping[str, Any]) -> int | None:
    """The seat an event is about: its `seat` (or winner, receiver, attacker), else the mover.

    So "blocked" counts for the defender who blocked, even during the attacker's move, and
    a BaniraCards "played" (no seat: one player) counts for the one who moved.
    """
    for name in OWNER_FIELDS:
        value = data.get(name)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return mover


def count(condition: Condition, facts: MatchFacts) -> int:
    """How much this match adds to the condition's counter for this player."""
    if condition.game and condition.game != facts.game:
        return 0
    if condition.versus == "ai" and facts.has_human_opponent:
        return 0
    if condition.versus == "human" and not facts.has_human_opponent:
        return 0
    if condition.subject in ("win", "finish"):
        if condition.subject == "win" and not facts.is_winner:
            return 0
        return int(all(t.holds({"reason": facts.reason}) for t in condition.tests))
    total = 0
    for mover, event_type, data in facts.events:
        if event_type != condition.event_type or event_seat(mover, data) != facts.seat:
            continue
        if not all(t.holds(data) for t in condition.tests):
            continue
        if condition.sum_field:
            value = data.get(condition.sum_field)
            total += value if isinstance(value, int) and value > 0 else 0
        else:
            total += 1
    return total
