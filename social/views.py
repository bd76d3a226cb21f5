"""Friends, follows, blocks and challenges: thin views over social.services.

Each POST answers with a redirect and a message (a refusal's message says why, and
nothing was written); an unknown player is a 404 page with its message.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from arcana import services as arcana_services
from arcana.errors import ArcanaError
from config import inputs
from config.errors import page_not_found
from games.errors import MatchError
from social import selectors, services
from social.errors import NoSuchPlayer, SocialError
from social.forms import ChallengeForm


@require_GET
@login_required
def friends(request: HttpRequest) -> HttpResponse:
    context = {
        "friends": selectors.friends_of(user=request.user),
        "blocked": selectors.blocked_players(user=request.user),
        "shows_online": selectors.shows_online(request.user),
    }
    return render(request, "social/friends.html", context)


@require_POST
@login_required
def online_setting(request: HttpRequest) -> HttpResponse:
    shows = inputs.flag(request.POST.get("shows_online"))
    services.visibility_set(user=request.user, shows_online=shows)
    messages.success(
        request,
        "Your friends now see when you are online."
        if shows
        else "Nobody sees when you are online now.",
    )
    return redirect("social:friends")


def _act(request: HttpRequest, username: str, write: Callable[..., Any], done: str) -> HttpResponse:
    try:
        write(user=request.user, username=username)
    except NoSuchPlayer as error:
        return page_not_found(request, error)
    except SocialError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, done.format(name=username))
    return redirect("player", username=username)


@require_POST
@login_required
def follow(request: HttpRequest, username: str) -> HttpResponse:
    return _act(request, username, services.follow_create, "You follow {name}: a friend now.")


@require_POST
@login_required
def unfollow(request: HttpRequest, username: str) -> HttpResponse:
    return _act(request, username, services.follow_delete, "You no longer follow {name}.")


@require_POST
@login_required
def block(request: HttpRequest, username: str) -> HttpResponse:
    done = "You blocked {name}: neither of you can invite, challenge or be paired with the other."
    return _act(request, username, services.block_create, done)


@require_POST
@login_required
def unblock(request: HttpRequest, username: str) -> HttpResponse:
    return _act(request, username, services.block_delete, "You unblocked {name}.")


@require_http_methods(["GET", "POST"])
@login_required
def challenge(request: HttpRequest, username: str) -> HttpResponse:
    """The challenge form (GET) and the invitation it creates (POST): the lobby's choices
    of game, options and clock, with the other seat this player's."""
    try:
        player = services.player_get(username=username)
    except NoSuchPlayer as error:
        return page_not_found(request, error)
    game = inputs.text(request.GET.get("game"), what="The game", default="dogblade")
    form = ChallengeForm(request.POST or None, initial={"game": game}, user=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            match = services.challenge_create(
                user=request.user,
                username=player.get_username(),
                game_slug=form.cleaned_data["game"],
                time_control=form.cleaned_data.get("time_control", ""),
                options=_arcana_options(request, form),
                rules=form.rule_values(),
                is_casual=form.is_casual(),
            )
        except (SocialError, MatchError, ArcanaError) as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, f"Challenge sent: {username} is invited to this table.")
            return redirect(match)
    context = {
        "form": form,
        "player": player,
        "relation": selectors.relation(viewer=request.user, player=player),
    }
    return render(request, "social/challenge.html", context, status=400 if form.errors else 200)


def _arcana_options(request: HttpRequest, form: ChallengeForm) -> dict[str, Any] | None:
    if not form.is_arcana():
        return None
    return arcana_services.match_options(
        user=request.user, deck_id=form.cleaned_data.get("arcana_deck"), is_rated=form.is_rated()
    )
