"""Draw the app's PNG icons from its SVGs (static/img/app/): run it after changing one.

    .venv/bin/python scripts/app_icons.py [--chromium PATH]

No image library is needed: the browser the tests already use draws each SVG at the exact
size (a transparent page, one <img>, a screenshot). The PNGs are committed, so a server
never runs this.
"""

from __future__ import annotations

import argparse
import base64
from pathlib import Path

from playwright.sync_api import sync_playwright

FOLDER = Path(__file__).resolve().parents[1] / "static" / "img" / "app"
# (svg, png, size): what the manifest, iOS and the notifications name.
ICONS = [
    ("icon.svg", "icon-192.png", 192),
    ("icon.svg", "icon-512.png", 512),
    ("maskable.svg", "maskable-512.png", 512),
    ("maskable.svg", "apple-touch-icon.png", 180),  # iOS rounds the corners itself
    ("badge.svg", "badge-96.png", 96),  # Android's status bar: white on transparent
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default="/usr/bin/chromium", help="the browser to draw with")
    args = parser.parse_args()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=args.chromium, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        page = browser.new_page()
        for svg, png, size in ICONS:
            data = base64.b64encode((FOLDER / svg).read_bytes()).decode()
            page.set_viewport_size({"width": size, "height": size})
            page.set_content(
                "<html><body style='margin:0;background:transparent'>"
                f"<img src='data:image/svg+xml;base64,{data}' width='{size}' height='{size}'"
                " style='display:block'></body></html>"
            )
            page.wait_for_function("document.images[0].complete")
            page.screenshot(path=str(FOLDER / png), omit_background=True)
            print(f"{png}: {size}x{size}")
        browser.close()


if __name__ == "__main__":
    main()
