"""The Bot API's answers, declared (django-ninja schemas): the OpenAPI schema at
/api/v1/schema names every field, and schemathesis checks the live answers against it
(tests/botapi/test_schemathesis_live.py). A game's own view, legal moves and events are
the engine's documents: objects whose fields each game names (docs/bot-api.md)."""

from __future__ import annotations

from typing import Any

from ninja import Schema


class Problem(Schema):
    status: int
    message: str
    field: str | None


# Every refusal of an endpoint (a JSON problem): bad input 400, bad token 401, a missing
# scope 403, no such match 404, a stale ply 409, an illegal move 422, a limit 429.
REFUSALS = frozenset({400, 401, 403, 404, 409, 422, 429})


class RuleOptionOut(Schema):
    name: str
    label: str
    text: str
    default: Any
    choices: list[Any]
    bounds: list[Any] | None


class GameOut(Schema):
    slug: str
    name: str
    min_seats: int
    max_seats: int
    options: list[RuleOptionOut]


class SeatOut(Schema):
    index: int
    kind: str
    name: str
    username: str | None
    ai_level: str | None
    joined: bool
    is_bot: bool


class MatchOut(Schema):
    id: int
    game: str
    status: str
    ply: int
    is_casual: bool
    seed_commitment: str
    seats: list[SeatOut]
    outcome: dict[str, Any] | None


class ClockOut(Schema):
    seat: int
    is_running: bool
    seconds_left: float | None
    bank_seconds: float | None
    deadline: str | None


class SnapshotOut(Schema):
    type: str
    match: MatchOut
    seat: int | None
    ply: int
    to_act: list[int]
    is_my_turn: bool
    view: dict[str, Any] | None
    legal_moves: list[Any]
    clocks: list[ClockOut]


class MoveOut(Schema):
    match: int
    move_ply: int
    ply: int
    is_repeat: bool
    events: list[dict[str, Any]]


def answers(status: int, schema: Any) -> dict[Any, Any]:
    """An endpoint's `response=`: its answer, and the problems it may refuse with."""
    return {status: schema, REFUSALS: Problem}
