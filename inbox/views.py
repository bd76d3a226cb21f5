"""The notification centre and its settings. Views validate input and call services/selectors.

Marking read is a POST (a plain form, enhanced by htmx: the list comes back with the bell's
new count swapped out of band). Opening a notification is a GET that marks it read and goes
to its match, like the links of the emails: harmless to repeat, and only its owner can.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from config import inputs
from config.http import AuthenticatedHttpRequest
from inbox import centre, selectors, services, webpush
from inbox.errors import InboxError
from inbox.forms import SettingsForm
from progression.selectors import time_zone_of


def _list_context(request: HttpRequest) -> dict[str, object]:
    """One page of the grouped list (inbox.centre): `?page=` (1, the newest, by default) and
    `?kind=` (every kind by default); a bad value answers 400 with the reason."""
    number = inputs.whole_number(
        request.GET.get("page", "1"), what="The page", minimum=1, maximum=PAGES_MAX
    )
    kind = inputs.one_of(request.GET.get("kind", ""), ["", *centre.KINDS], what="The kind")
    page = centre.page_for(user=request.user, number=number, kind=kind)
    here = urlencode({key: value for key, value in (("page", number), ("kind", kind)) if value})
    return {
        "page": page,
        "kinds": centre.KINDS,
        "kind_label": centre.KINDS.get(kind, ""),
        "here": f"?{here}" if number > 1 or kind else "",
    }


PAGES_MAX = 10_000  # far beyond any inbox: 90 days of notices, PAGE_SIZE matches a page


@login_required
@require_GET
def notification_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    return render(request, "inbox/notifications.html", _list_context(request))


def _after_marking(request: HttpRequest) -> HttpResponse:
    if getattr(request, "htmx", False):
        context = {**_list_context(request), "oob_bell": True}
        return render(request, "inbox/notifications.html#list", context)
    return redirect(reverse("inbox:list") + str(_list_context(request)["here"]))


@login_required
@require_POST
def mark_read(request: AuthenticatedHttpRequest, notification_id: int) -> HttpResponse:
    notification = selectors.notification_of(user=request.user, notification_id=notification_id)
    if notification is None:
        raise Http404("There is no such notification.")
    services.notifications_mark_read(user=request.user, notification=notification)
    return _after_marking(request)


@login_required
@require_POST
def mark_all_read(request: AuthenticatedHttpRequest) -> HttpResponse:
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
def notification_open(request: AuthenticatedHttpRequest, notification_id: int) -> HttpResponse:
    """Follow a notification: it is read now, and its link (a page of this site) opens."""
    notification = selectors.notification_of(user=request.user, notification_id=notification_id)
    if notification is None:
        raise Http404("There is no such notification.")
    services.notifications_mark_read(user=request.user, notification=notification)
    is_safe = url_has_allowed_host_and_scheme(notification.url, allowed_hosts=None)
    return redirect(notification.url if notification.url and is_safe else "inbox:list")


@login_required
@require_http_methods(["GET", "POST"])
def notification_settings(request: AuthenticatedHttpRequest) -> HttpResponse:
    prefs = services.settings_get(user=request.user)
    push_ready = webpush.is_configured()
    status = 200
    if request.method == "POST":
        form = SettingsForm(request.POST, push_ready=push_ready)
        if form.is_valid():
            choices = dict(form.cleaned_data)
            if not push_ready:
                choices.pop("push")  # off on this server: the player's choice is kept
            try:
                services.settings_update(user=request.user, **choices)
            except InboxError as error:
                form.add_error(None, error.message)
            else:
                messages.success(request, "Your notification settings are saved.")
                return redirect("inbox:settings")
        status = 400
    else:
        form = SettingsForm.for_settings(prefs, push_ready=push_ready)
    return render(
        request,
        "inbox/settings.html",
        {
            "form": form,
            "email": request.user.email,
            "time_zone": time_zone_of(user=request.user).key,
            "push_ready": push_ready,
            "push_key": webpush.public_key(),
            "push_devices": selectors.push_device_count(user=request.user),
        },
        status=status,
    )


SUBSCRIPTION_MAX = 4096  # characters of a subscription's JSON (a real one is about 400)


@login_required
@require_POST
def push_subscribe(request: AuthenticatedHttpRequest) -> JsonResponse:
    """Remember this browser's push subscription (JSON: `PushSubscription.toJSON()`).
    201 with the player's device count; 400 and nothing written on a bad one; 409 when
    push is not set up on this server."""
    try:
        document = inputs.json_body(request, what="The subscription", max_length=SUBSCRIPTION_MAX)
        subscription = webpush.subscription_read(document)
        device = inputs.FORBIDDEN.sub("", request.headers.get("User-Agent", ""))[:120]
        services.push_subscribe(user=request.user, subscription=subscription, device=device)
    except inputs.BadInput as error:
        return JsonResponse({"error": error.message}, status=400)
    except webpush.BadSubscription as error:
        return JsonResponse({"error": error.message}, status=400)
    except InboxError as error:
        return JsonResponse({"error": error.message}, status=error.status)
    count = selectors.push_device_count(user=request.user)
    return JsonResponse({"ok": True, "devices": count}, status=201)


@login_required
@require_POST
def push_unsubscribe(request: AuthenticatedHttpRequest) -> JsonResponse:
    """Forget this browser (JSON: `{"endpoint": ...}`); forgetting one already gone is fine."""
    try:
        document = inputs.json_body(request, what="The request", max_length=SUBSCRIPTION_MAX)
        endpoint = document.get("endpoint") if isinstance(document, dict) else None
        endpoint = inputs.text(endpoint, what="The endpoint", max_length=webpush.ENDPOINT_MAX)
    except inputs.BadInput as error:
        return JsonResponse({"error": error.message}, status=400)
    if not endpoint:
        return JsonResponse({"error": "Say which endpoint to forget."}, status=400)
    removed = services.push_unsubscribe(user=request.user, endpoint=endpoint)
    count = selectors.push_device_count(user=request.user)
    return JsonResponse({"ok": True, "removed": removed, "devices": count})
