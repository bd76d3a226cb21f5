"""Liveness checks of the channel layer and the Celery broker, for /healthz."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings


def check_channel_layer() -> str:
    layer = get_channel_layer()
    if layer is None:
        return "down"
    if isinstance(layer, InMemoryChannelLayer):
        return "up"
    try:
        async_to_sync(_round_trip)(layer)
    except Exception:
        return "down"
    return "up"


async def _round_trip(layer) -> None:
    import asyncio

    channel = await layer.new_channel("healthz.")
    await layer.send(channel, {"type": "healthz"})
    await asyncio.wait_for(layer.receive(channel), timeout=2)


def check_broker() -> str:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return "eager"
    from config.celery_app import app

    try:
        with app.connection_for_write() as connection:
            connection.ensure_connection(max_retries=1, timeout=2)
    except Exception:
        return "down"
    return "up"
