"""Card art as SVG text an admin pastes or uploads, made safe to inline in a page.

Invariants:
- `svg_clean` returns SVG rebuilt from an allow-list of drawing elements and attributes:
  no script, foreignObject, style element, event handler (on*), external reference
  (href other than "#id"), url() other than "url(#id)", DOCTYPE or entity. Anything else is
  dropped, or the whole text is refused with a message an admin reads (`UnsafeSvg`).
- Its output is what templates mark safe; nothing else from an admin is.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

MAX_SVG_CHARS = 64_000
SVG_NS = "http://www.w3.org/2000/svg"
XLINK_NS = "http://www.w3.org/1999/xlink"
ELEMENTS = frozenset(
    {
        "svg", "g", "defs", "title", "desc", "path", "circle", "ellipse", "line", "polyline",
        "polygon", "rect", "text", "tspan", "linearGradient", "radialGradient", "stop",
        "clipPath", "mask", "pattern", "symbol", "use",
    }
)  # fmt: skip
ATTRIBUTES = frozenset(
    {
        "viewBox", "width", "height", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx",
        "ry", "d", "points", "fill", "fill-opacity", "fill-rule", "stroke", "stroke-width",
        "stroke-opacity", "stroke-linecap", "stroke-linejoin", "stroke-dasharray", "opacity",
        "transform", "id", "offset", "stop-color", "stop-opacity", "gradientUnits",
        "gradientTransform", "patternUnits", "clip-path", "clip-rule", "mask", "font-size",
        "font-family", "font-weight", "text-anchor", "dominant-baseline", "href",
        "preserveAspectRatio", "fx", "fy", "spreadMethod", "letter-spacing",
    }
)  # fmt: skip
_URL = re.compile(r"url\s*\(", re.IGNORECASE)
_LOCAL_URL = re.compile(r"^\s*url\(\s*#[A-Za-z][\w.-]*\s*\)\s*$")


class UnsafeSvg(ValueError):
    """SVG that cannot be made safe; `message` is for the admin."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def svg_clean(text: str) -> str:
    """The safe SVG of `text` (an <svg> document), or UnsafeSvg with the reason."""
    text = text.strip()
    if not text:
        return ""
    if len(text) > MAX_SVG_CHARS:
        raise UnsafeSvg(f"The SVG is too long: at most {MAX_SVG_CHARS:,} characters.")
    if "<!" in text:
        raise UnsafeSvg("The SVG may not hold a DOCTYPE, entity or CDATA section.")
    try:
        root = ET.fromstring(text)
    except ET.ParseError as error:
        raise UnsafeSvg(f"That is not well-formed SVG ({error}).") from None
    if _local(root.tag) != "svg":
        raise UnsafeSvg("The art must be one <svg> element.")
    root.attrib.setdefault("viewBox", "0 0 100 100")
    clean = _rebuild(root)
    ET.register_namespace("", SVG_NS)
    return ET.tostring(clean, encoding="unicode", short_empty_elements=True)


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _rebuild(element: ET.Element) -> ET.Element:
    clean = ET.Element(f"{{{SVG_NS}}}{_local(element.tag)}")
    for name, value in element.attrib.items():
        local = _local(name)
        if local in ATTRIBUTES and _is_safe_value(local, value):
            clean.set(local, value)
    clean.text = element.text
    for child in element:
        if _local(child.tag) in ELEMENTS:
            kept = _rebuild(child)
            kept.tail = child.tail
            clean.append(kept)
    return clean


def _is_safe_value(name: str, value: str) -> bool:
    if name == "href":
        return value.startswith("#")
    if _URL.search(value):
        return bool(_LOCAL_URL.match(value))
    return "javascript:" not in value.lower() and "<" not in value
