"""The request types the site's views take, for the type checker: what the middleware adds
to a Django request."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class HtmxHttpRequest(HttpRequest):
    """Any request: django-htmx's middleware adds `htmx` (truthy for an HTMX request)."""

    htmx: HtmxDetails


class AuthenticatedHttpRequest(HtmxHttpRequest):
    """The request of a login-required view: its user is signed in."""

    user: User
