"""Uploaded cosmetic art: a PNG, or an SVG made safe, checked before it is stored.

`Cosmetic.asset` is a file field on the default storage (`STORAGES["default"]`: the local
media folder, or any django-storages backend set by `MEDIA_STORAGE`). An upload goes
through `art_clean` (the admin's form calls it): anything else is refused with a message
and nothing is stored.

- **PNG**: opened with Pillow (the header, then every pixel), at most `MAX_SIDE` pixels a
  side, and re-encoded: what is stored is Pillow's own PNG of those pixels, so no chunk,
  trailer or polyglot of the upload survives.
- **SVG**: sanitized by svg-hush (py-svg-hush): scripts, event handlers, `foreignObject`,
  unknown elements and attributes, `javascript:` links and external references go; then
  every link left that does not point inside the file itself (`#id`) goes too. The result
  must still be an `<svg>` document.

Uploads are stored under `uploads/`. Any other name in the field is a static file shipped
with the site (`img/cosmetics/back-ember.svg`: the cosmetics made before uploads existed,
and the demo's): `ArtFile.url` serves those as static files, as before. The column kept its
type and values (a path, at most 200 characters), so no row had to be rewritten.
"""

from __future__ import annotations

import io
import re
import uuid
import xml.etree.ElementTree as ET
from typing import Any, TypeGuard

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import models
from django.db.models.fields.files import FieldFile
from django.templatetags.static import static

MAX_BYTES = 512 * 1024
MAX_SIDE = 2048
UPLOAD_PREFIX = "uploads/"  # an uploaded file; any other name is a static file of the site
SVG_NS = "http://www.w3.org/2000/svg"
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_URL_IN_CSS = re.compile(r"url\(\s*['\"]?(?!#)[^)]*\)|@import", re.IGNORECASE)


def is_static(name: str | None) -> TypeGuard[str]:
    return bool(name and not name.startswith(UPLOAD_PREFIX))


class ArtFile(FieldFile):
    """The field's file: an upload's URL from its storage, a static path's from staticfiles."""

    @property
    def url(self) -> str:
        return static(self.name) if is_static(self.name) else super().url


class ArtField(models.FileField):
    attr_class = ArtFile


def upload_to(instance: Any, filename: str) -> str:
    """A fresh name per upload (a new URL: caches never serve the old art)."""
    kind = getattr(instance, "kind", "") or "item"
    suffix = filename.rsplit(".", 1)[-1].lower()
    return f"{UPLOAD_PREFIX}cosmetics/{kind}/{uuid.uuid4().hex[:16]}.{suffix}"


def art_clean(upload: Any) -> ContentFile:
    """The upload made safe to store and show, as a file named `.png` or `.svg`; raises
    ValidationError with a message an admin can act on."""
    if upload.size is not None and upload.size > MAX_BYTES:
        raise ValidationError(f"The file is too large: at most {MAX_BYTES // 1024} KB.")
    data = upload.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise ValidationError(f"The file is too large: at most {MAX_BYTES // 1024} KB.")
    if data.startswith(PNG_SIGNATURE):
        return ContentFile(_png(data), name="art.png")
    if b"<svg" in data[:4096]:
        return ContentFile(_svg(data), name="art.svg")
    raise ValidationError("Upload a PNG image or an SVG file.")


def _png(data: bytes) -> bytes:
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as image:
            if image.format != "PNG":
                raise ValidationError("Upload a PNG image or an SVG file.")
            width, height = image.size
            if max(width, height) > MAX_SIDE:
                raise ValidationError(
                    f"The image is {width}×{height}: at most {MAX_SIDE} pixels a side."
                )
            image.load()
            mode = "RGBA" if image.mode not in ("RGB", "L", "LA", "P") else image.mode
            out = io.BytesIO()
            image.convert(mode).save(out, format="PNG", optimize=True)
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        raise ValidationError("This PNG is damaged or not a PNG: it could not be read.") from None
    return out.getvalue()


def _svg(data: bytes) -> bytes:
    from py_svg_hush import filter_svg

    try:
        clean = filter_svg(data)
    except ValueError:
        raise ValidationError("This is not a well-formed SVG file: it could not be read.") from None
    try:
        root = ET.fromstring(clean)  # svg-hush's own output: no DTD, no entities
    except ET.ParseError:
        raise ValidationError("This SVG could not be read after cleaning.") from None
    if root.tag != f"{{{SVG_NS}}}svg":
        raise ValidationError("This file is not an SVG image (its root is not <svg>).")
    for element in root.iter():
        for attribute in ("href", XLINK_HREF):
            value = element.get(attribute)
            if value is not None and not value.startswith("#"):
                del element.attrib[attribute]  # only links inside the file itself stay
        style = element.get("style")
        if style is not None:
            element.set("style", _css(style))
        if element.tag == f"{{{SVG_NS}}}style" and element.text:
            element.text = _css(element.text)
    ET.register_namespace("", SVG_NS)
    ET.register_namespace("xlink", "http://www.w3.org/1999/xlink")
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)


def _css(text: str) -> str:
    """CSS with no way out of the file: each `url()` not to `#id` and each `@import` goes,
    and CSS that still names another place (`//`) goes whole."""
    text = _URL_IN_CSS.sub("none", text)
    return "" if "//" in text or "\\" in text else text


def media_serve(request: Any, path: str) -> Any:
    """An upload on the local storage (`MEDIA_ROOT`, read per request), served as a file that
    can run nothing: no sniffing, and a sandboxing policy that loads nothing from elsewhere."""
    from django.conf import settings
    from django.http import Http404
    from django.views.static import serve

    try:
        response = serve(request, path, document_root=settings.MEDIA_ROOT)
    except OSError as error:  # a name the filesystem refuses (too long, bad bytes): none such
        raise Http404("There is no such file.") from error
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'; sandbox"
    return response
