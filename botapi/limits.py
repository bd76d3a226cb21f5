"""Limits of the Bot API, per token and per account (docs/bot-api.md, "Limits").

- **Rate**: every API request counts against its token and its account (fixed windows of
  django-ratelimit in the Django cache, as config/ratelimit.py counts the site's writes),
  at `BOTAPI_RATE_TOKEN` and `BOTAPI_RATE_ACCOUNT`; over either, 429 with Retry-After.
  `RATELIMIT_ENABLE=0` turns them off with the site's own limits; a cache that does not
  answer lets the request through (fail open, as the site's).
- **Concurrent matches**: an account opens or joins a match through the API only while it
  plays fewer than `BOTAPI_MAX_MATCHES` (waiting or active), and a token only while the
  matches it opened or joined number fewer than `BOTAPI_MAX_MATCHES_TOKEN` (default: the
  account's cap).
- **Open streams**: at most `BOTAPI_MAX_STREAMS` per account and `BOTAPI_MAX_STREAMS_TOKEN`
  per token at once, counted in the cache (an entry per stream, named by its account and
  token, refreshed while it is open, so a server that dies does not keep its streams
  counted for longer than STREAM_TTL).
"""

from __future__ import annotations

import logging
import time
import uuid
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django_ratelimit.core import get_usage

from botapi.errors import TooMany
from botapi.models import ApiToken, TokenMatch
from games.models import Match

logger = logging.getLogger(__name__)

STREAM_TTL = 120  # seconds a stream's entry counts without a refresh
TOO_FAST = "This token is going faster than the API allows: wait {wait} s, then try again."


def _setting(name: str, default: Any) -> Any:
    return getattr(settings, name, default)


def check_rate(*, request: Any, token: ApiToken) -> None:
    if not _setting("RATELIMIT_ENABLE", True):
        return
    keys = [
        ("token", f"t{token.pk}", _setting("BOTAPI_RATE_TOKEN", "300/m")),
        ("account", f"u{token.user_id}", _setting("BOTAPI_RATE_ACCOUNT", "600/m")),
    ]
    for per, value, rate in keys:
        try:
            usage = get_usage(
                request,
                group=f"botapi:{per}",
                key=lambda _group, _request, value=value: value,
                rate=rate,
                increment=True,
            )
        except Exception:  # noqa: BLE001 - the cache is down: let the request through
            logger.warning("bot api rate limits skipped: the cache did not answer", exc_info=True)
            return
        if usage is not None and usage["should_limit"]:
            wait = max(1, int(usage["time_left"]))
            raise TooMany(TOO_FAST.format(wait=wait), retry_after=wait)


def check_matches(*, user: Any, token: ApiToken | None = None) -> None:
    """TooMany when the account, or this token, already plays its cap of matches (waiting
    or in play): `BOTAPI_MAX_MATCHES` per account, `BOTAPI_MAX_MATCHES_TOKEN` per token (the
    matches the token opened or joined, `TokenMatch`)."""
    running = [Match.Status.WAITING, Match.Status.ACTIVE]
    cap = _setting("BOTAPI_MAX_MATCHES", 30)
    playing = Match.objects.filter(seats__user=user, status__in=running).distinct().count()
    if playing >= cap:
        raise TooMany(
            f"This account plays {playing} matches already, the most the API allows at once:"
            " finish one first.",
            retry_after=60,
        )
    if token is None:
        return
    of_token = TokenMatch.objects.filter(token=token, match__status__in=running).count()
    if of_token >= _setting("BOTAPI_MAX_MATCHES_TOKEN", cap):
        raise TooMany(
            f"This token plays {of_token} matches already, the most one token may at once:"
            " finish one first.",
            retry_after=60,
        )


def _streams_key(user_id: int) -> str:
    return f"botapi:streams:{user_id}"


def _live(entries: dict[str, float], now: float) -> dict[str, float]:
    return {key: seen for key, seen in entries.items() if now - seen < STREAM_TTL}


def stream_open(*, token: ApiToken) -> str:
    """Count a new stream of the token and its account (TooMany over either cap); its id."""
    now = time.time()
    key = _streams_key(token.user_id)
    entries = _live(cache.get(key) or {}, now)
    cap = _setting("BOTAPI_MAX_STREAMS", 16)
    if len(entries) >= cap:
        raise TooMany(
            f"This account has {len(entries)} streams open, the most at once: close one first.",
            retry_after=10,
        )
    mine = f"{token.user_id}:{token.pk}:"
    of_token = sum(1 for stream in entries if stream.startswith(mine))
    if of_token >= _setting("BOTAPI_MAX_STREAMS_TOKEN", 16):
        raise TooMany(
            f"This token has {of_token} streams open, the most one token may hold at once:"
            " close one first.",
            retry_after=10,
        )
    stream = f"{mine}{uuid.uuid4().hex}"
    entries[stream] = now
    cache.set(key, entries, STREAM_TTL)
    return stream


def stream_alive(*, stream: str) -> None:
    user_id = int(stream.split(":", 1)[0])
    entries = _live(cache.get(_streams_key(user_id)) or {}, time.time())
    entries[stream] = time.time()
    cache.set(_streams_key(user_id), entries, STREAM_TTL)


def stream_closed(*, stream: str) -> None:
    user_id = int(stream.split(":", 1)[0])
    entries = _live(cache.get(_streams_key(user_id)) or {}, time.time())
    entries.pop(stream, None)
    cache.set(_streams_key(user_id), entries, STREAM_TTL)
