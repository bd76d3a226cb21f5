"""Matches in the Django admin: read-only, with two rulings for a stuck or disputed match
(abort, adjudicate) through games.services.adjudication. Each action asks for a reason on
a form of its own and writes an audit row (Django's LogEntry: who, what, when, why) for
every match it changed (docs/operations-admin.md)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.errors import MatchError
from games.models import Match, Move, Seat
from games.services import adjudication

DRAW = "draw"


class RulingForm(forms.Form):
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
        max_length=adjudication.MAX_REASON,
        help_text="Required. Both players are told it, and it is kept in the audit log.",
    )

    def __init__(self, *args: Any, match: Match | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if match is not None:  # adjudicating: choose the result among this match's seats
            seats = [(str(seat.index), f"{seat.label} wins") for seat in match.seats.all()]
            self.fields["result"] = forms.ChoiceField(
                choices=[*seats, (DRAW, "A draw")], widget=forms.RadioSelect
            )

    def clean_reason(self) -> str:
        reason = " ".join(self.cleaned_data["reason"].split())
        if not reason:
            raise forms.ValidationError("Give a reason: the players are told it.")
        return reason

    @property
    def winner(self) -> int | None:
        result = self.cleaned_data["result"]
        return None if result == DRAW else int(result)


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = (
        "index",
        "kind",
        "user",
        "ai_level",
        "joined",
        "resigned",
        "timed_out",
        "autoplay",
        "deadline",
    )
    readonly_fields = fields
    can_delete = False


class MoveInline(admin.TabularInline):
    model = Move
    extra = 0
    fields = ("ply", "seat", "payload", "user", "created")
    readonly_fields = fields
    can_delete = False
    ordering = ("ply",)


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    """Read-only: a match changes only through games.services (the move log is append-only)."""

    list_display = ("id", "game", "status", "ply", "created", "updated")
    list_filter = ("game", "status")
    search_fields = ("id", "seats__user__username")
    readonly_fields = (
        "game",
        "options",
        "size",
        "status",
        "seed_commitment",
        "ply",
        "to_act",
        "created_by",
        "created",
        "updated",
        "started",
        "finished",
        "outcome",
    )
    exclude = ("seed",)  # secret until the match ends; never shown, not even to staff
    inlines = [SeatInline, MoveInline]
    actions = ["abort_matches", "adjudicate_match"]

    def has_add_permission(self, request):
        return False

    @admin.action(description="Abort the selected matches (unrated, no XP)…")
    def abort_matches(self, request: HttpRequest, queryset: Any) -> HttpResponse | None:
        matches = list(queryset.order_by("pk"))
        form = RulingForm(request.POST if "apply" in request.POST else None)
        if "apply" in request.POST and form.is_valid():
            reason = form.cleaned_data["reason"]
            for match in matches:
                self._rule(request, match, "Aborted", reason, adjudication.match_abort)
            return None
        return self._form(request, form, matches, "abort_matches", "Abort matches")

    @admin.action(description="Adjudicate the selected match (declare a winner or a draw)…")
    def adjudicate_match(self, request: HttpRequest, queryset: Any) -> HttpResponse | None:
        matches = list(queryset.order_by("pk")[:2])
        if len(matches) != 1:
            self.message_user(request, "Adjudicate one match at a time.", messages.ERROR)
            return None
        match = matches[0]
        form = RulingForm(request.POST if "apply" in request.POST else None, match=match)
        if "apply" in request.POST and form.is_valid():
            winner = form.winner
            result = "a draw" if winner is None else f"seat {winner} wins"

            def adjudicate(**kwargs: Any) -> adjudication.Ruling:
                return adjudication.match_adjudicate(winner=winner, **kwargs)

            reason = form.cleaned_data["reason"]
            self._rule(request, match, f"Adjudicated ({result})", reason, adjudicate)
            return None
        return self._form(request, form, matches, "adjudicate_match", "Adjudicate a match")

    def _rule(self, request: HttpRequest, match: Match, done: str, reason: str, rule: Any) -> None:
        """One ruling through the service; an audit row for each match it changed."""
        try:
            ruling = rule(match_id=match.pk, admin=request.user, reason=reason)
        except MatchError as error:
            self.message_user(request, f"{match}: {error.message}", messages.ERROR)
            return
        if not ruling.changed:
            self.message_user(request, ruling.message, messages.WARNING)
            return
        self.log_change(request, ruling.match, f"{done}. Reason: {reason}")
        self.message_user(request, ruling.message, messages.SUCCESS)

    def _form(
        self, request: HttpRequest, form: RulingForm, matches: list[Match], action: str, title: str
    ) -> HttpResponse:
        return render(
            request,
            "admin/games/match/ruling.html",
            {
                **self.admin_site.each_context(request),
                "title": title,
                "form": form,
                "matches": matches,
                "action": action,
                "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
                "opts": self.model._meta,
            },
        )
