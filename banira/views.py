"""The BaniraCards pages: practice and weekly runs, my runs, the leaderboards, past weeks."""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from banira import selectors, services
from banira.models import DeckList
from config import inputs
from games.errors import MatchError


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    challenge = services.weekly_rollover()  # lazy rollover: the page works with no beat
    context: dict[str, Any] = {
        "deck_lists": selectors.deck_lists_active(),
        "runs": [],
        "challenge": challenge,
        "week_end": selectors.week_end(challenge) if challenge else None,
    }
    if request.user.is_authenticated:
        context["runs"] = selectors.runs_for_user(user=request.user)
        if challenge is not None:
            context["weekly_runs"] = selectors.weekly_runs_for_user(
                challenge=challenge, user=request.user
            )
            runs_left = selectors.weekly_runs_left(challenge=challenge, user=request.user)
            context["runs_left"] = runs_left
            context["next_index"] = challenge.runs_per_week - runs_left + 1
    return render(request, "banira/home.html", context)


@require_POST
@login_required
def practice(request: HttpRequest) -> HttpResponse:
    slug = inputs.text(request.POST.get("deck_list"), what="The deck list", max_length=50)
    deck_list = get_object_or_404(DeckList, slug=slug, is_active=True) if slug else None
    try:
        match = services.run_start_practice(user=request.user, deck_list=deck_list)
    except MatchError as error:
        messages.error(request, error.message)
        return redirect("banira:home")
    return redirect(match)


@require_POST
@login_required
def weekly_start(request: HttpRequest) -> HttpResponse:
    try:
        match = services.weekly_run_start(user=request.user)
    except MatchError as error:
        messages.error(request, error.message)
        return redirect("banira:home")
    return redirect(match)


@require_GET
def leaderboard(request: HttpRequest) -> HttpResponse:
    current = services.weekly_rollover()
    challenge = current
    if request.GET.get("week"):
        week = inputs.date(request.GET["week"], what="The week")
        challenge = selectors.week_get(week_start=week)
        if challenge is None:
            raise Http404("There is no weekly challenge that week.")
    return render(
        request,
        "banira/leaderboard.html",
        {
            "challenge": challenge,
            "is_current": challenge is not None and challenge == current,
            "weekly": selectors.weekly_leaderboard(challenge=challenge) if challenge else [],
            "all_time": selectors.all_time_leaderboard(),
        },
    )


@require_GET
def weeks(request: HttpRequest) -> HttpResponse:
    services.weekly_rollover()
    return render(request, "banira/weeks.html", {"weeks": selectors.weeks_revealed()})


@require_GET
def week_deck(request: HttpRequest, week: datetime.date) -> JsonResponse:
    """A week's frozen deck list as the engine takes it (`options["deck"]`), for replays.

    The list is not secret (everyone plays it); only its order, from the seeds, is. The
    week is a date (`<date:week>`): anything else is no page.
    """
    challenge = selectors.week_get(week_start=week)
    if challenge is None:
        raise Http404("There is no weekly challenge that week.")
    return JsonResponse({"deck": challenge.deck}, json_dumps_params={"indent": 1})
