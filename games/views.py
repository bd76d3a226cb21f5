"""Thin views: read input (config.inputs), call a service or a selector, render.

Domain errors and bad input become a 4xx answer with the player's message: the board
fragment (HTMX) or the whole page (plain forms, JavaScript off). Nothing here holds game
logic, and nothing here parses: every value a user sends is read by config.inputs.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.context_processors import csrf
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from config import inputs
from config.errors import page_not_found
from config.http import HtmxHttpRequest
from config.inputs import BadInput
from games import decks, jinja, rendering, selectors, services
from games.ai import levels
from games.boards import has_board, presenter_for, tutorial_for
from games.boards.base import CardFormPresenter
from games.engine import registry
from games.errors import BadMove, MatchError, MatchNotFound
from games.forms import NewMatchForm, QuickPairForm
from games.models import Match, Seek

NO_SUCH_MATCH = "There is no such match."
PRIVATE_RUN = "This run is private until its week ends: everyone plays the same deals."

RELIABILITY_FILTERS = {
    "": "Any host",
    "80": "80% or better",
    "90": "90% or better",
    "95": "95% or better",
}


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
        return _board_response(request, context, status=status)
    return render(request, "games/match.html", context, status=status)


def _board_fragment(
    request: HttpRequest, match: Match, *, just_changed: bool = False
) -> HttpResponse:
    """The board fragment as this viewer sees it: rendered once per change (games.rendering)
    and shared with the pushes, except for a table still waiting for players. A board
    `just_changed` by this request is one no other process can have drawn yet."""
    if match.status == Match.Status.WAITING:
        return _board_response(request, _board_context(request, match))
    seat = selectors.seat_of(match=match, user=request.user)
    viewer = seat if seat is not None and seat.joined is not None else None
    if just_changed:
        return HttpResponse(rendering.boards_just_changed(match=match, seats=[viewer])[0])
    return HttpResponse(rendering.board_html(match=match, seat=viewer))


def _board_response(
    request: HttpRequest,
    context: dict[str, Any],
    *,
    status: int = 200,
    template: str = rendering.BOARD_TEMPLATE,
) -> HttpResponse:
    """A board (or a part of one: Haymaker's action bar) drawn for this request alone: a
    table still waiting for players, a board carrying an error, a move's preview. Its
    context gets what Django's `render` would add: the request, its user, the CSRF token."""
    context.update(csrf(request), request=request, user=request.user)
    return HttpResponse(jinja.render(template, context), status=status)


def _read_match(match_id: int) -> Match | None:
    """The match, with any overdue turn settled first (so a timed-out match ends when it is
    read, even with no beat sweeper running)."""
    match = selectors.match_get(match_id=match_id)
    if match is not None and match.overdue_seats(timezone.now()):
        services.match_settle_overdue(match_id=match_id)
        match = selectors.match_get(match_id=match_id)
    return match


def _error_response(
    request: HtmxHttpRequest, match_id: int, error: MatchError | BadInput
) -> HttpResponse:
    if isinstance(error, MatchNotFound):
        return page_not_found(request, error)
    return _match_response(request, match_id, error=error.message, status=error.status)


@require_GET
def rules(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    if not has_board(slug) or not presenter_for(slug).rules_template:
        return page_not_found(request, MatchNotFound("There are no rules for that game here."))
    presenter = presenter_for(slug)
    return render(
        request, presenter.rules_template, {"game": registry.get(slug), "presenter": presenter}
    )


@require_http_methods(["GET", "POST"])
def tutorial(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """GET: the page that starts the tutorial (a button posting here); POST: start it."""
    if request.method == "GET":
        found = tutorial_for(slug)
        if found is None:
            return page_not_found(request, MatchNotFound("There is no tutorial for that game yet."))
        context = {"tutorial": found, "key": slug, "game": registry.get(found.game)}
        presenter = presenter_for(found.game) if has_board(found.game) else None
        context["has_rules"] = presenter is not None and bool(presenter.rules_template)
        return render(request, "games/tutorial.html", context)
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
    game = inputs.text(request.GET.get("game"), what="The game", default="dogblade")
    form = NewMatchForm(request.POST or None, initial={"game": game}, user=request.user)
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
                options=_new_match_options(request, form),
                rules=form.rule_values(),
                is_casual=form.is_casual(),
                is_private=bool(form.cleaned_data.get("is_private")),
            )
        except MatchError as error:
            form.add_error(None, error.message)
        else:
            return redirect(match)
    status = 400 if form.errors else 200
    return render(request, "games/lobby.html", {"form": form}, status=status)


def _new_match_options(request: HttpRequest, form: NewMatchForm) -> dict[str, Any] | None:
    """Grimhand Arcana's options (a copy of the card pool, my deck, card levels), built by
    the deck source the Arcana app registers (`games.decks`); None for every other table
    (the game's defaults)."""
    if not form.is_arcana():
        return None
    return decks.match_options(
        user=request.user,
        deck_id=form.cleaned_data.get("arcana_deck"),
        is_rated=form.may_be_rated(),
    )


@require_http_methods(["GET", "POST"])
def private_table(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """A private table's link: the invitation (GET) and taking its open seat (POST; at an
    Arcana table, with the deck I picked, as `join` does)."""
    match = selectors.match_by_invite(token=token)
    if match is None:
        return page_not_found(request, MatchNotFound(services.tables.NO_TABLE_AT_LINK))
    if request.method == "POST":
        if not request.user.is_authenticated:
            return _not_logged_in(request)
        try:
            deck_id = inputs.optional_whole_number(
                request.POST.get("arcana_deck"), what="The deck", minimum=1
            )
            mine = decks.join_options(user=request.user, match_id=match.pk, deck_id=deck_id)
            services.match_join_by_link(token=token, user=request.user, seat_options=mine)
        except (MatchError, BadInput) as error:
            return render(
                request,
                "games/private_table.html",
                {**_private_context(match, token), "error": error.message},
                status=error.status,
            )
        return redirect(match)
    return render(request, "games/private_table.html", _private_context(match, token))


def _private_context(match: Match, token: str) -> dict[str, Any]:
    return {"match": match, "token": token, "rules": selectors.table_rules(match=match)}


@require_http_methods(["GET", "POST"])
@login_required
def quick_pair(request: HtmxHttpRequest) -> HttpResponse:
    """Play anyone: the seek form, the seek list, and my search if one is open."""
    form = QuickPairForm(request.POST or None)
    error = ""
    if request.method == "POST" and form.is_valid():
        try:
            seek = services.pairing.seek_create(
                user=request.user,
                game_slug=form.cleaned_data["game"],
                time_control=form.cleaned_data["time_control"],
                is_rated=form.cleaned_data["rated"] == "rated",
            )
        except MatchError as error_:
            error = error_.message
        else:
            return redirect(_seek_target(seek))
    context = {
        "form": form,
        "error": error,
        "seeks": selectors.seek_list(user=request.user),
        "mine": selectors.seek_open_of(user=request.user),
        "time_controls": services.pairing.quick_time_controls(),
    }
    status = 400 if form.errors or error else 200
    return render(request, "games/quick_pair.html", context, status=status)


def _seek_target(seek: Seek) -> str:
    if seek.match is not None:
        return seek.match.get_absolute_url()
    return reverse("games:seek", args=[seek.pk])


@require_GET
@login_required
def seek(request: HtmxHttpRequest, seek_id: int) -> HttpResponse:
    """My search, waiting: the empty state and "play the AI while you wait"."""
    found = selectors.seek_get(user=request.user, seek_id=seek_id)
    if found is None:
        return page_not_found(request, MatchNotFound("You have no such search."))
    if found.match is not None:
        return redirect(found.match)
    return render(request, "games/seek.html", _seek_context(request, found))


def _seek_context(request: HttpRequest, found: Seek) -> dict[str, Any]:
    return {
        "seek": found,
        "is_expired": found.is_expired(timezone.now()),
        "game_name": registry.get(found.game).name,
        "time_control": services.pairing.quick_time_controls().get(found.time_control, ""),
        "others": [s for s in selectors.seek_list(user=request.user) if s.game == found.game],
    }


@require_POST
def seek_poll(request: HtmxHttpRequest, seek_id: int) -> HttpResponse:
    """The waiting page's poll (HTMX): tries the pairing again; paired: off to the match."""
    if not request.user.is_authenticated:
        return _not_logged_in(request)
    try:
        found = services.pairing.seek_refresh(user=request.user, seek_id=seek_id)
    except MatchError as error:
        return page_not_found(request, error)
    if found.match is not None:
        if request.htmx:
            response = HttpResponse(status=204)
            response["HX-Redirect"] = found.match.get_absolute_url()
            return response
        return redirect(found.match)
    if request.htmx:
        return render(request, "games/seek.html#status", _seek_context(request, found))
    return redirect("games:seek", seek_id=seek_id)


@require_POST
def seek_cancel(request: HtmxHttpRequest, seek_id: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return _not_logged_in(request)
    try:
        services.pairing.seek_cancel(user=request.user, seek_id=seek_id)
    except MatchError as error:
        found = selectors.seek_get(user=request.user, seek_id=seek_id)
        if found is not None and found.match is not None:
            return redirect(found.match)
        return page_not_found(request, error)
    messages.success(request, "You stopped looking for a match.")
    return redirect("games:quick_pair")


@require_POST
def seek_accept(request: HtmxHttpRequest, seek_id: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return _not_logged_in(request)
    try:
        match = services.pairing.seek_accept(user=request.user, seek_id=seek_id)
    except MatchError as error:
        messages.error(request, error.message)
        return redirect("games:quick_pair")
    return redirect(match)


@require_GET
def open_matches(request: HtmxHttpRequest) -> HttpResponse:
    """Tables anyone may join (optionally only from hosts at least N% reliable), and the
    public matches being played right now, to watch."""
    min_reliability = inputs.filter_choice(request.GET.get("min_reliability"), RELIABILITY_FILTERS)
    threshold = inputs.optional_whole_number(min_reliability, what="The host filter", maximum=100)
    context = {
        "matches": selectors.open_matches(
            user=request.user, min_reliability=threshold, friends_only=_friends_only(request)
        ),
        "live": selectors.live_matches(user=request.user),
        "filters": RELIABILITY_FILTERS,
        "min_reliability": min_reliability,
        "friends_only": _friends_only(request),
    }
    return render(request, "games/open_matches.html", context)


def _friends_only(request: HttpRequest) -> bool:
    """The lists' friends filter (?friends=1): only players I follow (docs/social.md)."""
    return request.user.is_authenticated and inputs.flag(request.GET.get("friends"))


@require_GET
@login_required
def my_matches(request: HtmxHttpRequest) -> HttpResponse:
    services.timeouts.settle_for_user(user=request.user)
    friends_only = _friends_only(request)
    groups = selectors.matches_for_user(user=request.user, friends_only=friends_only)
    context = {"groups": groups, "friends_only": friends_only}
    return render(request, "games/my_matches.html", context)


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
    have = inputs.text(request.GET.get("have"), what="The board version", max_length=64)
    if have == selectors.board_version(match=found):
        return HttpResponse(status=204)
    return _board_fragment(request, found)


@require_POST
def move(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    if not request.user.is_authenticated:
        return _not_logged_in(request)
    try:
        ply, payload, move_id = _move_input(request, match_id)
        result = services.move_submit(
            match_id=match_id,
            user=request.user,
            ply=ply,
            move=payload,
            move_id=move_id,
            # The page's socket, where its answer is the new board (cardhall.js).
            mover_page=inputs.channel_hint(request.headers.get("X-Board-Socket"))
            if request.htmx
            else "",
        )
    except (MatchError, BadInput) as error:
        return _error_response(request, match_id, error)
    if request.htmx:  # this seat's new board, drawn once: its pushes follow the answer
        return _board_fragment(request, result.match, just_changed=True)
    return redirect("games:match", match_id=match_id)


MOVE_WHAT = "The move"
PLY_WHAT = "The turn number of the move"
MOVE_ID_WHAT = "The move id"


def _move_input(request: HttpRequest, match_id: int) -> tuple[int, Any, str | None]:
    """(ply, move, move id) from a form post or a JSON body, each read by config.inputs; a
    board's own form is read by the board (`form_move`)."""
    if request.content_type == "application/json":
        body = inputs.json_body(request, what="The request", max_length=MOVE_BODY_BYTES)
        if not isinstance(body, dict):
            raise BadMove('Send a JSON object: {"ply": 3, "move": {"type": "attack"}}.')
        return (
            inputs.ply(body.get("ply"), what=PLY_WHAT),
            body.get("move"),
            inputs.optional_text(body.get("move_id"), what=MOVE_ID_WHAT, max_length=64),
        )
    post = request.POST
    ply = inputs.ply(post.get("ply"), what=PLY_WHAT)
    move_id = inputs.optional_text(post.get("move_id"), what=MOVE_ID_WHAT, max_length=64)
    if "move" not in post:  # the board's own form (Haymaker's cards, BaniraCards' slots)
        board = selectors.board_of(match_id=match_id)
        if board is not None and board.form_move is not None:
            return ply, board.form_move(post), move_id
    return (
        ply,
        inputs.json_document(post.get("move", ""), what=MOVE_WHAT, max_length=MOVE_BYTES),
        move_id,
    )


# A move is at most services.MAX_MOVE_BYTES once parsed; its text (or a JSON body around it,
# with the ply and the move id) a little more.
MOVE_BYTES = 4096
MOVE_BODY_BYTES = 8192


@require_GET
def move_preview(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    """A card form's action bar for the checked cards (`?cards=7H&cards=8H&ply=3`): each
    button enabled only if its move is legal now (selectors.move_preview asks the engine)."""
    match = selectors.match_get(match_id=match_id)
    if match is None or not selectors.can_view(match=match, user=request.user):
        return page_not_found(
            request, MatchNotFound(NO_SUCH_MATCH if match is None else PRIVATE_RUN)
        )
    presenter = presenter_for(match.game)
    if not isinstance(presenter, CardFormPresenter):
        return page_not_found(request, MatchNotFound("This board has no move preview."))
    cards = presenter.checked_cards(request.GET.getlist("cards"))
    asked = inputs.optional_whole_number(request.GET.get("ply"), what="The move number")
    context = selectors.move_preview(match=match, user=request.user, cards=cards, ply=asked)
    return _board_response(request, context, template=presenter.preview_template)


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
    """Take my seat; at an Arcana table, with the deck I picked (`arcana_deck`, optional)."""
    if not request.user.is_authenticated:
        return _not_logged_in(request)
    try:
        deck_id = inputs.optional_whole_number(
            request.POST.get("arcana_deck"), what="The deck", minimum=1
        )
        mine = decks.join_options(user=request.user, match_id=match_id, deck_id=deck_id)
        services.match_join(match_id=match_id, user=request.user, seat_options=mine)
    except (MatchError, BadInput) as error:
        return _match_response(request, match_id, error=error.message, status=error.status)
    if not request.htmx:
        messages.success(request, "You took your seat. Good luck!")
    return _after_post(request, match_id)


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
    level = inputs.text(request.POST.get("ai_level"), what="The AI level", default=levels.DEFAULT)
    try:
        services.match_fill_with_ai(match_id=match_id, user=request.user, ai_level=level)
    except MatchError as error:
        return _error_response(request, match_id, error)
    return _after_post(request, match_id)


@require_POST
def autoplay(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    is_enabled = inputs.flag(request.POST.get("enabled"))
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
