"""Render the web app icons (PNG) from their SVG sources with the test Chromium.

Run once after changing ``web/icons/*.svg``; the PNGs are committed (the build only copies them)::

    python tools/pwa_icons.py
"""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parents[1] / "web" / "icons"
CHROMIUM = os.environ.get("GONGZHU_CHROMIUM", "/usr/bin/chromium")
#: (source SVG, output PNG, size in px)
RENDERS: tuple[tuple[str, str, int], ...] = (
    ("icon.svg", "icon-192.png", 192),
    ("icon.svg", "icon-512.png", 512),
    ("maskable.svg", "maskable-512.png", 512),
)


def main() -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
        for source, output, size in RENDERS:
            page = browser.new_page(viewport={"width": size, "height": size})
            svg = (ICONS / source).read_text(encoding="utf-8")
            page.set_content(
                f'<html><body style="margin:0;background:transparent">'
                f'<div style="width:{size}px;height:{size}px">{svg}</div></body></html>'
            )
            page.add_style_tag(content="svg{width:100%;height:100%;display:block}")
            page.screenshot(path=str(ICONS / output), omit_background=True)
            page.close()
            print(f"{output}: {(ICONS / output).stat().st_size} bytes")
        browser.close()


if __name__ == "__main__":
    main()
