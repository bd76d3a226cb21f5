"""The installable app's pieces, served by Django: the manifest, the service worker at the
site's root and the offline page (config/pwa.py). The browser side is
tests/e2e/test_app_browser.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.django_db


def test_the_manifest_names_the_app_and_its_icons(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Cardhall" and manifest["display"] == "standalone"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    sizes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert {
        ("any", "any"),
        ("192x192", "any"),
        ("512x512", "any"),
        ("512x512", "maskable"),
    } <= sizes
    for icon in manifest["icons"]:
        name = icon["src"].removeprefix("/static/")
        assert (REPO / "static" / name).is_file(), name


def test_the_service_worker_is_a_script_at_the_root(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache" and response["Service-Worker-Allowed"] == "/"
    assert "script-src 'self'" in response["Content-Security-Policy"]
    script = response.content.decode()
    assert 'var OFFLINE_URL = "/offline/";' in script
    assert '"/static/css/cardhall.css"' in script and "&quot;" not in script
    assert 'addEventListener("push"' in script and 'addEventListener("fetch"' in script


def test_the_cache_name_changes_with_the_files(client, settings):
    first = client.get("/sw.js").content.decode()
    settings.STATIC_URL = "/assets/"
    second = client.get("/sw.js").content.decode()
    name = [line for line in first.splitlines() if line.startswith("var CACHE")]
    assert name and name[0] not in second


def test_the_offline_page_names_no_one(client, alice):
    client.force_login(alice)
    response = client.get("/offline/")
    page = response.content.decode()
    assert response.status_code == 200 and "You are offline" in page
    assert "alice" not in page and "<form" not in page and "<script" not in page


def test_every_page_links_the_manifest_and_registers_the_worker(client):
    page = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert "js/pwa.js" in page and "apple-touch-icon" in page


def test_the_icons_are_pngs_of_their_sizes():
    for name, size in [
        ("icon-192.png", 192),
        ("icon-512.png", 512),
        ("maskable-512.png", 512),
        ("apple-touch-icon.png", 180),
        ("badge-96.png", 96),
    ]:
        data = (REPO / "static" / "img" / "app" / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", name
        width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        assert (width, height) == (size, size), name
