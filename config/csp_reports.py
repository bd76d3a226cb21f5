"""What the Content-Security-Policy blocked in the players' browsers, in the log.

The policy names `report-uri /csp-report` (config/settings.py): a browser that blocks
something on one of our pages POSTs a report here (`application/csp-report`). A feature
that breaks in production because the policy forbids it (an inline handler slipped into a
template, an htmx trigger that needs eval) shows up as "csp violation" warnings instead of
silence. Reports caused by browser extensions (their own scripts, injected into our pages)
are not ours to fix and are dropped. A report is always answered 204 when it can be read,
400 when it cannot; it writes nothing. Rate-limited in its own group (config/ratelimit.py),
so a browser that reports a lot never uses up its player's budget for moves.
"""

from __future__ import annotations

import logging
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from config import inputs

logger = logging.getLogger("cardhall.csp")

REPORT_MAX_CHARS = 8_192  # a report is a few hundred bytes; a sample of the code, 40 more
REPORT_MAX_DEPTH = 3
FIELD_MAX_CHARS = 300  # of each field, in the log line
EXTENSION_SCHEMES = (
    "chrome-extension",
    "moz-extension",
    "safari-extension",
    "safari-web-extension",
)
FIELDS = ("document-uri", "violated-directive", "blocked-uri", "source-file", "line-number")


@csrf_exempt  # browsers send reports without a token (and they change nothing)
@require_POST
def report(request: HttpRequest) -> HttpResponse:
    try:
        document = inputs.json_body(
            request, what="The report", max_length=REPORT_MAX_CHARS, max_depth=REPORT_MAX_DEPTH
        )
    except inputs.BadInput as error:
        return _unreadable(error.message)
    violation = document.get("csp-report") if isinstance(document, dict) else None
    if not isinstance(violation, dict):
        return _unreadable("That is not a Content-Security-Policy report.")
    fields = {name: _short(violation.get(name)) for name in FIELDS}
    if not _is_from_an_extension(fields):
        logger.warning(
            "csp violation: %s blocked %s on %s (%s, line %s)",
            fields["violated-directive"],
            fields["blocked-uri"],
            fields["document-uri"],
            fields["source-file"],
            fields["line-number"],
        )
    return HttpResponse(status=204)


def _short(value: Any) -> str:
    text = "" if value is None else str(value)
    return text if len(text) <= FIELD_MAX_CHARS else text[:FIELD_MAX_CHARS] + "..."


def _is_from_an_extension(fields: dict[str, str]) -> bool:
    return any(
        fields[name].startswith(EXTENSION_SCHEMES) for name in ("blocked-uri", "source-file")
    )


def _unreadable(message: str) -> HttpResponse:
    return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")
