"""The site's error pages: Django's handler400/403/404/500 (web.urls) and the 404 that
views answer with when a thing is not there or not theirs to see.

They import nothing of the apps, so any view may use them. The 429 page is
config.ratelimit's.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def _error_page(request: HttpRequest, status: int, message: str) -> HttpResponse:
    return render(
        request, "errors/error.html", {"message": message, "status": status}, status=status
    )


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """400: bad input (config.inputs.BadInput) says what was wrong; anything else Django
    refuses (a malformed request, too many fields) gets the general sentence."""
    message = getattr(exception, "message", "") or "That request could not be understood."
    return _error_page(request, 400, message)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _error_page(request, 403, "You are not allowed to do that.")


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    message = getattr(exception, "message", "") or "There is nothing here."
    return _error_page(request, 404, message)


def server_error(request: HttpRequest) -> HttpResponse:
    return render(request, "errors/500.html", status=500)
