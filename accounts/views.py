"""Profile and public player pages. Views validate input and call services/selectors."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.errors import SoundRefused, VacationRefused
from accounts.forms import ProfileForm
from accounts.names import display_name
from accounts.selectors import (
    is_on_vacation,
    player_recent_matches,
    player_record,
    user_get_by_username,
    vacation_days_left,
)
from accounts.services import (
    profile_ensure,
    profile_update,
    sound_update,
    vacation_end,
    vacation_start,
)
from config import inputs
from config.http import AuthenticatedHttpRequest
from games.selectors import reliability


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: AuthenticatedHttpRequest) -> HttpResponse:
    """My profile: my record, and the form to change my display name."""
    profile = profile_ensure(user=request.user)
    if request.method == "POST":
        form = ProfileForm(request.POST)
        if form.is_valid():
            try:
                profile = profile_update(
                    user=request.user, display_name=form.cleaned_data["display_name"]
                )
            except ValidationError as error:
                form.add_error("display_name", error)
            else:
                messages.success(request, f"Your display name is now “{profile.name}”.")
                return redirect("profile")
    else:
        form = ProfileForm(initial={"display_name": profile.display_name or profile.name})
    context = {
        "profile": profile,
        "form": form,
        "record": player_record(user=request.user),
        "reliability": reliability(user=request.user),
        "recent_matches": player_recent_matches(user=request.user),
        "on_vacation": is_on_vacation(profile=profile),
        "vacation_days_left": vacation_days_left(profile=profile),
    }
    return render(request, "accounts/profile.html", context)


@login_required
@require_POST
def vacation(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Start (with a number of days) or end my vacation."""
    is_ending = request.POST.get("action") == "end"
    days = (
        None
        if is_ending
        else inputs.whole_number(
            request.POST.get("days"), what="The number of vacation days", maximum=366
        )
    )
    profile_ensure(user=request.user)
    try:
        if days is None:
            vacation_end(user=request.user)
            messages.success(request, "Welcome back! Your clocks run again.")
        else:
            profile = vacation_start(user=request.user, days=days)
            messages.success(
                request, f"Enjoy your break: your clocks wait until {profile.vacation_until:%d %b}."
            )
    except VacationRefused as error:
        messages.error(request, error.message)
    return redirect("profile")


MUTED_VALUES = {"1": True, "on": True, "true": True, "0": False, "off": False, "false": False}


@login_required
@require_POST
def sound(request: AuthenticatedHttpRequest) -> HttpResponse:
    """My sound settings (the header's volume and mute, static/js/sound.js): `volume` 0-100
    and `muted` on/off. Answers JSON: the settings kept, or a 400 with `error` (nothing
    written)."""
    try:
        volume = inputs.whole_number(request.POST.get("volume"), what="The volume", maximum=100)
        muted = MUTED_VALUES.get(str(request.POST.get("muted", "off")).strip().lower())
        if muted is None:
            raise inputs.BadInput("Mute must be on or off.")
        profile = sound_update(user=request.user, volume=volume, muted=muted)
    except inputs.BadInput as error:
        return JsonResponse({"error": error.message}, status=400)
    except SoundRefused as error:
        return JsonResponse({"error": error.message}, status=400)
    return JsonResponse({"volume": profile.sound_volume, "muted": profile.sound_muted})


@require_GET
def player(request: HttpRequest, username: str) -> HttpResponse:
    """A player's public page: name, joined date, record, recent finished matches."""
    user = user_get_by_username(username=username)
    if user is None:
        raise Http404("No such player.")
    context = {
        "player": user,
        "player_name": display_name(user),
        "record": player_record(user=user),
        "reliability": reliability(user=user),
        "recent_matches": player_recent_matches(user=user),
    }
    return render(request, "accounts/player.html", context)
