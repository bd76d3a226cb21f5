"""config.settings, with this run's own names on a Redis that others share.

The scale-out test's servers and worker share the machine's Redis with other test runs,
benchmarks and developers. Everything else is config.settings as deployed; only the names
differ: the Celery queue (so no other worker takes this run's tasks, and this worker
takes no one else's), the cache's key prefix and the channel layer's prefix.
"""

import os

from config.settings import *  # noqa: F403
from config.settings import CACHES, CHANNEL_LAYERS

LIVE_NAMESPACE = os.environ["CARDHALL_LIVE_NAMESPACE"]

CELERY_TASK_DEFAULT_QUEUE = LIVE_NAMESPACE
CACHES["default"]["KEY_PREFIX"] = LIVE_NAMESPACE
if "CONFIG" in CHANNEL_LAYERS["default"]:
    CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = LIVE_NAMESPACE
