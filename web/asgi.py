"""ASGI entry point: HTTP through Django (its middleware and view in one thread hop), behind
a cap on concurrent requests per worker process (config/overload.py); websockets through
Channels."""

import gc
import os
import re

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)

from config.handler import SyncChainASGIHandler  # noqa: E402

# Django's ASGI handler, with the middleware and the view in one thread hop (config/handler.py).
django_asgi_app = SyncChainASGIHandler()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from config.health import HealthChecks  # noqa: E402
from config.metrics import SocketMetrics  # noqa: E402
from config.overload import ConcurrencyLimit  # noqa: E402
from web.routing import websocket_router  # noqa: E402

if settings.GC_THRESHOLDS:  # fewer, shorter pauses with thousands of sockets open (settings)
    gc.set_threshold(*settings.GC_THRESHOLDS)

# The Bot API's two streams (botapi.urls): open for hours, each bounded by botapi's own
# per-token and per-account limits (429), holding no database connection between lines.
BOT_STREAM_PATHS = re.compile(r"/api/v1/(stream/events|matches/[0-9]+/stream)")

application = ProtocolTypeRouter(
    {
        # The health checks first, beside Django's one request thread (config/health.py).
        "http": HealthChecks(
            ConcurrencyLimit(
                django_asgi_app,  # type: ignore[arg-type]  # django-stubs: its scope is a dict
                limit=settings.WEB_CONCURRENCY_LIMIT,
                queue_seconds=settings.WEB_QUEUE_SECONDS,
                # Static files never touch the database; health checks (another method than
                # GET goes on to Django's 405) and scrapes answer when busy.
                uncounted_prefixes=(
                    "/" + settings.STATIC_URL.lstrip("/"),
                    "/healthz",
                    "/metrics",
                ),
                # The Bot API's streams stay open for hours: limited per account, not here.
                uncounted_paths=BOT_STREAM_PATHS,
            )
        ),
        # Every socket route, then a catch-all that refuses an unknown path with 4404.
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(websocket_router)),
    }
)
# Open sockets are counted from accept to close (config/metrics.py); HTTP passes through.
application = SocketMetrics(application)
