"""Profile and public player pages. Views validate input and call services/selectors."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.forms import ProfileForm
from accounts.names import display_name
from accounts.selectors import player_recent_matches, player_record, user_get_by_username
from accounts.services import profile_ensure, profile_update
from games.errors import MatchError
from games.selectors import reliability
from games.services import clock


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
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
        "on_vacation": bool(profile.vacation_until and profile.vacation_until > timezone.now()),
        "vacation_days_left": clock.vacation_days_left(profile),
    }
    return render(request, "accounts/profile.html", context)


@login_required
@require_POST
def vacation(request: HttpRequest) -> HttpResponse:
    """Start (with a number of days) or end my vacation."""
    profile_ensure(user=request.user)
    try:
        if request.POST.get("action") == "end":
            clock.vacation_end(user=request.user)
            messages.success(request, "Welcome back! Your clocks run again.")
        else:
            profile = clock.vacation_start(user=request.user, days=request.POST.get("days"))
            messages.success(
                request, f"Enjoy your break: your clocks wait until {profile.vacation_until:%d %b}."
            )
    except MatchError as error:
        messages.error(request, error.message)
    return redirect("profile")


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
