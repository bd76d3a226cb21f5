"""Cosmetic art uploads: a PNG (checked, re-encoded) or an SVG (sanitized) stored on the
default storage; bad files refused with a message and nothing saved; static-path cosmetics
made before uploads keep their static URL."""

from __future__ import annotations

import io

import pytest
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.templatetags.static import static
from django.urls import reverse
from PIL import Image

from progression.models import Cosmetic

pytestmark = pytest.mark.django_db

ADD = reverse("admin:progression_cosmetic_add")

EVIL_SVG = b"""<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
     viewBox="0 0 10 10" onload="alert(1)">
  <script>alert(2)</script>
  <defs><linearGradient id="g"><stop offset="0" stop-color="gold"/></linearGradient></defs>
  <rect width="10" height="10" fill="url(#g)" onclick="steal()"/>
  <image href="https://evil.example/track.png" width="5" height="5"/>
  <use xlink:href="http://evil.example/x.svg#a"/>
  <use href="#g"/>
  <foreignObject><div xmlns="http://www.w3.org/1999/xhtml">hi</div></foreignObject>
  <a href="javascript:alert(3)"><circle r="2"/></a>
  <style>@import url(http://evil.example/x.css); rect { fill: url(http://evil.example/) }</style>
  <rect style="fill: url(https://evil.example/p)" width="1" height="1"/>
</svg>"""


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = str(tmp_path)
    return tmp_path


def _png(size=(8, 8), extra: bytes = b"") -> bytes:
    out = io.BytesIO()
    Image.new("RGBA", size, (200, 40, 40, 255)).save(out, format="PNG")
    return out.getvalue() + extra


def _add(client, upload, slug="uploaded"):
    data = {"kind": "card_back", "name": "Uploaded", "slug": slug, "rarity": "rare"}
    return client.post(ADD, {**data, "asset": upload, "is_active": "on"})


def test_a_png_is_stored_re_encoded_and_served(admin_client, client):
    response = _add(admin_client, SimpleUploadedFile("back.png", _png(extra=b"TRAILING-JUNK")))
    assert response.status_code == 302
    cosmetic = Cosmetic.objects.get(slug="uploaded")
    assert cosmetic.asset.name.startswith("uploads/cosmetics/card_back/")
    assert cosmetic.asset.name.endswith(".png")
    stored = default_storage.open(cosmetic.asset.name).read()
    assert b"TRAILING-JUNK" not in stored
    assert Image.open(io.BytesIO(stored)).size == (8, 8)
    assert cosmetic.asset_url == f"/media/{cosmetic.asset.name}"
    served = client.get(cosmetic.asset_url)
    assert served.status_code == 200 and b"".join(served.streaming_content) == stored
    assert (
        served["X-Content-Type-Options"] == "nosniff"
        and "sandbox" in served["Content-Security-Policy"]
    )


def test_an_svg_is_sanitized(admin_client):
    assert _add(admin_client, SimpleUploadedFile("back.svg", EVIL_SVG)).status_code == 302
    cosmetic = Cosmetic.objects.get(slug="uploaded")
    assert cosmetic.asset.name.endswith(".svg")
    text = default_storage.open(cosmetic.asset.name).read().decode()
    for bad in ("script", "onload", "onclick", "foreignObject", "javascript:", "evil.example"):
        assert bad not in text, bad
    assert "@import" not in text
    assert 'href="#g"' in text and "<rect" in text and "linearGradient" in text


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("x.png", b"\x89PNG\r\n\x1a\n" + b"garbage" * 20, "damaged or not a PNG"),
        ("x.svg", b"<svg xmlns='http://www.w3.org/2000/svg'><rect></svg>", "not a well-formed SVG"),
        ("x.gif", b"GIF89a" + b"\0" * 30, "Upload a PNG image or an SVG file"),
        ("x.svg", b"<html><body><svg></svg></body></html>", "not a well-formed SVG"),
        (
            "x.svg",
            b"<html xmlns='http://www.w3.org/1999/xhtml'><svg/></html>",
            "not a well-formed SVG",
        ),
        ("x.png", b"\x89PNG\r\n\x1a\n" + b"\0" * (512 * 1024), "too large"),
        ("big.png", _png(size=(4000, 10)), "at most 2048 pixels"),
        (
            "bomb.svg",
            b'<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa">'
            b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;">]>'
            b'<svg xmlns="http://www.w3.org/2000/svg"><text>&c;</text></svg>',
            "not a well-formed SVG",
        ),
    ],
)
def test_bad_files_are_refused_with_a_message_and_nothing_is_saved(
    admin_client, media, name, content, message
):
    response = _add(admin_client, SimpleUploadedFile(name, content))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Cosmetic.objects.exists()
    assert not any(path.is_file() for path in media.rglob("*"))


def test_static_path_cosmetics_keep_their_static_url(admin_client, client):
    legacy = Cosmetic.objects.create(
        kind="card_back", slug="ember", name="Ember", asset="img/cosmetics/back-ember.svg"
    )
    legacy.refresh_from_db()
    assert legacy.asset.name == "img/cosmetics/back-ember.svg"
    assert legacy.asset_url == static("img/cosmetics/back-ember.svg")
    page = admin_client.get(reverse("admin:progression_cosmetic_change", args=[legacy.pk]))
    assert (
        page.status_code == 200 and static("img/cosmetics/back-ember.svg") in page.content.decode()
    )
    # Saving it again without a new upload keeps the static path.
    data = {"kind": "card_back", "name": "Ember!", "slug": "ember", "rarity": "common"}
    response = admin_client.post(
        reverse("admin:progression_cosmetic_change", args=[legacy.pk]), {**data, "is_active": "on"}
    )
    assert response.status_code == 302
    legacy.refresh_from_db()
    assert legacy.name == "Ember!" and legacy.asset.name == "img/cosmetics/back-ember.svg"


def test_a_typed_static_path_is_still_accepted_and_checked(admin_client):
    data = {"kind": "card_back", "name": "Typed", "slug": "typed", "rarity": "common"}
    bad = admin_client.post(ADD, {**data, "asset": "../secrets.svg", "is_active": "on"})
    assert bad.status_code == 200 and "Give the path of a static SVG file" in bad.content.decode()
    assert not Cosmetic.objects.exists()
    good = admin_client.post(ADD, {**data, "asset": "img/cosmetics/back-royal.svg"})
    assert good.status_code == 302
    assert Cosmetic.objects.get().asset_url == static("img/cosmetics/back-royal.svg")
