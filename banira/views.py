"""The BaniraCards page: the deck lists open for practice, starting a run, my recent runs."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from banira import selectors, services
from banira.models import DeckList
from games.errors import MatchError


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    runs = selectors.runs_for_user(user=request.user) if request.user.is_authenticated else []
    return render(
        request,
        "banira/home.html",
        {"deck_lists": selectors.deck_lists_active(), "runs": runs},
    )


@require_POST
@login_required
def practice(request: HttpRequest) -> HttpResponse:
    deck_list = None
    if request.POST.get("deck_list"):
        deck_list = get_object_or_404(DeckList, slug=request.POST["deck_list"], is_active=True)
    try:
        match = services.run_start_practice(user=request.user, deck_list=deck_list)
    except MatchError as error:
        messages.error(request, error.message)
        return redirect("banira:home")
    return redirect(match)
