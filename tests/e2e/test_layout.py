"""The table fits the six sizes (phones portrait and landscape, a desktop window, a 1920x1080
screen), with the settings sheet closed and open: no scrolling, nothing overlapping or cut, every card
of the hand on screen and big enough to tap, every tap target at least 44 px, every seat's scores
visible, and axe free of serious and critical findings. It looks like a card table at every size: the
trick's cards together in the middle of the felt, the cards growing on a large screen and unchanged
on a phone. The sheet is a dialog: the focus goes into it, Tab stays inside, Escape closes it and the
focus comes back to ☰."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

import build
from tools.browser import TEST_QUERY

from . import game as g
from .conftest import _guarded_context
from .test_accessibility import AXE, _axe

SIZES = ((360, 640), (390, 844), (640, 360), (844, 390), (1280, 800), (1920, 1080))
#: The browser context of each size (``"360x640"`` ...): phones are mobile and touch.
VIEWPORTS: dict[str, dict[str, Any]] = {
    f"{w}x{h}": {"viewport": {"width": w, "height": h}, "is_mobile": w < 1000, "has_touch": w < 1000}
    for w, h in SIZES
}
#: The sizes of each kind of device: a page is opened once per device and turned or resized through its
#: sizes, as a phone turned on its side or a window resized (a phone stays mobile and touch).
DEVICES: dict[str, tuple[tuple[int, int], ...]] = {
    "phone": tuple((w, h) for w, h in SIZES if VIEWPORTS[f"{w}x{h}"]["is_mobile"]),
    "desktop": tuple((w, h) for w, h in SIZES if not VIEWPORTS[f"{w}x{h}"]["is_mobile"]),
}
MIN_TAP_PX = 44
#: The slim bar: one row (issue 17: the table gets the top of the screen back).
MAX_BAR_PX = 52

#: For each hand card: its box, and how much of it a tap reaches (hit-tested, so whatever covers it —
#: a neighbour, a lifted or lowered card of the other row — counts): across its middle, then down the
#: middle of that reachable part.
CARD_BOXES_JS = """() => {
  const cards = [...document.querySelectorAll('#hand [data-card]')];
  const mine = (el, x, y) => { const hit = document.elementFromPoint(x, y);
    return !!hit && hit.closest('[data-card]') === el; };
  return cards.map((el) => {
    const r = el.getBoundingClientRect();
    const midY = (r.top + r.bottom) / 2;
    let first = null, last = null;
    for (let x = Math.ceil(r.left); x < r.right; x++)
      if (mine(el, x, midY)) { if (first === null) first = x; last = x; }
    const midX = first === null ? r.left : (first + last) / 2;
    let tall = 0;
    for (let y = Math.ceil(r.top); y < r.bottom; y++) if (mine(el, midX, y)) tall++;
    return {card: el.dataset.card, left: r.left, top: r.top, right: r.right, bottom: r.bottom,
            tapWidth: first === null ? 0 : last - first + 1, height: tall};
  });
}"""

#: The boxes of the pieces of the table (``selector`` -> name), every visible element of each.
BOXES_JS = """(selectors) => {
  const out = [];
  for (const sel of selectors) {
    for (const el of document.querySelectorAll(sel)) {
      const r = el.getBoundingClientRect();
      if (!r.width || !r.height || getComputedStyle(el).visibility === 'hidden') continue;
      out.push({sel, name: el.dataset.testid || el.dataset.card || el.className || el.tagName,
                left: r.left, top: r.top, right: r.right, bottom: r.bottom});
    }
  }
  return out;
}"""
#: The pieces of the table that must not overlap one another (the hand's cards may overlap each
#: other: their tap width is checked apart).
TABLE_PIECES = (
    "#bar .brand",
    "#bar button",
    ".seat .who",
    ".seat .scores",
    ".seat .backs",
    "#actions button",
    "#hand [data-card]",
    "#trick [data-card]",
)
#: A trick's cards lie within a box of this many card widths by card heights...
TRICK_BOX_CARDS = 2.5
#: ...centred within this share of the felt's width and height of the felt's centre.
TRICK_CENTRE_SHARE = 0.1
#: From this width on, the cards grow with the screen: at least this share of the viewport's height.
LARGE_SCREEN_PX = 1280
LARGE_CARD_SHARE = 0.18
#: The table's card (width, height) on phones, as they were before the large screens grew: unchanged.
PHONE_TABLE_CARD = {"360x640": (56, 78), "390x844": (56, 78), "640x360": (44, 62), "844x390": (44, 62)}

#: The felt (the table between the four seats) and the boxes of the trick's and the hand's cards.
FELT_JS = """() => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height}; };
  const seat = (n) => box(document.getElementById('seat-' + n));
  const bar = box(document.getElementById('bar'));
  const felt = {left: seat(3).right, right: seat(1).left, top: Math.max(seat(2).bottom, bar.bottom),
                bottom: seat(0).top};
  return {felt, trick: [...document.querySelectorAll('#trick [data-card]')].map(box),
          hand: [...document.querySelectorAll('#hand [data-card]')].map(box)};
}"""

#: Every control of the open sheet.
SHEET_CONTROLS = ("[data-testid=sheet] button", "[data-testid=sheet] select", "[data-testid=sheet] a")


def _boxes(page: Page, selectors: tuple[str, ...]) -> list[dict[str, Any]]:
    return list(page.evaluate(BOXES_JS, list(selectors)))


def _overlap(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return bool(
        min(a["right"], b["right"]) - max(a["left"], b["left"]) > 0.5
        and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > 0.5
    )


def _no_overlaps(boxes: list[dict[str, Any]], where: str, same_ok: tuple[str, ...] = ()) -> None:
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if a["sel"] == b["sel"] and a["sel"] in same_ok:
                continue
            assert not _overlap(a, b), f"{a['name']} overlaps {b['name']} at {where}: {a} {b}"


def _on_screen(box: dict[str, Any], width: int, height: int, where: str) -> None:
    inside = box["left"] >= -0.5 and box["top"] >= -0.5 and box["right"] <= width + 0.5
    assert inside and box["bottom"] <= height + 0.5, f"{box['name']} is cut at {where}: {box}"


def _axe_clean(page: Page, where: str) -> None:
    bad = [v for v in _axe(page) if v["impact"] in ("serious", "critical")]
    assert not bad, f"axe at {where}: " + json.dumps(bad, indent=1)


def _focus_in_sheet(page: Page) -> bool:
    return bool(page.evaluate("!!document.activeElement.closest('[data-testid=sheet]')"))


def _check_table(page: Page, width: int, height: int, where: str) -> None:
    size = page.evaluate(
        "({w: document.documentElement.scrollWidth, h: document.documentElement.scrollHeight})"
    )
    assert size["w"] <= width and size["h"] <= height, f"the page scrolls at {where}: {size}"
    cards = page.evaluate(CARD_BOXES_JS)
    assert len(cards) == 13
    for box in cards:
        assert box["left"] >= 0 and box["right"] <= width, f"{box['card']} is off screen at {where}"
        assert box["top"] >= 0 and box["bottom"] <= height, f"{box['card']} is off screen at {where}"
        assert box["tapWidth"] >= MIN_TAP_PX and box["height"] >= MIN_TAP_PX, f"{box} too small at {where}"
    for seat in range(4):
        for testid in ("hand-score", "total"):
            assert page.locator(f'[data-seat="{seat}"] [data-testid="{testid}"]').is_visible()
    pieces = _boxes(page, TABLE_PIECES)
    for box in pieces:
        _on_screen(box, width, height, where)
    _no_overlaps(pieces, where, same_ok=("#hand [data-card]", "#trick [data-card]"))
    bar = page.locator("#bar").bounding_box()
    assert bar is not None and bar["height"] <= MAX_BAR_PX, f"the bar is {bar} at {where}"
    for box in _boxes(page, ("#bar button", "#actions button")):
        tall, wide = box["bottom"] - box["top"], box["right"] - box["left"]
        assert tall >= MIN_TAP_PX and wide >= MIN_TAP_PX, f"{box['name']} is {wide}x{tall} at {where}"


def _centre_fits(low: float, high: float, span: float, centre: float, slack: float) -> bool:
    """Is there a box of ``span`` holding [low, high] whose centre is within ``slack`` of ``centre``?
    (Its centre may lie anywhere in [high - span/2, low + span/2].)"""
    return max(high - span / 2, centre - slack) <= min(low + span / 2, centre + slack) + 0.5


def _check_trick(page: Page, width: int, height: int, where: str) -> None:
    """A card table at every size: the trick's cards together in the middle of the felt, the cards
    growing with a large screen and keeping their size on a phone."""
    got = page.evaluate(FELT_JS)
    felt, trick, hand = got["felt"], got["trick"], got["hand"]
    assert trick, f"no trick on the table at {where}"
    w, h = trick[0]["width"], trick[0]["height"]
    left, right = min(c["left"] for c in trick), max(c["right"] for c in trick)
    top, bottom = min(c["top"] for c in trick), max(c["bottom"] for c in trick)
    span_x, span_y = TRICK_BOX_CARDS * w, TRICK_BOX_CARDS * h
    assert right - left <= span_x + 0.5 and bottom - top <= span_y + 0.5, (
        f"the trick spreads over {right - left:.0f}x{bottom - top:.0f} px with {w:.0f}x{h:.0f} cards at {where}"
    )
    felt_w, felt_h = felt["right"] - felt["left"], felt["bottom"] - felt["top"]
    cx, cy = (felt["left"] + felt["right"]) / 2, (felt["top"] + felt["bottom"]) / 2
    assert _centre_fits(left, right, span_x, cx, TRICK_CENTRE_SHARE * felt_w), (
        f"the trick ({left:.0f}-{right:.0f}) is not centred on the felt ({felt}) at {where}"
    )
    assert _centre_fits(top, bottom, span_y, cy, TRICK_CENTRE_SHARE * felt_h), (
        f"the trick ({top:.0f}-{bottom:.0f}) is not centred on the felt ({felt}) at {where}"
    )
    if width >= LARGE_SCREEN_PX:
        for kind, cards in (("table", trick), ("hand", hand)):
            small = [c["height"] for c in cards if c["height"] < LARGE_CARD_SHARE * height - 0.5]
            assert not small, (
                f"{kind} cards {small} px tall, under {LARGE_CARD_SHARE:.0%} of {height} at {where}"
            )
    elif where in PHONE_TABLE_CARD:
        assert (round(w), round(h)) == PHONE_TABLE_CARD[where], f"table cards {w}x{h} at {where}"


def _check_sheet(page: Page, width: int, height: int, where: str) -> None:
    page.wait_for_function(  # (it has slid in)
        "document.querySelector('[data-testid=sheet]').getAnimations().every(a => a.playState === 'finished')"
    )
    sheet = _boxes(page, ("[data-testid=sheet]",))
    assert len(sheet) == 1
    _on_screen(sheet[0], width, height, where)
    controls = _boxes(page, SHEET_CONTROLS)
    assert len(controls) >= 11  # close, 4 selects, 3 switches, captured, statistics, daily, rules
    for box in controls:
        _on_screen(box, width, height, where)  # all of it on screen: no scrolling in the sheet
        tall, wide = box["bottom"] - box["top"], box["right"] - box["left"]
        assert tall >= MIN_TAP_PX and wide >= MIN_TAP_PX, f"{box['name']} is {wide}x{tall} at {where}"
    _no_overlaps(controls, where)


def _sheet_by_keyboard(page: Page, where: str) -> None:
    """☰ with the keyboard: the focus moves into the sheet, Tab and Shift+Tab stay inside it,
    Escape closes it and the focus is back on ☰."""
    page.focus("[data-testid=menu]")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=sheet]")
    page.wait_for_function("!!document.activeElement.closest('[data-testid=sheet]')")
    assert page.get_attribute("[data-testid=menu]", "aria-expanded") == "true"
    count = page.locator("[data-testid=sheet] :is(button:not([disabled]), select, a[href])").count()
    for _ in range(count + 1):
        page.keyboard.press("Tab")
        assert _focus_in_sheet(page), f"Tab left the sheet at {where}"
    for _ in range(2):
        page.keyboard.press("Shift+Tab")
        assert _focus_in_sheet(page), f"Shift+Tab left the sheet at {where}"
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-testid=sheet]", state="detached")
    page.wait_for_function("document.activeElement.dataset.testid === 'menu'")
    assert page.get_attribute("[data-testid=menu]", "aria-expanded") == "false"


def resized(page: Page, device: str) -> Iterator[tuple[int, int, str]]:
    """``page`` at each size of ``device`` in turn: its width, height and name. The table is laid out
    by CSS alone (ui/ never reads the window's size), so a resized page is laid out as one opened at
    that size."""
    for width, height in DEVICES[device]:
        page.set_viewport_size({"width": width, "height": height})
        yield width, height, f"{width}x{height}"


def set_storage(page: Page, site: build.SiteServer, items: dict[str, str | None]) -> None:
    """Store ``items`` (None: remove) from another page of the site, the rules (the game saves on pagehide: a write
    made on its live page would be overwritten)."""
    page.goto(site.url + "rules.html")
    page.evaluate(
        "(items) => { for (const [k, v] of Object.entries(items))"
        " v === null ? localStorage.removeItem(k) : localStorage.setItem(k, v); }",
        items,
    )


@pytest.mark.skipif(not AXE.is_file(), reason="node_modules/axe-core missing: npm ci")
@pytest.mark.parametrize("device", sorted(DEVICES))
def test_table_and_sheet_fit_every_size(
    device: str, chromium_browser: Browser, site: build.SiteServer
) -> None:
    first = DEVICES[device][0]
    context, guard = _guarded_context(
        chromium_browser, site, {**VIEWPORTS[f"{first[0]}x{first[1]}"], "bypass_csp": True}
    )  # (axe)
    # the first trick: the player's turn, 13 cards in hand, three cards on the table
    mid = g.save_text(
        g.play_out(g.op("new_match", seed=3), lambda v: v["phase"] == "play" and v["turn"] == 0)
    )
    try:
        page = context.new_page()
        guard.watch(page)
        set_storage(page, site, {"gongzhu.save.v1": mid})
        page.goto(site.url + f"?{TEST_QUERY}")
        assert g.settle(page) == "play"
        for k, (width, height, where) in enumerate(resized(page, device)):
            assert len(g.trick(page)) == 3, where
            _check_table(page, width, height, where)
            _check_trick(page, width, height, where)
            _axe_clean(page, where + " (sheet closed)")
            g.open_menu(page)
            _check_sheet(page, width, height, where)
            assert _focus_in_sheet(page)
            _axe_clean(page, where + " (sheet open)")
            page.click("[data-testid=menu-close]")
            page.wait_for_selector("[data-testid=sheet]", state="detached")
            assert page.evaluate("document.activeElement.dataset.testid") == "menu"
            if k:
                continue
            # What the keyboard does is the same at every size: checked at the first.
            _sheet_by_keyboard(page, where)
            # a panel opened from the sheet: closing it gives the focus back to ☰
            g.open_menu(page)
            g.menu_click(page, "view-captured")
            page.wait_for_selector("[data-testid=captured]")
            page.keyboard.press("Escape")
            page.wait_for_selector("[data-testid=captured]", state="detached")
            page.wait_for_function("document.activeElement.dataset.testid === 'menu'")  # back to ☰
        # the deal: cards to expose (marked), three buttons
        set_storage(page, site, {"gongzhu.save.v1": None})
        g.open_game(page, site, seed=7)
        assert g.phase(page) == "expose"
        for width, height, where in resized(page, device):
            _check_table(page, width, height, where + " (expose)")
    finally:
        context.close()
    guard.check()


def test_pace_and_sound_are_saved_settings(desktop_page: Page, site: build.SiteServer) -> None:
    page = desktop_page
    g.open_game(page, site, seed=4)
    g.open_menu(page)
    assert page.input_value("[data-testid=play-speed]") == "normal"
    assert page.input_value("[data-testid=trick-pause]") == "normal"
    assert page.get_attribute("[data-testid=sound]", "aria-pressed") == "false"  # off by default
    page.select_option("[data-testid=play-speed]", "slow")
    page.select_option("[data-testid=trick-pause]", "long")
    g.menu_click(page, "sound")
    page.wait_for_selector("[data-testid=sound][aria-pressed=true]")
    assert _focus_in_sheet(page)  # (the switch redrawn keeps the focus)
    saved = page.evaluate("JSON.parse(localStorage.getItem('gongzhu.settings.v1'))")
    assert (saved["play_speed"], saved["trick_pause"], saved["sound"]) == ("slow", "long", True)
    page.reload()
    g.settle(page)
    assert g.menu_value(page, "play-speed") == "slow"
    assert g.menu_value(page, "trick-pause") == "long"
    g.open_menu(page)
    assert page.get_attribute("[data-testid=sound]", "aria-pressed") == "true"
