"""Health checks: `/healthz/live` (liveness) and `/healthz` (readiness).

Liveness says only that this process answers HTTP: it touches nothing else, so a load
balancer never restarts a healthy worker because a shared dependency is down.

Readiness reports each dependency as "up" or "down" (the cache may be "local", the broker
"eager"), and answers 503 only when the database is down: without it no page works, while
without Redis pages still render and sockets heal by re-fetching. Every check is bounded:
a Redis is asked PING through one small connection pool per process and URL with short
timeouts, never a round trip through the channel layer (whose receive loop is busy while
the worker holds sockets, so that answered "down" after 2 s) and never a new connection
per request.
"""

from __future__ import annotations

import re

import redis
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from config import redis_clients

PING_TIMEOUT = 0.5  # seconds, for connecting, for the answer, and for a free connection


@require_GET
@never_cache
def live(request: HttpRequest) -> JsonResponse:
    """The process answers: no database, no Redis."""
    return JsonResponse({"process": "up"})


@require_GET
@never_cache
def ready(request: HttpRequest) -> JsonResponse:
    """Each dependency's state; 200 when the database answers, 503 otherwise."""
    report = {
        "database": check_database(),
        "channel_layer": check_channel_layer(),
        "cache": check_cache(),
        "broker": check_broker(),
    }
    return JsonResponse(report, status=200 if report["database"] == "up" else 503)


def check_database() -> str:
    try:
        connection.ensure_connection()
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception:
        return "down"
    return "up"


def check_channel_layer() -> str:
    layer = get_channel_layer()
    if layer is None:
        return "down"
    hosts = getattr(layer, "hosts", None)
    if hosts is None:
        return "up"  # the in-memory layer lives in this process
    addresses = [host.get("address") for host in hosts]
    if not all(addresses):
        return "unknown"  # a sentinel-style host: nothing here pings it
    return "up" if all(redis_answers(address) for address in addresses) else "down"


def check_cache() -> str:
    if not isinstance(caches["default"], RedisCache):
        return "local"
    location = settings.CACHES["default"]["LOCATION"]
    servers = location if isinstance(location, list) else re.split("[;,]", location)
    return "up" if all(redis_answers(server) for server in servers) else "down"


def check_broker() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "eager"
    url = settings.CELERY_BROKER_URL
    if url.startswith(("redis://", "rediss://")):
        return "up" if redis_answers(url) else "down"
    from config.celery_app import app

    try:
        with app.connection_for_write() as broker:
            broker.ensure_connection(max_retries=1, timeout=PING_TIMEOUT)
    except Exception:
        return "down"
    return "up"


def redis_answers(url: str) -> bool:
    """Does the Redis at `url` answer PING within PING_TIMEOUT (give or take one retry)?"""
    try:
        pinger = redis_clients.small_client(
            url, purpose="health", connections=2, timeout=PING_TIMEOUT
        )
        return bool(pinger.ping())
    except (redis.RedisError, OSError):
        return False
