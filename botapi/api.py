"""`/api/v1/`: the Bot API's JSON endpoints (django-ninja), calling the same services as the
web pages (games.services) and the same selectors; no second path for moves.

Every refusal is a JSON problem, `{"status", "message", "field"}`, with the domain error's
own status and message (games.errors): a bad token 401, a missing scope 403, no such match
404, a stale ply 409, an illegal move 422 with the engine's message. Nothing is written on
any of them: the services check before they write, in one transaction.
"""

from __future__ import annotations

from typing import Annotated, Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from ninja import Field, NinjaAPI, Path, Schema, Status
from ninja.errors import AuthenticationError, HttpError, ValidationError

from arcana import services as arcana_services
from arcana.errors import ArcanaError
from botapi import limits, selectors
from botapi import services as api_services
from botapi.auth import BearerToken, caller
from botapi.errors import ApiError, TooMany
from botapi.models import ApiToken
from botapi.schemas import GameOut, MatchOut, MoveOut, SnapshotOut, answers
from config.inputs import INTEGER_MAX, BadInput
from games import fairness, history, rule_options, services
from games import selectors as game_selectors
from games.boards import has_board
from games.engine import registry
from games.errors import BadMove, InvalidMove, MatchError, MatchNotFound, StaleMove

PLAY = ApiToken.Scope.PLAY
READ = ApiToken.Scope.READ

api = NinjaAPI(
    title="Cardhall Bot API",
    version="1",
    description="Play Cardhall from a program: docs/bot-api.md.",
    auth=BearerToken(),
    urls_namespace="botapi-v1",
    docs_url="/docs",
    openapi_url="/schema",
)

MatchId = Annotated[int, Path(ge=1, le=INTEGER_MAX)]


def problem(status: int, message: str, field: str | None = None) -> JsonResponse:
    return JsonResponse({"status": status, "message": message, "field": field}, status=status)


# The field at fault for the domain errors that have one.
ERROR_FIELDS = {StaleMove: "ply", InvalidMove: "move", BadMove: "move"}


@api.exception_handler(MatchError)
def _match_error(request: HttpRequest, error: MatchError) -> HttpResponse:
    field = next((name for kind, name in ERROR_FIELDS.items() if isinstance(error, kind)), None)
    return problem(error.status, error.message, field)


@api.exception_handler(ArcanaError)
def _arcana_error(request: HttpRequest, error: ArcanaError) -> HttpResponse:
    return problem(error.status, error.message, "deck")


@api.exception_handler(ApiError)
def _api_error(request: HttpRequest, error: ApiError) -> HttpResponse:
    response = problem(error.status, error.message, error.field)
    if isinstance(error, TooMany):
        response["Retry-After"] = str(error.retry_after)
    return response


@api.exception_handler(BadInput)
def _bad_input(request: HttpRequest, error: BadInput) -> HttpResponse:
    return problem(error.status, error.message)


@api.exception_handler(AuthenticationError)
def _unauthenticated(request: HttpRequest, error: Exception) -> HttpResponse:
    response = problem(401, "Send a valid API token: Authorization: Bearer <token>.")
    response["WWW-Authenticate"] = "Bearer"
    return response


@api.exception_handler(HttpError)
def _http_error(request: HttpRequest, error: HttpError) -> HttpResponse:
    return problem(error.status_code, str(error))


@api.exception_handler(ValidationError)
def _invalid(request: HttpRequest, error: ValidationError) -> HttpResponse:
    first = error.errors[0] if error.errors else {}
    location = [str(part) for part in first.get("loc", ()) if part not in ("body", "payload")]
    field = ".".join(location) or None
    message = first.get("msg", "That request is not valid.")
    return problem(400, f"{field}: {message}" if field else message, field)


# --- games ----------------------------------------------------------------------------------


@api.get(
    "/games",
    response=answers(200, list[GameOut]),
    summary="The games, with their seat ranges and option schemas",
)
def games(request: HttpRequest) -> list[dict[str, Any]]:
    caller(request, READ)
    return [
        {
            "slug": game.slug,
            "name": game.name,
            "min_seats": game.min_seats,
            "max_seats": game.max_seats,
            "options": [
                {
                    "name": rule.name,
                    "label": rule.label,
                    "text": rule.text,
                    "default": rule.default,
                    "choices": list(rule.option.choices),
                    "bounds": list(rule.option.bounds) if rule.option.bounds else None,
                }
                for rule in rule_options.offered(game.slug)
            ],
        }
        for game in registry.all()
        if has_board(game.slug)
    ]


# --- matches --------------------------------------------------------------------------------

Opponent = str | dict[str, str]


class MatchIn(Schema):
    game: str = Field(max_length=40)
    options: dict[str, str | int] = Field(default_factory=dict)
    opponent: Opponent | list[Opponent] = "open"
    clock: str = Field(default="", max_length=40)
    rated: bool = True


def _seat_spec(opponent: Opponent) -> services.SeatSpec:
    if opponent == "open":
        return services.SeatSpec(kind="open")
    if isinstance(opponent, dict) and len(opponent) == 1:
        ((kind, value),) = opponent.items()
        if kind == "ai":
            return services.SeatSpec(kind="ai", ai_level=value)
        if kind == "user":
            return services.SeatSpec(kind="player", username=value)
    raise ApiError('An opponent is {"ai": level}, {"user": name} or "open".', field="opponent")


@api.post("/matches", response=answers(201, MatchOut), summary="Open a match")
def match_create(request: HttpRequest, body: MatchIn) -> Status:
    user = caller(request, PLAY)
    opponents = body.opponent if isinstance(body.opponent, list) else [body.opponent]
    if len(opponents) > 16:
        raise ApiError("Too many opponents.", field="opponent")
    others = [_seat_spec(opponent) for opponent in opponents]
    token = request.auth  # type: ignore[attr-defined]
    limits.check_matches(user=user, token=token)
    rules = dict(body.options)
    match = api_services.match_open(
        token=token,
        game_slug=body.game,
        others=others,
        time_control=body.clock,
        options=_arcana_options(user, body, rules, others),
        rules=rules,
        is_casual=not body.rated,
    )
    return Status(201, selectors.match_summary(match=match))


def _arcana_options(
    user: Any, body: MatchIn, rules: dict[str, Any], others: list[services.SeatSpec]
) -> dict[str, Any] | None:
    """Grimhand Arcana, as the lobby opens it: `{"variant": "arcana", "deck": id}` in the
    options (the deck one of mine; none: the house's archetype deck) becomes the pool, my
    deck and card levels (arcana.services), the rest stays rule options. None otherwise."""
    variant = rules.pop("variant", "classic")
    deck = rules.pop("deck", None)
    if body.game != "grimhand" or variant == "classic":
        if deck is not None or variant != "classic":
            field = "options.deck" if deck is not None else "options.variant"
            raise ApiError("Only Grimhand has variants: classic or arcana.", field=field)
        return None
    if variant != "arcana":
        raise ApiError('Grimhand\'s variant is "classic" or "arcana".', field="options.variant")
    if deck is not None and (not isinstance(deck, int) or isinstance(deck, bool) or deck < 1):
        raise ApiError("The deck is the id of one of your Arcana decks.", field="options.deck")
    may_be_rated = body.rated and bool(others) and all(seat.kind != "ai" for seat in others)
    return arcana_services.match_options(user=user, deck_id=deck, is_rated=may_be_rated)


def _visible_match(match_id: int, user: Any) -> Any:
    match = game_selectors.match_get(match_id=match_id)
    if match is None or not game_selectors.can_view(match=match, user=user):
        raise MatchNotFound("There is no such match.")
    return match


@api.get(
    "/matches/{match_id}",
    response=answers(200, SnapshotOut),
    summary="The match as my seat sees it",
)
def match_view(request: HttpRequest, match_id: MatchId) -> dict[str, Any]:
    user = caller(request, READ)
    return selectors.seat_snapshot(match=_visible_match(match_id, user), user=user)


@api.post(
    "/matches/{match_id}/accept",
    response=answers(200, MatchOut),
    summary="Accept an invitation (or take an open seat)",
)
def match_accept(
    request: HttpRequest, match_id: MatchId, deck: int | None = None
) -> dict[str, Any]:
    """At an Arcana table, `?deck=<id>` plays one of my decks (none: an archetype deck)."""
    user = caller(request, PLAY)
    _visible_match(match_id, user)
    token = request.auth  # type: ignore[attr-defined]
    limits.check_matches(user=user, token=token)
    if deck is not None and not 1 <= deck <= INTEGER_MAX:
        raise ApiError("The deck is the id of one of your Arcana decks.", field="deck")
    mine = arcana_services.join_choice(user=user, match_id=match_id, deck_id=deck)
    match = api_services.match_take_seat(token=token, match_id=match_id, seat_options=mine)
    return selectors.match_summary(match=match)


@api.post(
    "/matches/{match_id}/decline",
    response=answers(200, MatchOut),
    summary="Decline an invitation (or call a table off)",
)
def match_decline(request: HttpRequest, match_id: MatchId) -> dict[str, Any]:
    user = caller(request, PLAY)
    _visible_match(match_id, user)
    match = services.match_cancel(match_id=match_id, user=user)
    return selectors.match_summary(match=match)


class MoveIn(Schema):
    ply: int = Field(ge=0, le=INTEGER_MAX)
    move: dict[str, Any]
    move_id: str | None = Field(default=None, min_length=1, max_length=64)


@api.post("/matches/{match_id}/moves", response=answers(200, MoveOut), summary="Make a move")
def move(request: HttpRequest, match_id: MatchId, body: MoveIn) -> dict[str, Any]:
    user = caller(request, PLAY)
    _visible_match(match_id, user)
    result = services.move_submit(
        match_id=match_id, user=user, ply=body.ply, move=body.move, move_id=body.move_id
    )
    seat = game_selectors.seat_of(match=result.match, user=user)
    index = seat.index if seat is not None else None
    return {
        "match": match_id,
        "move_ply": result.ply,
        "ply": result.ply + 1,
        "is_repeat": result.is_repeat,
        "events": [event.to_json() for event in result.events if event.is_visible_to(index)],
    }


@api.post("/matches/{match_id}/resign", response=answers(200, MatchOut), summary="Resign")
def resign(request: HttpRequest, match_id: MatchId) -> dict[str, Any]:
    user = caller(request, PLAY)
    _visible_match(match_id, user)
    match = services.match_resign(match_id=match_id, user=user)
    return selectors.match_summary(match=match)


@api.get(
    "/matches/{match_id}/export",
    response=answers(200, dict[str, Any]),
    summary="The versioned export (docs/move-log.md)",
)
def export(request: HttpRequest, match_id: MatchId) -> dict[str, Any]:
    user = caller(request, READ)
    match = history.history_match(match_id=match_id, user=user)
    seat = game_selectors.seat_of(match=match, user=user)
    viewer_seat = seat.index if seat is not None and seat.joined is not None else None
    return fairness.export_build(match=match, viewer_seat=viewer_seat)
