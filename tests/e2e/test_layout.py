"""The table fits phone portrait, phone landscape and a desktop window: no scrolling, every card
of the hand on screen and big enough to tap, every seat's scores visible."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser

import build

from . import game as g
from .conftest import _guarded_context

VIEWPORTS = {
    "phone-portrait": {"viewport": {"width": 360, "height": 640}, "is_mobile": True, "has_touch": True},
    "phone-landscape": {"viewport": {"width": 640, "height": 360}, "is_mobile": True, "has_touch": True},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}
MIN_TAP_PX = 44

#: For each hand card: its box and the part of it no later card covers (what a tap can reach).
CARD_BOXES_JS = """() => {
  const cards = [...document.querySelectorAll('#hand [data-card]')];
  return cards.map((el) => {
    const r = el.getBoundingClientRect();
    let right = r.right;
    for (const other of cards) {
      const o = other.getBoundingClientRect();
      const overlaps = o.top < r.bottom && o.bottom > r.top;
      if (other !== el && overlaps && o.left > r.left && o.left < right &&
          other.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_PRECEDING) right = o.left;
    }
    return {card: el.dataset.card, left: r.left, top: r.top, right: r.right, bottom: r.bottom,
            tapWidth: right - r.left, height: r.height};
  });
}"""


@pytest.mark.parametrize("name", list(VIEWPORTS))
def test_table_fits_without_scrolling_and_cards_are_tappable(
    name: str, chromium_browser: Browser, site: build.SiteServer
) -> None:
    options: dict[str, Any] = VIEWPORTS[name]
    context, guard = _guarded_context(chromium_browser, site, options)
    try:
        page = context.new_page()
        guard.watch(page)
        g.open_game(page, site, seed=g.find_seed(lambda s: not g.my_exposable(s)))
        width, height = options["viewport"]["width"], options["viewport"]["height"]
        size = page.evaluate(
            "({w: document.documentElement.scrollWidth, h: document.documentElement.scrollHeight})"
        )
        assert size["w"] <= width and size["h"] <= height, f"the page scrolls at {name}: {size}"
        boxes = page.evaluate(CARD_BOXES_JS)
        assert len(boxes) == 13
        for box in boxes:
            assert box["left"] >= 0 and box["right"] <= width, f"{box['card']} is off screen at {name}"
            assert box["top"] >= 0 and box["bottom"] <= height, f"{box['card']} is off screen at {name}"
            assert box["tapWidth"] >= MIN_TAP_PX and box["height"] >= MIN_TAP_PX, f"{box} too small at {name}"
        for seat in range(4):
            for testid in ("hand-score", "total"):
                assert page.locator(f'[data-seat="{seat}"] [data-testid="{testid}"]').is_visible()
    finally:
        context.close()
    guard.check()
