"""Thin views of a match's past: the replay, the export, and the verify page.

Who may see what is decided in `games.history` (the replay) and `games.fairness` (the
export); refusals carry a message a person can read and a 4xx status, never a 500.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import urlencode
from django.views.decorators.http import require_GET, require_http_methods

from config import inputs
from config.http import HtmxHttpRequest
from config.inputs import BadInput
from games import fairness, history, selectors
from games.errors import MatchError

PAGE = "games/replay.html"
VERIFY_PAGE = "games/verify.html"


def _refusal(request: HttpRequest, error: MatchError | BadInput) -> HttpResponse:
    return render(
        request,
        "errors/error.html",
        {"message": error.message, "status": error.status},
        status=error.status,
    )


@require_GET
def replay(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    """`/matches/<id>/history/?ply=<k>&as=<seat | spectator | revealed>`: the position after
    k moves, drawn by the game's own board template, with the steps around it."""
    try:
        requested_viewer = inputs.text(request.GET.get("as"), what="The view", max_length=20)
        requested_ply = inputs.optional_whole_number(
            request.GET.get("ply"), what="The move number", maximum=inputs.INTEGER_MAX
        )
        match = history.history_match(match_id=match_id, user=request.user)
        viewer = history.history_viewer(match=match, user=request.user, requested=requested_viewer)
        ply = history.history_ply(match=match, requested=requested_ply)
    except (MatchError, BadInput) as error:
        return _refusal(request, error)
    context = history.history_board(match=match, viewer=viewer, ply=ply)
    context.update(
        viewers=history.history_viewers(match=match, user=request.user),
        ply=ply,
        ply_count=match.ply,
        steps=_steps(match.pk, viewer, ply, match.ply),
        is_running=not match.is_finished,
    )
    if request.htmx:
        return render(request, f"{PAGE}#stage", context)
    return render(request, PAGE, context)


def _steps(match_id: int, viewer: history.Viewer, ply: int, last: int) -> dict[str, Any]:
    """The links of the replay bar: first, back, forward, last (None where there is none)."""

    def link(target: int) -> str:
        query = urlencode({"ply": str(target), "as": str(viewer.key)})
        return f"{reverse('games:history', args=[match_id])}?{query}"

    return {
        "first": link(0) if ply > 0 else None,
        "back": link(ply - 1) if ply > 0 else None,
        "forward": link(ply + 1) if ply < last else None,
        "last": link(last) if ply < last else None,
        "percent": round(100 * ply / last) if last else 100,
        "plies": [{"ply": k, "url": link(k)} for k in range(last + 1)] if last <= 400 else [],
    }


@require_GET
def export(request: HttpRequest, match_id: int) -> HttpResponse:
    """`/matches/<id>/export`: the move log as JSON (docs/move-log.md); the seed only once
    it is revealed, and a private run only to its players."""
    try:
        match = history.history_match(match_id=match_id, user=request.user)
    except MatchError as error:
        return JsonResponse({"error": error.message}, status=error.status)
    seat = selectors.seat_of(match=match, user=request.user)
    viewer_seat = seat.index if seat is not None and seat.joined is not None else None
    document = fairness.export_build(match=match, viewer_seat=viewer_seat)
    response = HttpResponse(
        fairness.export_json(document), content_type="application/json; charset=utf-8"
    )
    disposition = "attachment" if inputs.flag(request.GET.get("download")) else "inline"
    filename = f"cardhall-{match.game}-{match.pk}.json"
    response["Content-Disposition"] = f'{disposition}; filename="{filename}"'
    response["Cache-Control"] = "private, no-store"
    return response


@require_http_methods(["GET", "POST"])
def verify(request: HttpRequest) -> HttpResponse:
    """`/verify/`: paste an export, see it replayed and checked; step through it (each step
    posts the export again, so it works without JavaScript and nothing is stored)."""
    if request.method == "GET":
        return render(request, VERIFY_PAGE, {"text": ""})
    too_large = _too_large(request)
    if too_large:
        return render(request, VERIFY_PAGE, {"text": "", "rejected": too_large}, status=413)
    try:
        text = _posted_export(request)
        asked_ply = inputs.optional_whole_number(
            request.POST.get("ply"), what="The move number", maximum=inputs.INTEGER_MAX
        )
    except BadInput as error:
        return render(request, VERIFY_PAGE, {"text": "", "rejected": error.message}, status=400)
    if not text.strip():
        return render(
            request, VERIFY_PAGE, {"text": "", "rejected": "Paste an export first."}, status=400
        )
    try:
        log = fairness.export_parse(text)
    except fairness.ExportRejected as error:
        return render(request, VERIFY_PAGE, {"text": text, "rejected": error.message}, status=400)
    ply = None if asked_ply is None else min(asked_ply, len(log.moves))
    result = fairness.export_verify(log, ply=ply)
    context: dict[str, Any] = {"text": text, "result": result, "checked": log}
    if result.state is not None and result.is_verified:
        context.update(_verify_board(log, result))
    return render(request, VERIFY_PAGE, context, status=200 if result.is_verified else 422)


def _posted_export(request: HttpRequest) -> str:
    """The export pasted, or the file chosen (read as UTF-8, a bad byte replaced); either
    bounded by fairness.MAX_EXPORT_CHARS (the parse says so) and free of control characters."""
    upload = request.FILES.get("file")
    if upload is None:
        raw = request.POST.get("export", "")
    else:
        raw = upload.read(fairness.MAX_EXPORT_CHARS + 1).decode("utf-8", errors="replace")
    return inputs.text(raw, what="The export", max_length=len(raw))


def _too_large(request: HttpRequest) -> str:
    """A body Django would refuse to read as a form (or far beyond any export): say so."""
    length = inputs.whole_number(
        request.META.get("CONTENT_LENGTH") or "0", what="The request's length"
    )
    is_upload = request.content_type == "multipart/form-data"
    limit = fairness.MAX_EXPORT_CHARS + 100_000 if is_upload else _form_limit()
    if length > limit:
        return (
            "That export is too large to check here. Save it to a file and choose the file, "
            "or run manage.py verify_match on it."
        )
    return ""


def _form_limit() -> int:
    return settings.DATA_UPLOAD_MAX_MEMORY_SIZE or fairness.MAX_EXPORT_CHARS * 3


def _verify_board(log: fairness.MatchLog, result: fairness.Verification) -> dict[str, Any]:
    names = [f"Seat {seat}" for seat in range(log.seats)]
    viewer = history.Viewer(history.REVEALED, None, "Everything revealed")
    logged = [
        selectors.LoggedMove(ply, seat, tuple(events)) for ply, seat, events in result.log_events
    ]
    context = history.board_context(
        game=log.game,
        slug=log.game.slug,
        view=log.game.revealed_view(result.state),
        viewer=viewer,
        log=logged,
        names=names,
    )
    last = len(log.moves)
    context.update(
        ply=result.ply,
        ply_count=last,
        match=_VerifiedMatch(log.game.slug, result.ply),
        verify_steps={
            "first": 0 if result.ply > 0 else None,
            "back": result.ply - 1 if result.ply > 0 else None,
            "forward": result.ply + 1 if result.ply < last else None,
            "last": last if result.ply < last else None,
            "percent": round(100 * result.ply / last) if last else 100,
        },
    )
    return context


class _VerifiedMatch:
    """What board templates read of `match` (they post nowhere: nothing is legal here)."""

    pk = 0
    is_finished = True

    def __init__(self, game: str, ply: int) -> None:
        self.game = game
        self.ply = ply
