"""Thin views: validate input, call a service or a selector, render.

Domain errors become a 4xx answer with the player's message: the board fragment (HTMX) or
the whole page (plain forms, JavaScript off). Nothing here holds game logic.
"""

from __future__ import annotations

import json
import re
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.middleware import HtmxDetails

from games import rendering, selectors, services, tutorials
from games.boards import has_board, presenter_for
from games.engine import registry
from games.errors import BadMove, MatchError, MatchNotFound
from games.forms import NewMatchForm
from games.models import Match

NO_SUCH_MATCH = "There is no such match."
PRIVATE_RUN = "This run is private until its week ends: everyone plays the same deals."

RELIABILITY_FILTERS = {
    "": "Any host",
    "80": "80% or better",
    "90": "90% or better",
    "95": "95% or better",
}

UPCOMING = [
    ("grimhand", "Grimhand Tactics"),
    ("banira", "BaniraCards"),
    ("haymaker", "Haymaker"),
    ("shield", "Shield"),
]


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def _board_context(request: HttpRequest, match: Match, error: str = "") -> dict[str, Any]:
    seat = selectors.seat_of(match=match, user=request.user)
    context = selectors.match_board(match=match, seat=seat)
    context["error"] = error
    return context


def _match_response(request: HtmxHttpRequest, match_id: int, *, error: str = "", status: int = 200):
    """The board fragment for HTMX, else the whole match page (a 404 page for no match)."""
    match = _read_match(match_id)
    if match is None or not selectors.can_view(match=match, user=request.user):
        return page_not_found(
            request, MatchNotFound(NO_SUCH_MATCH if match is None else PRIVATE_RUN)
        )
    if request.htmx and not error:
        return _board_fragment(request, match)
    context = _board_context(request, match, error)
    if request.htmx:
        return render(request, "games/match.html#board", context, status=status)
    return render(request, "games/match.html", context, status=status)


def _board_fragment(request: HttpRequest, match: Match) -> HttpResponse:
    """The board fragment as this viewer sees it: rendered once per change (games.rendering)
    and shared with the pushes, except for a table still waiting for players."""
    if match.status == Match.Status.WAITING:
        return render(request, "games/match.html#board", _board_context(request, match))
    seat = selectors.seat_of(match=match, user=request.user)
    is_seated = seat is not None and seat.joined is not None
    return HttpResponse(rendering.board_html(match=match, seat=seat if is_seated else None))


def _read_match(match_id: int) -> Match | None:
    """The match, with any overdue turn settled first (so a timed-out match ends when it is
    read, even with no beat sweeper running)."""
    match = selectors.match_get(match_id=match_id)
    if match is not None and match.overdue_seats(timezone.now()):
        services.match_settle_overdue(match_id=match_id)
        match = selectors.match_get(match_id=match_id)
    return match


def _error_response(request: HtmxHttpRequest, match_id: int, error: MatchError) -> HttpResponse:
    if isinstance(error, MatchNotFound):
        return page_not_found(request, error)
    return _match_response(request, match_id, error=error.message, status=error.status)


@require_GET
def home(request: HtmxHttpRequest) -> HttpResponse:
    games = [
        {
            "game": game,
            "tagline": presenter_for(game.slug).tagline,
            "has_rules": bool(presenter_for(game.slug).rules_template),
            "has_tutorial": tutorials.get(game.slug) is not None,
        }
        for game in registry.all()
        if has_board(game.slug)
    ]
    upcoming = [{"slug": slug, "name": name} for slug, name in UPCOMING if not has_board(slug)]
    return render(
        request,
        "games/home.html",
        {
            "games": games,
            "upcoming": upcoming,
            "turns": selectors.turn_count_for(user=request.user),
        },
    )


@require_GET
def rules(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    if not has_board(slug) or not presenter_for(slug).rules_template:
        return page_not_found(request, MatchNotFound("There are no rules for that game here."))
    presenter = presenter_for(slug)
    return render(
        request, presenter.rules_template, {"game": registry.get(slug), "presenter": presenter}
    )


@require_POST
def tutorial(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect(f"{settings.LOGIN_URL}?next={request.path}")
    try:
        match = services.tutorial_start(user=request.user, game_slug=slug)
    except MatchError as error:
        return page_not_found(request, error)
    return redirect(match)


@require_http_methods(["GET", "POST"])
@login_required
def lobby(request: HtmxHttpRequest) -> HttpResponse:
    form = NewMatchForm(request.POST or None, initial={"game": request.GET.get("game", "dogblade")})
    # BaniraCards runs start from their own page (deck lists, practice runs): no table here.
    if request.method == "POST" and request.POST.get("game") == "banira":
        return redirect("banira:home")
    if request.method == "POST" and form.is_valid():
        try:
            match = services.match_create(
                creator=request.user,
                game_slug=form.cleaned_data["game"],
                others=form.other_seats(),
                time_control=form.cleaned_data.get("time_control", ""),
            )
        except MatchError as error:
            form.add_error(None, error.message)
        else:
            return redirect(match)
    status = 400 if form.errors else 200
    return render(request, "games/lobby.html", {"form": form}, status=status)


@require_GET
def open_matches(request: HtmxHttpRequest) -> HttpResponse:
    """Tables anyone may join (optionally only from hosts at least N% reliable), and the
    public matches being played right now, to watch."""
    min_reliability = request.GET.get("min_reliability", "")
    is_known = min_reliability in RELIABILITY_FILTERS and min_reliability != ""
    threshold = int(min_reliability) if is_known else None
    context = {
        "matches": selectors.open_matches(user=request.user, min_reliability=threshold),
        "live": selectors.live_matches(user=request.user),
        "filters": RELIABILITY_FILTERS,
        "min_reliability": min_reliability if threshold is not None else "",
    }
    return render(request, "games/open_matches.html", context)


@require_GET
@login_required
def my_matches(request: HtmxHttpRequest) -> HttpResponse:
    services.clock.settle_for_user(user=request.user)
    return render(
        request, "games/my_matches.html", {"groups": selectors.matches_for_user(user=request.user)}
    )


@require_GET
def match(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    return _match_response(request, match_id)


@require_GET
def board(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    """The board fragment; 204 when the page already holds this version (cheap polling)."""
    found = _read_match(match_id)
    if found is None or not selectors.can_view(match=found, user=request.user):
        return page_not_found(
            request, MatchNotFound(NO_SUCH_MATCH if found is None else PRIVATE_RUN)
        )
    if request.GET.get("have") == selectors.board_version(match=found):
        return HttpResponse(status=204)
    return _board_fragment(request, found)


@require_POST
def move(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return _not_logged_in(request)
    try:
        ply, payload, move_id = _move_input(request)
        result = services.move_submit(
            match_id=match_id, user=request.user, ply=ply, move=payload, move_id=move_id
        )
    except MatchError as error:
        return _error_response(request, match_id, error)
    if request.htmx:  # the board just pushed to this seat's pages, rendered once
        return _board_fragment(request, result.match)
    return redirect("games:match", match_id=match_id)


def _move_input(request: HttpRequest) -> tuple[Any, Any, str | None]:
    """(ply, move, move id) from a form post or a JSON body."""
    if request.content_type == "application/json":
        try:
            body = json.loads(request.body or b"null")
        except (ValueError, UnicodeDecodeError):
            raise BadMove("That request is not valid JSON.") from None
        if not isinstance(body, dict):
            raise BadMove('Send a JSON object: {"ply": 3, "move": {"type": "attack"}}.')
        return body.get("ply"), body.get("move"), _move_id(body.get("move_id"))
    if "action" in request.POST and "move" not in request.POST:
        payload = _card_form_move(request.POST["action"], request.POST.getlist("cards"))
        return request.POST.get("ply"), payload, _move_id(request.POST.get("move_id"))
    if ("slot" in request.POST or "discard" in request.POST) and "move" not in request.POST:
        payload = _card_slot_move(request.POST)
        return request.POST.get("ply"), payload, _move_id(request.POST.get("move_id"))
    raw = request.POST.get("move", "")
    try:
        payload = json.loads(raw)
    except ValueError:
        raise BadMove("That move could not be read. Reload the page and try again.") from None
    return request.POST.get("ply"), payload, _move_id(request.POST.get("move_id"))


# Buttons of a card form that play no cards, whatever is checked (Haymaker's "take the
# hit" and "pass").
CARDLESS_ACTIONS = frozenset({"pass", "take_hit"})
ACTION_SHAPE = re.compile(r"[a-z_]{1,32}")


def _card_form_move(action: str, cards: list[str]) -> dict[str, Any]:
    """The move of a card form: the button pressed ("action") and the cards checked."""
    if not ACTION_SHAPE.fullmatch(action):
        raise BadMove("That button does not make a move here. Reload the page and try again.")
    if action in CARDLESS_ACTIONS:
        return {"type": action}
    return {"type": action, "cards": cards}


def _card_slot_move(post: Any) -> dict[str, Any]:
    """The move of a card-and-slot form (BaniraCards): the card radio checked, then the slot
    button pressed plays it there; the "discard" button discards it instead."""
    card = post.get("card", "")
    if not card:
        raise BadMove("Pick a card from your hand first, then a slot.")
    if "discard" in post:
        return {"type": "discard", "card": card}
    return {"type": "play", "card": card, "slot": post["slot"]}


def _move_id(value: Any) -> str | None:
    if value in (None, ""):
        return None
    if not isinstance(value, str) or len(value) > 64:
        raise BadMove("That move id is not valid.")
    return value


@require_GET
def move_preview(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    """A card form's action bar for the checked cards (`?cards=7H&cards=8H&ply=3`).

    Each button is enabled only if the engine says its move is legal now. No seat, not
    your turn, or a page behind the match (`ply`): every button disabled.
    """
    match = selectors.match_get(match_id=match_id)
    if match is None or not selectors.can_view(match=match, user=request.user):
        return page_not_found(
            request, MatchNotFound(NO_SUCH_MATCH if match is None else PRIVATE_RUN)
        )
    presenter = presenter_for(match.game)
    if not hasattr(presenter, "action_bar"):
        return page_not_found(request, MatchNotFound("This board has no move preview."))
    context = _board_context(request, match)
    cards = request.GET.getlist("cards")
    is_current = request.GET.get("ply", str(match.ply)) == str(match.ply)
    seat = context["seat_index"] if context["is_my_turn"] and is_current else None
    game, state = context["game"], selectors.match_position(match=match).state

    def is_legal(action: str) -> bool:
        return seat is not None and game.is_legal(state, seat, _card_form_move(action, cards))

    context["view"]["bar"] = presenter.action_bar(
        view=context["view"], cards=cards, is_legal=is_legal
    )
    return render(request, presenter.preview_template, context)


def _after_post(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    if request.htmx:
        return _match_response(request, match_id)
    return redirect("games:match", match_id=match_id)


def _not_logged_in(request: HttpRequest) -> HttpResponse:
    return render(request, "errors/error.html", {"message": "Log in to play."}, status=403)


@require_POST
def resign(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    return _seat_action(request, match_id, services.match_resign, "You resigned.")


@require_POST
def join(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    return _seat_action(request, match_id, services.match_join, "You took your seat. Good luck!")


@require_POST
def cancel(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    return _seat_action(request, match_id, services.match_cancel, "The match was called off.")


@require_POST
def pause(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    return _seat_action(
        request, match_id, services.match_pause_request, "You asked to pause the match."
    )


@require_POST
def pause_withdraw(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    return _seat_action(
        request, match_id, services.match_pause_withdraw, "The request to pause was withdrawn."
    )


@require_POST
def resume(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    return _seat_action(request, match_id, services.match_resume, "The clocks run again.")


@require_POST
def rematch(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    """Open the rematch (or take my seat in the one another player opened) and go there."""
    if not request.user.is_authenticated:
        return _not_logged_in(request)
    try:
        new = services.match_rematch(match_id=match_id, user=request.user)
    except MatchError as error:
        return _error_response(request, match_id, error)
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = new.get_absolute_url()
        return response
    return redirect(new)


@require_POST
def fill_with_ai(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return _not_logged_in(request)
    level = request.POST.get("ai_level", "random")
    try:
        services.match_fill_with_ai(match_id=match_id, user=request.user, ai_level=level)
    except MatchError as error:
        return _error_response(request, match_id, error)
    return _after_post(request, match_id)


@require_POST
def autoplay(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    is_enabled = request.POST.get("enabled") == "on"
    if not request.user.is_authenticated:
        return _not_logged_in(request)
    try:
        services.seat_set_autoplay(match_id=match_id, user=request.user, is_enabled=is_enabled)
    except MatchError as error:
        return _error_response(request, match_id, error)
    return _after_post(request, match_id)


def _seat_action(request: HtmxHttpRequest, match_id: int, action: Any, done: str) -> HttpResponse:
    if not request.user.is_authenticated:
        return _not_logged_in(request)
    try:
        action(match_id=match_id, user=request.user)
    except MatchError as error:
        return _error_response(request, match_id, error)
    if not request.htmx:
        messages.success(request, done)
    return _after_post(request, match_id)


def _error_page(request: HttpRequest, status: int, message: str) -> HttpResponse:
    return render(
        request, "errors/error.html", {"message": message, "status": status}, status=status
    )


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _error_page(request, 400, "That request could not be understood.")


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _error_page(request, 403, "You are not allowed to do that.")


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    message = getattr(exception, "message", "") or "There is nothing here."
    return _error_page(request, 404, message)


def server_error(request: HttpRequest) -> HttpResponse:
    return render(request, "errors/500.html", status=500)
