"""Chat, its switch and reports: thin views over community.services (docs/community.md).
Every refusal is a fragment (htmx) or a page with a sentence a person can read."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from community import selectors, services
from community.emotes import EMOTES
from community.errors import CommunityError, NotFound
from community.models import Report
from config import inputs
from config.http import HtmxHttpRequest
from config.inputs import BadInput
from games import selectors as games_selectors

CHAT_INPUT_MAX = 2000  # read this much; the service says what the limit is


@require_POST
def chat_post(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    text = ""
    try:
        text = inputs.text(request.POST.get("text"), what="The message", max_length=CHAT_INPUT_MAX)
        emote = inputs.text(request.POST.get("emote"), what="The emote", max_length=32)
        line = services.chat_post(match_id=match_id, user=request.user, text=text, emote=emote)
    except (CommunityError, BadInput) as error:
        if not request.htmx:
            return _notice(request, error.message, status=error.status, match_id=match_id)
        context = {"match_id": match_id, "text": text[:CHAT_INPUT_MAX], "error": error.message}
        return render(request, "community/chat.html#posted", context, status=error.status)
    if not request.htmx:
        return redirect("games:match", match_id=match_id)
    context = {"match_id": match_id, "line": line, "room": line.room}
    return render(request, "community/chat.html#posted", context)


@require_GET
def chat_panel(request: HttpRequest, match_id: int) -> HttpResponse:
    return _panel(request, match_id)


@require_POST
@login_required
def chat_switch(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    try:
        is_on = inputs.one_of(request.POST.get("is_on"), ("on", "off"), what="The chat switch")
    except BadInput as error:
        return _notice(request, error.message, status=400, match_id=match_id)
    services.chat_switch(user=request.user, is_on=is_on == "on")
    if request.htmx:
        return _panel(request, match_id)
    return redirect("games:match", match_id=match_id)


def _panel(request: HttpRequest, match_id: int) -> HttpResponse:
    match = games_selectors.match_get(match_id=match_id)
    if match is None:
        return _notice(request, "There is no such match.", status=404, match_id=None)
    panel = selectors.chat_panel(match=match, user=request.user)
    part = "lines" if request.GET.get("part") == "lines" and panel.is_on else "panel"
    context = {"panel": panel, "emotes": EMOTES.items()}
    return render(request, f"community/chat.html#{part}", context)


@require_http_methods(["GET", "POST"])
@login_required
def report(request: HttpRequest) -> HttpResponse:
    source = request.POST if request.method == "POST" else request.GET
    context: dict = {"reasons": Report.Reason.choices}
    try:
        message_id = inputs.optional_whole_number(source.get("message"), what="The message")
        player = inputs.text(source.get("player"), what="The player", max_length=150).strip()
        context.update(message_id=message_id, player=player)
        if message_id is not None:
            context["line"] = selectors.line_readable(message_id=message_id, user=request.user)
            if context["line"] is None:
                raise NotFound("That message is not one you can see.")
        elif not player:
            raise NotFound("Say which message or which player you report.")
        if request.method == "POST":
            details = inputs.text(source.get("details"), what="The details", max_length=5000)
            context["details"] = details
            filed = services.report_file(
                reporter=request.user,
                reason=inputs.text(source.get("reason"), what="The reason", max_length=16),
                details=details,
                message_id=message_id,
                reported_username=player,
            )
            return render(request, "community/report.html", {"filed": filed})
    except (CommunityError, BadInput) as error:
        context["error"] = error.message
        return render(request, "community/report.html", context, status=error.status)
    return render(request, "community/report.html", context)


def _notice(
    request: HttpRequest, message: str, *, status: int, match_id: int | None
) -> HttpResponse:
    context = {"notice": message, "match_id": match_id}
    return render(request, "community/report.html", context, status=status)
