"""The Arcana pages: my collection (shards, levels, upgrades), the deck builder and the
PvE path.

Thin views: input is read by config.inputs, writes go through arcana.services, reads
through arcana.selectors. A refused deck or upgrade is a message and nothing written: the
builder answers 422 with every problem (its HTMX fragment, or the whole page), an upgrade
a flash message and a 303 back.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from arcana import pve, selectors, services
from arcana.engine import DECK_RULES
from arcana.errors import ArcanaError, DeckRefused
from arcana.models import ArcanaDeck
from config import inputs
from config.errors import page_not_found
from config.http import HtmxHttpRequest

COUNT_PREFIX = "n_"  # the builder's fields: n_<card id> = copies in the deck


@require_GET
@login_required
def collection(request: HttpRequest) -> HttpResponse:
    services.starter_ensure(user=request.user)
    return render(
        request,
        "arcana/collection.html",
        {
            "rows": selectors.collection_for(user=request.user),
            "shards": selectors.shards_of(user=request.user),
        },
    )


@require_POST
@login_required
def upgrade(request: HttpRequest) -> HttpResponse:
    card_id = inputs.text(request.POST.get("card"), what="The card", max_length=40)
    try:
        owned = services.card_upgrade(user=request.user, card_id=card_id)
    except ArcanaError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, f"{owned.card.name} is now level {owned.level}.")
    return redirect("arcana:collection", permanent=False)


@require_GET
@login_required
def decks(request: HttpRequest) -> HttpResponse:
    services.starter_ensure(user=request.user)
    rows = [
        (deck, services.deck_problems_for(user=request.user, card_ids=deck.card_ids))
        for deck in selectors.decks_for(user=request.user)
    ]
    return render(request, "arcana/decks.html", {"rows": rows})


@require_http_methods(["GET", "POST"])
@login_required
def deck_new(request: HtmxHttpRequest) -> HttpResponse:
    services.starter_ensure(user=request.user)
    return _builder(request, None)


@require_http_methods(["GET", "POST"])
@login_required
def deck_edit(request: HtmxHttpRequest, deck_id: int) -> HttpResponse:
    deck = selectors.deck_get(user=request.user, deck_id=deck_id)
    if deck is None:
        return page_not_found(request, ArcanaError("You have no such deck."))
    return _builder(request, deck)


@require_POST
@login_required
def deck_check(request: HtmxHttpRequest) -> HttpResponse:
    """The builder's live check (HTMX, on every change): the count and every problem, no
    write."""
    card_ids = _posted_deck(request)
    problems = services.deck_problems_for(user=request.user, card_ids=card_ids)
    return render(
        request,
        "arcana/deck_edit.html#check",
        {"problems": problems, "size": len(card_ids), "deck_size": DECK_RULES.size},
    )


@require_POST
@login_required
def deck_delete(request: HttpRequest, deck_id: int) -> HttpResponse:
    try:
        services.deck_delete(user=request.user, deck_id=deck_id)
    except ArcanaError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, "Deck deleted.")
    return redirect("arcana:decks")


def _builder(request: HtmxHttpRequest, deck: ArcanaDeck | None) -> HttpResponse:
    name = deck.name if deck else ""
    card_ids = list(deck.card_ids) if deck else []
    problems: list[str] = []
    status = 200
    if request.method == "POST":
        name = inputs.text(request.POST.get("name"), what="The deck's name", max_length=80)
        card_ids = _posted_deck(request)
        try:
            saved = services.deck_save(
                user=request.user,
                name=name,
                card_ids=card_ids,
                deck_id=deck.pk if deck else None,
            )
        except DeckRefused as error:
            problems, status = error.problems, 422
        except ArcanaError as error:
            problems, status = [error.message], error.status
        else:
            messages.success(request, f"Deck “{saved.name}” saved.")
            if request.htmx:
                return HttpResponseClientRedirect(reverse("arcana:decks"))
            return redirect("arcana:decks")
    context = _builder_context(request, deck, name, card_ids, problems)
    template = "arcana/deck_edit.html#builder" if request.htmx else "arcana/deck_edit.html"
    return render(request, template, context, status=status)


def _builder_context(
    request: HttpRequest, deck: ArcanaDeck | None, name: str, card_ids: list[str], problems: list
) -> dict[str, Any]:
    counts = Counter(card_ids)
    rows = [
        (row, counts.get(row.card.card_id, 0))
        for row in selectors.collection_for(user=request.user)
        if row.owned is not None
    ]
    return {
        "deck": deck,
        "name": name,
        "rows": rows,
        "size": len(card_ids),
        "deck_size": DECK_RULES.size,
        "max_copies": DECK_RULES.max_copies,
        "rules": DECK_RULES,
        "problems": problems,
    }


def _posted_deck(request: HttpRequest) -> list[str]:
    """The deck the builder posted: n_<card id> = copies, read as whole numbers. Card ids
    are not checked here: the service says which ones are no card, or not yours."""
    fields = [key for key in request.POST if key.startswith(COUNT_PREFIX)]
    if len(fields) > inputs.LIST_MAX:
        raise inputs.BadInput(f"A deck form has at most {inputs.LIST_MAX} cards.")
    card_ids: list[str] = []
    for key in sorted(fields):
        card_id = inputs.text(key[len(COUNT_PREFIX) :], what="A card id", max_length=40)
        raw = request.POST.get(key) or "0"
        count = inputs.whole_number(raw, what=f"The copies of “{card_id}”", maximum=99)
        card_ids += [card_id] * count
    return card_ids


# --- the PvE path ---------------------------------------------------------------------------


@require_GET
@login_required
def path_page(request: HttpRequest) -> HttpResponse:
    services.starter_ensure(user=request.user)
    return render(request, "arcana/path.html", _path_context(request))


@require_POST
@login_required
def path_fight(request: HttpRequest) -> HttpResponse:
    """Fight a stage: its match against the house, then the match page. A locked or
    unknown stage, or a deck that is not yours or not legal: the path page again with the
    message (4xx), nothing written."""
    stage_key = inputs.text(request.POST.get("stage"), what="The stage", max_length=40)
    deck_id = inputs.optional_whole_number(
        request.POST.get("deck"), what="The deck", minimum=1, maximum=inputs.BIGINT_MAX
    )
    try:
        match = pve.fight_start(user=request.user, stage_key=stage_key, deck_id=deck_id)
    except DeckRefused as error:
        return _path_refused(request, error.problems, error.status)
    except ArcanaError as error:
        return _path_refused(request, [error.message], error.status)
    return redirect(match)


def _path_refused(request: HttpRequest, problems: list[str], status: int) -> HttpResponse:
    context = {**_path_context(request), "problems": problems}
    return render(request, "arcana/path.html", context, status=status)


def _path_context(request: HttpRequest) -> dict[str, Any]:
    decks = selectors.decks_for(user=request.user)
    chosen = next((deck for deck in decks if deck.name == services.STARTER_DECK_NAME), None)
    return {
        "rows": selectors.path_for(user=request.user),
        "decks": decks,
        "chosen_deck": chosen.pk if chosen else None,
        "fights": selectors.fights_recent(user=request.user),
        "problems": [],
    }
