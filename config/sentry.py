"""Sentry, on only when SENTRY_DSN is set (docs/operations.md, "Logs, metrics and alerts").

Errors from requests (Django), tasks (Celery) and Redis calls go to Sentry, tagged with the
request id (config/logs.py), so an event leads to its log lines. Nothing of what a player
may not see may leave with them, so an event carries:
- no personal data (`send_default_pii=False`: no cookies, user names, IP addresses);
- no local variables of the stack frames (a game state, a hand or a seed may be one);
- no request bodies (a posted move names cards);
- no SQL parameters or Redis values in breadcrumbs (a match's seed is one, a cached
  position another);
- no value under a key that names hidden things (`HIDDEN_KEYS`), anywhere in the event.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sentry_sdk.types import Breadcrumb, BreadcrumbHint, Event, Hint

# Keys of the engines' states and views, the models and the forms whose values may be
# hidden from someone: scrubbed wherever they appear in an event.
HIDDEN_KEYS = [
    "seed",
    "hand",
    "hands",
    "deck",
    "decks",
    "deck_list",
    "pile",
    "piles",
    "cards",
    "move",
    "moves",
    "state",
    "view",
    "position",
]


def sentry_init(*, dsn: str, environment: str, release: str, traces_sample_rate: float) -> None:
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration
    from sentry_sdk.integrations.redis import RedisIntegration
    from sentry_sdk.scrubber import DEFAULT_DENYLIST, EventScrubber

    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        release=release or None,
        integrations=[DjangoIntegration(), CeleryIntegration(), RedisIntegration()],
        send_default_pii=False,
        include_local_variables=False,
        max_request_body_size="never",
        event_scrubber=EventScrubber(denylist=DEFAULT_DENYLIST + HIDDEN_KEYS, recursive=True),
        before_breadcrumb=_without_values,
        before_send=_with_request_id,
        traces_sample_rate=traces_sample_rate,
    )


def _with_request_id(event: Event, hint: Hint) -> Event:
    """Tag the event with the request id of the request or task it happened in."""
    from django_guid.context import guid

    request_id = guid.get()
    if request_id:
        event.setdefault("tags", {})["request_id"] = request_id
    return event


def _without_values(crumb: Breadcrumb, hint: BreadcrumbHint) -> Breadcrumb:
    """SQL breadcrumbs keep the statement, never its parameters (the SDK leaves them out
    by default; this holds if that default changes)."""
    if crumb.get("category") == "query":
        crumb["data"] = {
            key: value for key, value in (crumb.get("data") or {}).items() if key != "db.params"
        }
    return crumb
