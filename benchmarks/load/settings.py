"""The production settings, with every Redis key of this run under one prefix.

Redis is shared and never flushed, and each run starts from a fresh database whose match
ids start at 1 again: without a prefix a run could read the cache, channel groups or queue
of an earlier one. Everything else is config.settings, unchanged. `stack.Stack` deletes the
run's keys (and only them) when it stops.
"""

import os

from config.settings import *  # noqa: F403
from config.settings import CACHES, CHANNEL_LAYERS

RUN_PREFIX = os.environ.get("LOADTEST_RUN_PREFIX", "")

if RUN_PREFIX:
    for cache in CACHES.values():
        cache["KEY_PREFIX"] = RUN_PREFIX
    for layer in CHANNEL_LAYERS.values():
        if "CONFIG" in layer:
            layer["CONFIG"]["prefix"] = RUN_PREFIX
    CELERY_BROKER_TRANSPORT_OPTIONS = {"global_keyprefix": f"{RUN_PREFIX}-"}
