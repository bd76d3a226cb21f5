"""ASGI entry point: HTTP through Django, behind a cap on concurrent requests per worker
process (config/overload.py); websockets through Channels."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from config.overload import ConcurrencyLimit  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402
from inbox.routing import websocket_urlpatterns as inbox_websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": ConcurrencyLimit(
            django_asgi_app,
            limit=settings.WEB_CONCURRENCY_LIMIT,
            queue_seconds=settings.WEB_QUEUE_SECONDS,
            # Static files never touch the database; the health checks must answer when busy.
            uncounted_prefixes=("/" + settings.STATIC_URL.lstrip("/"), "/healthz"),
        ),
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns + inbox_websocket_urlpatterns))
        ),
    }
)
