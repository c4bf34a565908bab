"""The Chinese screenshots show characters, not boxes: this machine has a font for them
(scripts/install-test-deps.sh installs Debian's fonts-noto-cjk), and tools/screenshots.py's check,
which stops the tool rather than save boxes, tells drawn letters from boxes."""

from __future__ import annotations

from playwright.sync_api import Browser

from tools import screenshots

PAGE = '<body style="font-family: system-ui, sans-serif"><p>拱猪 全红：猪羊正负互换 第 3 局 Ґунчжу</p></body>'


def test_chinese_is_drawn_and_boxes_are_seen(chromium_browser: Browser) -> None:
    page = chromium_browser.new_page()
    try:
        page.set_content(PAGE)
        letters = screenshots.page_letters(page)
        assert {"拱", "猪", "Ґ"} <= set(screenshots.page_letters(page, most=100))
        assert len(letters) == 8
        assert screenshots.glyphs_drawn(page, letters), "no Chinese font: run scripts/install-test-deps.sh"
        # characters of the Private Use Area have no font anywhere: each is drawn as the same box
        assert not screenshots.glyphs_drawn(page, ["\ue000", "\ue001", "拱"])
    finally:
        page.close()
