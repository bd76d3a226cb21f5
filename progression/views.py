"""The progression pages: my progress and today's quests, the season pass, my collection,
achievements. Views are thin: read through selectors, write through services; a domain
error becomes a flash message and a redirect (a 303 back to the page), nothing written.

The lazy half of the beat: opening a page draws today's quests and rolls the season over
if the beat has not (services.quests_today, services.season_rollover), so the embedded
default with no broker works with one process.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_POST

from config import inputs
from progression import selectors, services
from progression.errors import ProgressionError
from progression.models import TIME_ZONES


@require_GET
@login_required
def home(request: HttpRequest) -> HttpResponse:
    quests = services.quests_today(user=request.user)
    season = services.season_rollover()
    progress = selectors.progress_get(user=request.user)
    return render(
        request,
        "progression/home.html",
        {
            "quests": quests,
            "bar": selectors.level_bar_for(user=request.user),
            "progress": progress,
            "can_reroll": selectors.can_reroll(user=request.user, quests=quests),
            "season_page": selectors.season_page(season=season, user=request.user)
            if season
            else None,
            "time_zones": TIME_ZONES,
            "time_zone": progress.time_zone if progress else "UTC",
        },
    )


@require_POST
@login_required
def quest_reroll(request: HttpRequest, quest_id: int) -> HttpResponse:
    try:
        quest = services.quest_reroll(user=request.user, quest_id=quest_id)
    except ProgressionError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, f"New quest: {quest.template.name}.")
    return redirect("progression:home")


@require_POST
@login_required
def time_zone(request: HttpRequest) -> HttpResponse:
    zone = inputs.text(request.POST.get("time_zone"), what="The time zone", max_length=64)
    try:
        services.time_zone_set(user=request.user, time_zone=zone)
    except ProgressionError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, "Saved. Your next quests follow your new time zone.")
    return redirect("progression:home")


@require_GET
def season(request: HttpRequest) -> HttpResponse:
    current = services.season_rollover()
    page = selectors.season_page(season=current, user=request.user) if current else None
    progress = selectors.progress_get(user=request.user)
    return render(
        request,
        "progression/season.html",
        {"page": page, "coins": progress.coins if progress else 0},
    )


@require_POST
@login_required
def claim(request: HttpRequest) -> HttpResponse:
    tier_id = inputs.record_id(request.POST.get("tier"), what="The reward tier")
    track = inputs.text(request.POST.get("track"), what="The track", max_length=20)
    try:
        applied = services.tier_claim(user=request.user, tier_id=tier_id, track=track)
    except ProgressionError as error:
        messages.error(request, error.message)
    else:
        items = ", ".join(item.name for item in applied.new_cosmetics)
        messages.success(request, f"Reward claimed{': ' + items if items else ''}.")
    return redirect("progression:season")


@require_POST
@login_required
def premium(request: HttpRequest) -> HttpResponse:
    season_id = inputs.record_id(request.POST.get("season"), what="The season")
    try:
        services.premium_buy(user=request.user, season_id=season_id)
    except ProgressionError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, "Premium track unlocked. Claim what you have reached!")
    return redirect("progression:season")


@require_GET
@login_required
def collection(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "progression/collection.html",
        {
            "kinds": selectors.collection(user=request.user),
            "progress": selectors.progress_get(user=request.user),
        },
    )


@require_POST
@login_required
def equip(request: HttpRequest) -> HttpResponse:
    cosmetic_id = inputs.record_id(request.POST.get("cosmetic"), what="The item")
    try:
        services.cosmetic_equip(user=request.user, cosmetic_id=cosmetic_id)
    except ProgressionError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, "Equipped. Your opponents see it on your side of the table.")
    return redirect("progression:collection")


@require_GET
@login_required
def achievements(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "progression/achievements.html",
        {"rows": selectors.achievements_for(user=request.user)},
    )
