"""The installable app: the web manifest, the service worker and the offline page.

The service worker is served from the site's root (`/sw.js`), so its scope is the whole
site and it controls every page. It is rendered from a template so that it names the
static files by their real (hashed, in production) URLs, and the name of its cache is a
hash of those URLs: a deploy that changes a file makes a new cache and drops the old one.
It is a script file from this origin (`script-src 'self'`), with no inline script anywhere
(docs/security.md); the page that registers it is static/js/pwa.js.
"""

from __future__ import annotations

import hashlib
import json
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_GET

NAME = "Cardhall"
THEME = "#0f4a32"  # the felt green of the icon and the header
BACKGROUND = "#10291f"
# Precached on install: what the offline page needs, and the icons a notification shows.
PRECACHED = (
    "css/cardhall.css",
    "js/pwa.js",
    "img/logo.svg",
    "img/favicon.svg",
    "img/app/icon-192.png",
    "img/app/badge-96.png",
)
ICONS = (
    {"src": "img/app/icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
    {"src": "img/app/icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any"},
    {"src": "img/app/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any"},
    {
        "src": "img/app/maskable-512.png",
        "sizes": "512x512",
        "type": "image/png",
        "purpose": "maskable",
    },
)


def _no_cache(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "no-cache"  # always revalidated: a deploy is seen at once
    return response


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    document = {
        "id": "/",
        "name": NAME,
        "short_name": NAME,
        "description": "Turn-based card games, played asynchronously.",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": [{**icon, "src": static(icon["src"])} for icon in ICONS],
    }
    response = HttpResponse(json.dumps(document), content_type="application/manifest+json")
    return _no_cache(response)


def _static_prefix() -> str:
    """The path static files are under ("/static/"); `static("")` names no file, which the
    hashed storage of production refuses."""
    path = urlsplit(settings.STATIC_URL).path or "/"
    return path if path.startswith("/") else "/" + path


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    precached = [static(path) for path in PRECACHED]
    offline = reverse("offline")
    version = hashlib.sha256("\n".join([offline, *precached]).encode()).hexdigest()[:12]
    context = {
        "version": version,
        "offline_url": json.dumps(offline),
        "precached": json.dumps(precached),
        "static_prefix": json.dumps(_static_prefix()),
        "icon": json.dumps(static("img/app/icon-192.png")),
        "badge": json.dumps(static("img/app/badge-96.png")),
    }
    response = render(request, "pwa/sw.js", context, content_type="text/javascript")
    response["Service-Worker-Allowed"] = "/"
    return _no_cache(response)


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """What the service worker shows when a page cannot be reached: the same for everyone
    (it is cached once per browser), so it names no player and holds no form."""
    return render(request, "pwa/offline.html", {"theme": THEME})
