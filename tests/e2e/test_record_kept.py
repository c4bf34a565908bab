"""The player's record keeps its word (issue 29): a refused import changes nothing, an empty file is
refused, the statistics panel fits the screen, and an import asks before it replaces anything. A
replayed deal link counting, and another day's daily deal played as practice, are the runner's to
show in CPython: tests/test_ui_record_flow.py."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

import build

from . import game as g
from .conftest import PageGuard, guarded_page
from .test_layout import DEVICES, VIEWPORTS
from .test_record import SEED, next_hand, stats

#: Fills localStorage to the last character: big strings first, then ever smaller ones, until even
#: one character is refused. Returns how many keys it wrote.
FILL_JS = """() => {
  let n = 0, size = 1 << 20;
  while (size >= 1) {
    try { localStorage.setItem('test.fill.' + n, 'x'.repeat(size)); n++; }
    catch (e) { size = Math.floor(size / 2); }
  }
  return n;
}"""
FREE_JS = """() => { for (const k of Object.keys(localStorage)) if (k.startsWith('test.fill.')) localStorage.removeItem(k); }"""


def data_file(hands: int, save: str | None = None, date: str | None = None) -> str:
    """A valid data file of this game whose record holds ``hands`` hands (and ``save``, a match); its
    record is longer than a one-hand record (it counted 100 keys), so full storage cannot take it."""
    counted = [f"{n:016x}/{n % 30 + 1}" for n in range(100)]
    record = {"schema": 2, "tallies": {"all": {"hands_played": hands}}, "counted": counted, "daily": {}}
    data: dict[str, Any] = {"format": "gongzhu-player-data", "version": 1, "record": record, "save": save}
    if date is not None:
        data["date"] = date
    return json.dumps(data)


def panel_says(page: Page, text: str) -> None:
    page.wait_for_function(
        "t => (document.querySelector('[data-testid=statistics]') || {textContent: ''}).textContent.includes(t)",
        arg=text,
    )


def stored_hands(page: Page) -> int:
    record = json.loads(page.evaluate("localStorage.getItem('gongzhu.record.v1')"))
    hands: int = record["tallies"]["all"]["hands_played"]
    return hands


def test_an_import_refused_by_full_storage_leaves_the_players_record(
    desktop_page: Page, site: build.SiteServer, guard: PageGuard
) -> None:
    page = desktop_page
    g.open_at_summary(page, site, SEED)
    assert stats(page)["hands_played"] == "1"
    assert page.evaluate(FILL_JS) > 0
    page.click("[data-testid=summary-statistics]")
    g.choose_file(page, data_file(777))
    page.click("[data-testid=import-confirm]")
    panel_says(page, "the browser's storage is full")
    assert page.inner_text("[data-testid=statistics] [data-stat=hands_played]") == "1"
    page.click("[data-testid=statistics] [data-action=close]")
    assert stats(page)["hands_played"] == "1"  # read afresh: the refused write is not read back
    assert stored_hands(page) == 1
    page.evaluate(FREE_JS)
    next_hand(page)
    g.finish_hand(page)
    assert stats(page)["hands_played"] == "2"
    assert stored_hands(page) == 2


def test_an_empty_file_is_refused_with_its_reason(
    desktop_page: Page, site: build.SiteServer, guard: PageGuard
) -> None:
    page = desktop_page
    g.open_at_summary(page, site, SEED)
    before = g.stored(page)
    page.click("[data-testid=summary-statistics]")
    g.choose_file(page, "")
    panel_says(page, "This file could not be imported: it is empty.")
    after = g.stored(page)
    assert after == before
    assert page.inner_text("[data-testid=statistics] [data-stat=hands_played]") == "1"


#: The statistics panel's box and, for each of its actions, its box and whether a tap at its middle
#: finds it (nothing scrolled: the actions are in view as the panel opens).
PANEL_JS = """() => {
  const panel = document.querySelector('[data-testid=statistics]');
  const box = (e) => { const r = e.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
  const out = {panel: box(panel), actions: {}};
  for (const id of ['export', 'import', 'reset-statistics']) {
    const el = panel.querySelector(`[data-testid=${id}]`);
    const r = box(el);
    const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    out.actions[id] = {...r, hit: !!hit && hit.closest('[data-testid]') === el};
  }
  return out;
}"""


def _panel_fits(found: dict[str, Any], width: int, height: int, where: str) -> None:
    panel = found["panel"]
    assert panel["top"] >= 0 and panel["left"] >= 0, f"the panel is cut at {where}: {panel}"
    assert panel["bottom"] <= height and panel["right"] <= width, f"the panel is cut at {where}: {panel}"
    for name, action in found["actions"].items():
        inside = action["top"] >= panel["top"] - 0.5 and action["bottom"] <= panel["bottom"] + 0.5
        on_screen = action["top"] >= 0 and action["bottom"] <= height
        assert inside and on_screen and action["hit"], f"{name} cannot be reached at {where}: {found}"


@pytest.mark.parametrize("device", sorted(DEVICES))
def test_the_statistics_panel_fits_every_size(
    device: str, chromium_browser: Browser, site: build.SiteServer
) -> None:
    first = DEVICES[device][0]
    with guarded_page(chromium_browser, site, VIEWPORTS[f"{first[0]}x{first[1]}"]) as (page, guard):
        g.open_at_summary(page, site, SEED)
        for width, height in DEVICES[device]:  # the phone turned, the window resized
            where = f"{width}x{height}"
            page.set_viewport_size({"width": width, "height": height})
            page.click("[data-testid=summary-statistics]")
            page.wait_for_selector("[data-testid=statistics]")
            _panel_fits(page.evaluate(PANEL_JS), width, height, where + " (opening)")
            page.wait_for_function("document.getAnimations().every(a => a.playState !== 'running')")
            _panel_fits(page.evaluate(PANEL_JS), width, height, where)
            scroller = "[data-testid=statistics] .stats-scroll"  # the tables scroll inside the panel
            page.eval_on_selector(scroller, "e => { e.scrollTop = e.scrollHeight; }")
            assert page.is_visible("[data-testid=statistics] [data-stat=daily_best_score]"), where
            assert page.evaluate("document.documentElement.scrollHeight <= window.innerHeight"), where
            page.click("[data-testid=statistics] [data-action=close]")
            page.wait_for_selector("[data-testid=statistics]", state="detached")
        guard.check()


def test_an_import_says_what_it_replaces_and_asks_first(
    desktop_page: Page, site: build.SiteServer, guard: PageGuard
) -> None:
    page = desktop_page
    g.open_at_summary(page, site, SEED)
    before = g.stored(page)
    theirs = g.save_text(g.op("new_match", seed=9), bots_exposed=False)
    page.click("[data-testid=summary-statistics]")
    g.choose_file(page, data_file(777, theirs, "2026-11-30"))
    page.wait_for_selector("[data-testid=import-offer]")
    offer = page.inner_text("[data-testid=import-offer]")
    assert "Your statistics: matches played 0, hands played 1." in offer
    assert "The file's statistics: matches played 0, hands played 777." in offer
    assert "The file's match, saved on 2026-11-30, replaces your current match." in offer
    assert g.phase(page) == "hand-over"
    after = g.stored(page)
    assert after == before  # nothing replaced before the player's yes
    page.click("[data-testid=import-cancel]")
    panel_says(page, "Nothing was imported: your data is unchanged.")
    assert page.inner_text("[data-testid=statistics] [data-stat=hands_played]") == "1"
    after = g.stored(page)
    assert after == before
    g.choose_file(page, data_file(777, theirs, "2026-11-30"))
    page.click("[data-testid=import-confirm]")
    page.wait_for_selector("[data-testid=statistics]", state="detached")
    g.settle(page)
    assert stored_hands(page) == 777
    assert page.evaluate("localStorage.getItem('gongzhu.save.v1')") != before[1]
    assert json.loads(page.evaluate("localStorage.getItem('gongzhu.save.v1')"))["view"]["hand_number"] == 1
    assert stats(page)["hands_played"] == "777"
