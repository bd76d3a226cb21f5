"""The notification centre and its settings. Views validate input and call services/selectors.

Marking read is a POST (a plain form, enhanced by htmx: the list comes back with the bell's
new count swapped out of band). Opening a notification is a GET that marks it read and goes
to its match, like the links of the emails: harmless to repeat, and only its owner can.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from inbox import selectors, services
from inbox.errors import InboxError
from inbox.forms import SettingsForm
from progression.selectors import time_zone_of


def _list_context(request: HttpRequest) -> dict[str, object]:
    notifications = selectors.notifications_for(user=request.user)
    return {
        "notifications": notifications,
        "has_unread": any(not notification.is_read for notification in notifications),
    }


@login_required
@require_GET
def notification_list(request: HttpRequest) -> HttpResponse:
    return render(request, "inbox/notifications.html", _list_context(request))


def _after_marking(request: HttpRequest) -> HttpResponse:
    if getattr(request, "htmx", False):
        context = {**_list_context(request), "oob_bell": True}
        return render(request, "inbox/notifications.html#list", context)
    return redirect("inbox:list")


@login_required
@require_POST
def mark_read(request: HttpRequest, notification_id: int) -> HttpResponse:
    if selectors.notification_of(user=request.user, notification_id=notification_id) is None:
        raise Http404("There is no such notification.")
    services.notifications_mark_read(user=request.user, notification_id=notification_id)
    return _after_marking(request)


@login_required
@require_POST
def mark_all_read(request: HttpRequest) -> HttpResponse:
    count = services.notifications_mark_read(user=request.user)
    if not getattr(request, "htmx", False):
        messages.success(
            request,
            f"Marked {count} notification{'s' if count != 1 else ''} read."
            if count
            else "Nothing was unread.",
        )
    return _after_marking(request)


@login_required
@require_GET
def notification_open(request: HttpRequest, notification_id: int) -> HttpResponse:
    """Follow a notification: it is read now, and its link (a page of this site) opens."""
    notification = selectors.notification_of(user=request.user, notification_id=notification_id)
    if notification is None:
        raise Http404("There is no such notification.")
    services.notifications_mark_read(user=request.user, notification_id=notification.pk)
    is_safe = url_has_allowed_host_and_scheme(notification.url, allowed_hosts=None)
    return redirect(notification.url if notification.url and is_safe else "inbox:list")


@login_required
@require_http_methods(["GET", "POST"])
def notification_settings(request: HttpRequest) -> HttpResponse:
    prefs = services.settings_get(user=request.user)
    status = 200
    if request.method == "POST":
        form = SettingsForm(request.POST)
        if form.is_valid():
            try:
                services.settings_update(user=request.user, **form.cleaned_data)
            except InboxError as error:
                form.add_error(None, error.message)
            else:
                messages.success(request, "Your notification settings are saved.")
                return redirect("inbox:settings")
        status = 400
    else:
        form = SettingsForm.for_settings(prefs)
    return render(
        request,
        "inbox/settings.html",
        {
            "form": form,
            "email": request.user.email,
            "time_zone": time_zone_of(user=request.user).key,
        },
        status=status,
    )
