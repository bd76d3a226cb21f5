"""Moderation in the Django admin (docs/community.md): the report queue with each report's
context (the match, the lines around the reported one, both players' recent matches),
sanctions (mute or ban, with an expiry and a reason) and removing chat lines. Every change
goes through community.services and writes an audit row (Django's LogEntry)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join

from community import selectors, services
from community.errors import CommunityError
from community.models import ChatMessage, Report, Sanction


def _match_link(match_id: int | None) -> str:
    if match_id is None:
        return "—"
    url = reverse("admin:games_match_change", args=[match_id])
    return format_html('<a href="{}">Match #{}</a>', url, match_id)


def _matches_list(user_id: int) -> str:
    matches = selectors.matches_recent(user_id=user_id)
    if not matches:
        return "No matches."
    return format_html(
        "<ul>{}</ul>",
        format_html_join(
            "",
            '<li><a href="{}">#{} {}</a> · {} · {}</li>',
            (
                (
                    reverse("admin:games_match_change", args=[m.pk]),
                    m.pk,
                    m.game,
                    m.get_status_display(),
                    timezone.localtime(m.created).strftime("%d %b %Y %H:%M"),
                )
                for m in matches
            ),
        ),
    )


class ReportStatusFilter(admin.SimpleListFilter):
    title = "status"
    parameter_name = "status"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("open", "Open"), ("resolved", "Resolved")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Report]) -> QuerySet[Report]:
        if self.value() in ("open", "resolved"):
            return queryset.filter(resolved__isnull=self.value() == "open")
        return queryset


@admin.register(Report)
class ReportAdmin(admin.ModelAdmin):
    list_display = ("id", "reason", "reporter", "reported", "match_link", "created", "is_open")
    list_filter = (ReportStatusFilter, "reason")
    search_fields = ("reporter__username", "reported__username", "details")
    list_select_related = ("reporter", "reported")
    readonly_fields = (
        "reporter",
        "reported",
        "reason",
        "details",
        "created",
        "resolved",
        "resolved_by",
        "match_link",
        "messages_around",
        "reported_matches",
        "reporter_matches",
        "sanction_links",
    )
    fields = readonly_fields
    actions = ("resolve", "remove_reported_messages")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="Match")
    def match_link(self, report: Report) -> str:
        return _match_link(report.match_id)

    @admin.display(boolean=True, description="Open")
    def is_open(self, report: Report) -> bool:
        return report.resolved is None

    @admin.display(description="The messages around it")
    def messages_around(self, report: Report) -> str:
        if report.message is None:
            return "A report of a player, not of a message."
        rows = (
            (
                "reported" if line.pk == report.message_id else "",
                timezone.localtime(line.created).strftime("%H:%M:%S")
                + ("  ⚑ reported" if line.pk == report.message_id else ""),
                line.sender.username,
                line.text,
                " (removed)" if line.removed else "",
            )
            for line in selectors.messages_around(message=report.message)
        )
        return format_html(
            '<ol class="chat-context">{}</ol>',
            format_html_join(
                "",
                '<li class="{}"><b>{}</b> {}: {}<i>{}</i></li>',
                rows,
            ),
        )

    @admin.display(description="Reported player's recent matches")
    def reported_matches(self, report: Report) -> str:
        return _matches_list(report.reported_id)

    @admin.display(description="Reporter's recent matches")
    def reporter_matches(self, report: Report) -> str:
        return _matches_list(report.reporter_id)

    @admin.display(description="Sanction")
    def sanction_links(self, report: Report) -> str:
        add = reverse("admin:community_sanction_add")
        links = (
            (f"{add}?user={report.reported_id}&kind={kind}&report={report.pk}", label)
            for kind, label in (("mute", "Mute"), ("ban", "Ban"))
        )
        return format_html_join(" ", '<a class="button" href="{}">{}</a>', links)

    @admin.action(description="Mark the selected reports resolved")
    def resolve(self, request: HttpRequest, queryset: QuerySet[Report]) -> None:
        for report in queryset:
            services.report_resolve(report=report, by=request.user)
        self.message_user(request, f"{queryset.count()} report(s) resolved.", messages.SUCCESS)

    @admin.action(description="Remove the reported messages")
    def remove_reported_messages(self, request: HttpRequest, queryset: QuerySet[Report]) -> None:
        removed = 0
        for report in queryset.select_related("message"):
            if report.message is not None and report.message.removed is None:
                services.message_remove(message=report.message, by=request.user)
                removed += 1
        self.message_user(request, f"{removed} message(s) removed.", messages.SUCCESS)


class SanctionForm(forms.ModelForm):
    class Meta:
        model = Sanction
        fields = ("user", "kind", "reason", "expires", "report")

    def clean_reason(self) -> str:
        reason = " ".join(self.cleaned_data["reason"].split())
        if not reason:
            raise forms.ValidationError("Give a reason: the player is told it.")
        return reason

    def clean_expires(self) -> Any:
        expires = self.cleaned_data["expires"]
        if expires <= timezone.now():
            raise forms.ValidationError("The end of a sanction must be in the future.")
        return expires


SANCTION_FIELDS = ("user", "kind", "reason", "starts", "expires", "report", "created_by")


@admin.register(Sanction)
class SanctionAdmin(admin.ModelAdmin):
    form = SanctionForm
    list_display = ("id", "user", "kind", "reason", "starts", "expires", "is_active", "created_by")
    list_filter = ("kind",)
    search_fields = ("user__username", "reason")
    raw_id_fields = ("user", "report")
    actions = ("lift",)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        return SANCTION_FIELDS if obj else ()

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(boolean=True, description="Active")
    def is_active(self, sanction: Sanction) -> bool:
        return sanction.starts <= timezone.now() < sanction.expires

    def save_model(self, request: HttpRequest, obj: Sanction, form: Any, change: bool) -> None:
        if change:
            return  # a sanction is not edited: lift it and impose another
        try:
            created = services.sanction_impose(
                user=obj.user,
                kind=obj.kind,
                expires=obj.expires,
                reason=obj.reason,
                by=request.user,
                report=obj.report,
            )
        except CommunityError as error:  # the form checked it; a race with the clock
            self.message_user(request, error.message, messages.ERROR)
            return
        obj.pk, obj.starts, obj.created_by = created.pk, created.starts, created.created_by

    @admin.action(description="Lift the selected sanctions now")
    def lift(self, request: HttpRequest, queryset: QuerySet[Sanction]) -> None:
        for sanction in queryset:
            services.sanction_lift(sanction=sanction, by=request.user)
        self.message_user(request, f"{queryset.count()} sanction(s) lifted.", messages.SUCCESS)


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ("id", "created", "sender", "room", "match_link", "text", "removed")
    list_filter = ("room", ("removed", admin.EmptyFieldListFilter))
    search_fields = ("sender__username", "text")
    list_select_related = ("sender",)
    readonly_fields = (
        "match_link",
        "room",
        "sender",
        "text",
        "emote",
        "created",
        "removed",
        "removed_by",
    )
    fields = readonly_fields
    actions = ("remove",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    @admin.display(description="Match")
    def match_link(self, line: ChatMessage) -> str:
        return _match_link(line.match_id)

    @admin.action(description="Remove the selected messages")
    def remove(self, request: HttpRequest, queryset: QuerySet[ChatMessage]) -> None:
        for line in queryset:
            services.message_remove(message=line, by=request.user)
        self.message_user(request, f"{queryset.count()} message(s) removed.", messages.SUCCESS)
