"""Rate limits on every write, in one middleware and one table (docs/security.md).

Every request with an unsafe method (anything but GET, HEAD, OPTIONS, TRACE) is counted,
per user and per client IP, in the group its URL name maps to in `GROUPS`, else in
"write": a new write endpoint is limited without anyone remembering to decorate it. A few
reads that cost like writes (the card preview) are named with the methods they count.
The rates per group come from settings.RATE_LIMITS (the environment); the counting is
django-ratelimit's (fixed windows in the Django cache, which is Redis in production), its
windows and keys, with a write's two counters (user and IP) counted in one round trip to
Redis (`config.cache.SharedRedisCache.count_in_windows`) where `get_usage` takes two each.

Over a limit: 429 with `Retry-After`, a page a person can read, or for htmx a notice
swapped into the page's `#site-notices` (the board it was aimed at stays as it is).
When the cache cannot be reached, requests are let through (fail open): the fail-soft
cache (config/cache.py) reads a counter as missing, which django-ratelimit lets through
(RATELIMIT_FAIL_OPEN); a cache that raises instead is caught here, and the limits are
skipped for a few seconds, so an outage costs one failed round trip, not one per request.
"""

from __future__ import annotations

import ipaddress
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import caches
from django.core.exceptions import ImproperlyConfigured, PermissionDenied
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django_htmx.http import reswap, retarget
from django_ratelimit import ALL
from django_ratelimit import core as ratelimit_core
from django_ratelimit.core import get_usage

logger = logging.getLogger(__name__)

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
WRITE = "write"  # the group of every unsafe request not named below
ALL_METHODS = frozenset({"*"})


@dataclass(frozen=True)
class Group:
    name: str
    methods: frozenset[str] = frozenset()  # safe methods counted too ("*": every method)

    def counts(self, method: str | None) -> bool:
        return method not in SAFE_METHODS or "*" in self.methods or method in self.methods


MOVE = Group("move")
PREVIEW = Group("preview", methods=ALL_METHODS)  # a GET per change of selected cards
START = Group("start")  # a new match, a seat taken, a tutorial or a run begun
VERIFY = Group("verify")  # replays a pasted log: the costliest write there is
REPORT = Group("report")  # CSP reports, sent by the browser, not by its player
OTHER_WRITES = Group(WRITE)

# URL name ("namespace:name") -> group. Anything unsafe not listed here is in "write".
GROUPS: dict[str, Group] = {
    "games:move": MOVE,
    "games:preview": PREVIEW,
    "games:lobby": START,
    "games:tutorial": START,
    "games:join": START,
    "games:rematch": START,
    "banira:practice": START,
    "banira:weekly_start": START,
    "games:verify": VERIFY,
    "csp-report": REPORT,
}

RETRY_PAUSE_SECONDS = 5.0  # after the cache failed, limits are skipped this long


class RateLimitMiddleware:
    """Counts each request against its group's per-user and per-IP rate; 429 over either.

    Sits after AuthenticationMiddleware (it reads `request.user`) and works in
    `process_view`, where the URL's name is known.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.paused_until = 0.0

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view_func, view_args, view_kwargs):
        if not getattr(settings, "RATELIMIT_ENABLE", True):
            return None
        group = group_of(request)
        if group is None or time.monotonic() < self.paused_until:
            return None
        try:
            wait = seconds_to_wait(request, group)
        except Exception:  # noqa: BLE001 - any cache failure  # the cache is down: let the request through, log it once
            self.paused_until = time.monotonic() + RETRY_PAUSE_SECONDS
            logger.warning(
                "rate limits skipped for %.0f s: the cache did not answer",
                RETRY_PAUSE_SECONDS,
                exc_info=True,
            )
            return None
        if wait is None:
            return None
        logger.info("rate limited: %s %s (%s)", request.method, request.path, group.name)
        return too_many_requests(request, wait)


def group_of(request: HttpRequest) -> Group | None:
    """The group `request` counts in, or None when it is not counted."""
    match = request.resolver_match
    group = GROUPS.get(match.view_name) if match is not None else None
    if group is not None:
        return group if group.counts(request.method) else None
    return OTHER_WRITES if request.method not in SAFE_METHODS else None


def seconds_to_wait(request: HttpRequest, group: Group) -> int | None:
    """Count this request against every key it has (the user, if logged in, and the IP);
    the seconds until the first limit that is exceeded resets, or None if none is."""
    rates = settings.RATE_LIMITS.get(group.name) or settings.RATE_LIMITS[WRITE]
    keys = [("user", f"u{request.user.pk}")] if request.user.is_authenticated else []
    keys.append(("ip", client_ip(request)))
    counters = [
        RateWindow.of(group=f"{group.name}:{per}", rate=rate, value=value)
        for per, value in keys
        if (rate := rates.get(per)) and value
    ]
    if not counters:
        return None
    cache = caches[getattr(settings, "RATELIMIT_USE_CACHE", "default")]
    if not hasattr(cache, "count_in_windows"):  # not our Redis cache: django-ratelimit's way
        return _seconds_to_wait_one_by_one(request, counters)
    counts = cache.count_in_windows(
        [(counter.key, counter.period + ratelimit_core.EXPIRATION_FUDGE) for counter in counters]
    )
    if counts is None:  # Redis is unreachable: fail open (RATELIMIT_FAIL_OPEN)
        return None
    for counter, count in zip(counters, counts, strict=True):
        if count > counter.limit:
            return counter.seconds_left()
    return None


@dataclass(frozen=True)
class RateWindow:
    """One of django-ratelimit's fixed-window counters: its windows, offset per key, and
    its cache keys are the library's own, so they count with its `get_usage` (and
    `tests/web/test_rate_limits.py` holds them to it)."""

    group: str
    rate: str
    value: str
    limit: int
    period: int
    window: int  # when the current window ends (a Unix time)
    key: str

    @classmethod
    def of(cls, *, group: str, rate: str, value: str) -> RateWindow:
        limit, period = ratelimit_core._split_rate(rate)
        window = ratelimit_core._get_window(value, period)
        key = ratelimit_core._make_cache_key(group, window, rate, value, ALL)
        return cls(group, rate, value, limit, period, window, key)

    def seconds_left(self) -> int:
        # Read from django-ratelimit's clock, as its windows are.
        return max(1, self.window - int(ratelimit_core.time.time()))


def _seconds_to_wait_one_by_one(request: HttpRequest, counters: list[RateWindow]) -> int | None:
    """The same count, a round trip or two per counter (`get_usage`), for a cache that is
    not `config.cache.SharedRedisCache` (the embedded in-memory one)."""
    for counter in counters:
        usage = get_usage(
            request,
            group=counter.group,
            key=lambda _group, _request, value=counter.value: value,
            rate=counter.rate,
            increment=True,
        )
        if usage is not None and usage["should_limit"]:
            return max(1, int(usage["time_left"]))
    return None


def client_ip(request: HttpRequest) -> str:
    """The client's address as allauth's rate limits see it (the same trusted-proxy
    settings), an IPv6 address cut to its /64 so one host cannot rotate through them;
    "" when there is none (a Unix socket without a proxy header): then only the user
    is counted."""
    from allauth.account.adapter import get_adapter

    try:
        address = get_adapter(request).get_client_ip(request)
    except (PermissionDenied, ImproperlyConfigured):
        return ""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if parsed.version == 6:
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False).network_address)
    return str(parsed)


TOO_FAST = "You are going faster than the hall allows. Wait {wait}, then try again."


def too_many_requests(request: HttpRequest, wait: int) -> HttpResponse:
    """429 with Retry-After: JSON for a JSON client, a notice for htmx, else a page."""
    message = TOO_FAST.format(wait="a second" if wait == 1 else f"{wait} seconds")
    context = {"message": message, "retry_after": wait}
    if getattr(request, "htmx", False):
        response = render(request, "429.html#notice", context, status=429)
        response = reswap(retarget(response, "#site-notices"), "innerHTML")
    elif request.accepts("application/json") and not request.accepts("text/html"):
        response = JsonResponse({"error": message, "retry_after": wait}, status=429)
    else:
        response = render(request, "429.html", context, status=429)
    response["Retry-After"] = str(wait)
    return response


def handler429(request: HttpRequest) -> HttpResponse:
    """allauth's own limits (login, signup, password reset) answer through this too."""
    return too_many_requests(request, wait=60)
