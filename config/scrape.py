"""`GET /metrics`: the Prometheus endpoint, closed to the public (docs/operations.md,
"Logs, metrics and alerts").

Who may read it: nobody until METRICS_TOKEN or METRICS_ALLOWED_NETWORKS is set (404).
With an allow-list, a client outside it gets 404, as for any unknown page; with a token,
a request without `Authorization: Bearer <token>` gets 403. Both set: both are needed.

What a scrape adds to the values the processes recorded (config/metrics.py), read now,
once per scrape and never per request: which dependency answers (the readiness checks of
config/health.py) and the Celery queue's length in a Redis broker (one pipelined round
trip, bounded by short timeouts).
"""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Iterator

import redis
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector

from config import health, metrics, redis_clients

BROKER_TIMEOUT = 0.5  # seconds, to connect and to answer
KOMBU_PRIORITY_SEPARATOR = "\x06\x16"  # kombu's Redis transport: "<queue>\x06\x16<priority>"
KOMBU_PRIORITY_STEPS = (0, 3, 6, 9)
KOMBU_UNACKED = "unacked"  # the hash of delivered, unacknowledged tasks


@csrf_exempt  # reads only; and a CSRF 403 would tell strangers the page is here
@never_cache
def scrape(request: HttpRequest) -> HttpResponse:
    refused = _refusal(request)  # first: a stranger learns nothing, not even the methods
    if refused is not None:
        return refused
    if request.method not in ("GET", "HEAD"):
        return HttpResponseNotAllowed(["GET", "HEAD"])
    metrics.forget_dead_processes()
    registry = CollectorRegistry()
    if metrics.MULTIPROC_DIR:
        MultiProcessCollector(registry, path=metrics.MULTIPROC_DIR)
    else:
        registry.register(REGISTRY)  # this process's own values
    registry.register(ScrapeTimeCollector())
    return HttpResponse(generate_latest(registry), content_type=CONTENT_TYPE_LATEST)


def _refusal(request: HttpRequest) -> HttpResponse | None:
    """None when the request may read the metrics; else the answer it gets."""
    token: str = settings.METRICS_TOKEN
    networks: list[str] = settings.METRICS_ALLOWED_NETWORKS
    if not token and not networks:
        raise Http404("Metrics are off: set METRICS_TOKEN or METRICS_ALLOWED_NETWORKS.")
    if networks and not is_in_networks(request.META.get("REMOTE_ADDR", ""), networks):
        raise Http404("Not an allowed network.")  # as any unknown page: nothing here
    given = request.headers.get("Authorization", "")
    if token and not hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
        refused = HttpResponse(
            "The metrics need the bearer token (Authorization: Bearer <METRICS_TOKEN>).\n",
            status=403,
            content_type="text/plain; charset=utf-8",
        )
        refused["WWW-Authenticate"] = "Bearer"
        return refused
    return None


def is_in_networks(address: str, networks: list[str]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip in ipaddress.ip_network(network, strict=False) for network in networks)


class ScrapeTimeCollector:
    """What is read at scrape time: dependencies up, Celery queue length."""

    def collect(self) -> Iterator[Metric]:
        yield _dependencies_up()
        yield from _celery_queues()


def _dependencies_up() -> Metric:
    up = GaugeMetricFamily(
        "cardhall_dependency_up",
        "1 when the dependency answers this web process, 0 when not (the /healthz checks).",
        labels=["dependency"],
    )
    report, _status = health.readiness()  # each Redis server asked once
    for name in ("database", "cache", "channel_layer", "broker"):
        state = report[name]
        if state in ("up", "down"):  # not the local cache, nor eager Celery
            up.add_metric([name], 1.0 if state == "up" else 0.0)
    return up


def _celery_queues() -> Iterator[Metric]:
    url = settings.CELERY_BROKER_URL
    if settings.CELERY_TASK_ALWAYS_EAGER or not url.startswith(("redis://", "rediss://")):
        return
    from config.celery_app import app

    prefix = (app.conf.broker_transport_options or {}).get("global_keyprefix", "")
    queues = sorted(app.amqp.queues) or [app.conf.task_default_queue]
    keys = {queue: [prefix + key for key in _priority_keys(queue)] for queue in queues}
    try:
        with redis_clients.small_client(
            url, purpose="queues", connections=1, timeout=BROKER_TIMEOUT
        ).pipeline(transaction=False) as pipe:
            for queue in queues:
                for key in keys[queue]:
                    pipe.llen(key)
            pipe.hlen(prefix + KOMBU_UNACKED)
            counts = pipe.execute()
    except (redis.RedisError, OSError):
        return  # cardhall_dependency_up{dependency="broker"} says so
    length = GaugeMetricFamily(
        "cardhall_celery_queue_length", "Tasks waiting in the broker, by queue.", labels=["queue"]
    )
    for index, queue in enumerate(queues):
        start = index * len(KOMBU_PRIORITY_STEPS)
        length.add_metric([queue], float(sum(counts[start : start + len(KOMBU_PRIORITY_STEPS)])))
    yield length
    yield GaugeMetricFamily(
        "cardhall_celery_unacked_tasks",
        "Tasks delivered to a worker and not yet acknowledged (running, or lost with a "
        "worker until the visibility timeout redelivers them).",
        value=float(counts[-1]),
    )


def _priority_keys(queue: str) -> list[str]:
    return [
        queue if not step else f"{queue}{KOMBU_PRIORITY_SEPARATOR}{step}"
        for step in KOMBU_PRIORITY_STEPS
    ]
