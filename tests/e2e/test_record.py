"""The player's record end to end: statistics counted once across tabs, the match chart, broken
statistics set aside, reset and export/import (issue 14). Counting once across reloads, and a
match's result, are the runner's to show in CPython: tests/test_ui_record_flow.py."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from playwright.sync_api import Browser, Page

import build
from tools.browser import TEST_QUERY

from . import game as g
from .conftest import PageGuard

#: Today's date (UTC): the daily deal whose result is recorded.
TODAY = datetime.now(UTC).date().isoformat()
SEED = 5  # the player (first playable card, no exposure) takes the pig in hands 1 and 2


def next_hand(page: Page) -> None:
    page.click("[data-testid=next-hand]")
    page.wait_for_selector("[data-testid=hand-summary]", state="detached")


def stats(page: Page) -> dict[str, str]:
    summary = page.locator("[data-testid=summary-statistics]")
    g.menu_click(page, "summary-statistics" if summary.count() else "open-statistics")
    page.wait_for_selector("[data-testid=statistics]")
    names = ("matches_played", "matches_won", "hands_played", "pigs_taken", "best_hand", "worst_hand")
    out = {name: page.inner_text(f"[data-testid=statistics] [data-stat={name}]") for name in names}
    page.click("[data-testid=statistics] [data-action=close]")
    page.wait_for_selector("[data-testid=statistics]", state="detached")
    return out


def test_two_tabs_finishing_hands_count_each_hand_once(
    chromium_browser: Browser, site: build.SiteServer
) -> None:
    context = chromium_browser.new_context(viewport={"width": 1000, "height": 700})
    try:
        first = context.new_page()
        g.load_save(first, site, g.save_text(g.at_last_trick(SEED)))  # (hand 1's last trick)
        g.finish_hand(first)
        second = context.new_page()
        second.goto(site.url + f"?{TEST_QUERY}")
        assert g.settle(second) == "hand-over"  # the same match: its summary is not counted again
        next_hand(second)
        g.finish_hand(second)
        first.wait_for_selector("[data-testid=elsewhere]")
        figures = stats(second)
        assert figures["hands_played"] == "2"
        record = json.loads(first.evaluate("localStorage.getItem('gongzhu.record.v1')"))
        assert record["tallies"]["all"]["hands_played"] == 2
        assert record["tallies"]["normal"]["hands_played"] == 2
    finally:
        context.close()


def test_chart_on_the_summary_at_360(phone_page: Page, site: build.SiteServer) -> None:
    page = phone_page
    page.set_viewport_size({"width": 360, "height": 640})
    g.open_at_summary(page, site, SEED)
    chart = page.locator("[data-testid=hand-summary] [data-testid=match-chart]")
    assert chart.evaluate("e => e.tagName.toLowerCase()") == "svg"
    # The chart's box, read in one step once it is laid out (the summary can be redrawn meanwhile,
    # e.g. when the coach's verdict arrives, so a visible element may be a replaced one a moment later).
    box = page.wait_for_function(
        """() => { const e = document.querySelector('[data-testid=hand-summary] [data-testid=match-chart]');
                   const r = e && e.getBoundingClientRect();
                   return r && r.width > 0 ? {x: r.x, width: r.width} : null; }"""
    ).json_value()
    assert box["width"] >= 280 and box["x"] >= 0 and box["x"] + box["width"] <= 360
    assert "Totals after hand 1" in (chart.get_attribute("aria-label") or "")
    assert chart.locator("polyline").count() == 4
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_broken_statistics_are_set_aside_with_a_notice(
    desktop_page: Page, site: build.SiteServer, guard: PageGuard
) -> None:
    page = desktop_page
    page.add_init_script(
        "if (!sessionStorage.getItem('t')) { localStorage.setItem('gongzhu.record.v1', '{\"schema\": 2, \"tallies\": 5');"
        " sessionStorage.setItem('t', '1'); }"
    )
    g.open_at_summary(page, site, SEED)  # (a hand ends: the new record counts it)
    assert "statistics could not be read" in g.message(page)
    assert page.evaluate("localStorage.getItem('gongzhu.record.corrupt')") == '{"schema": 2, "tallies": 5'
    assert stats(page)["hands_played"] == "1"


def test_reset_statistics_asks_first(desktop_page: Page, site: build.SiteServer, guard: PageGuard) -> None:
    page = desktop_page
    g.open_at_summary(page, site, SEED)
    page.click("[data-testid=summary-statistics]")
    page.click("[data-testid=reset-statistics]")
    assert page.inner_text("[data-testid=statistics] [data-stat=hands_played]") == "1"
    page.click("[data-testid=reset-cancel]")
    assert page.inner_text("[data-testid=statistics] [data-stat=hands_played]") == "1"
    page.click("[data-testid=reset-statistics]")
    page.click("[data-testid=reset-confirm]")
    page.wait_for_function("document.querySelector('[data-stat=hands_played]').textContent === '0'")
    page.reload()
    assert g.settle(page) == "hand-over"
    assert stats(page)["hands_played"] == "0"  # the summary on show is not counted again


def test_export_then_import_of_a_broken_file_and_of_the_export(
    desktop_page: Page, site: build.SiteServer, guard: PageGuard
) -> None:
    page = desktop_page
    g.open_at_summary(page, site, SEED)
    page.click("[data-testid=summary-statistics]")
    with page.expect_download() as download:
        page.click("[data-testid=export]")
    path = download.value.path()
    exported = Path(path).read_text(encoding="utf-8")
    assert json.loads(exported)["format"] == "gongzhu-player-data"
    before = g.stored(page)
    broken = json.loads(exported)
    broken["record"]["tallies"]["all"]["hands_played"] = -5
    for text, reason in (
        (json.dumps(broken), "it is damaged"),
        ('{"hello": "world"}', "not a Gong Zhu data file"),
        (json.dumps(dict(json.loads(exported), version=99)), "newer version"),
    ):
        g.choose_file(page, text)
        page.wait_for_function(
            "t => document.querySelector('[data-testid=statistics]').textContent.includes(t)", arg=reason
        )
        after = g.stored(page)
        assert after == before
    # A fresh browser takes the exported data: the statistics and the match come with it.
    page.evaluate("localStorage.clear()")
    page.reload()
    g.settle(page)

    def open_import() -> None:
        g.menu_click(page, "open-statistics")
        page.click("[data-testid=import]")

    g.choose_file(page, exported, open_import)
    page.click("[data-testid=import-confirm]")  # (an import asks first: tests/e2e/test_record_kept.py)
    page.wait_for_function("document.querySelector('#message').textContent.includes('imported')")
    assert g.settle(page) == "hand-over"
    assert stats(page)["hands_played"] == "1"


def test_the_statistics_and_daily_panels_pass_axe(chromium_browser: Browser, site: build.SiteServer) -> None:
    from .test_accessibility import _axe

    context = chromium_browser.new_context(
        viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True, bypass_csp=True
    )
    try:
        page = context.new_page()
        g.open_at_summary(page, site, SEED)
        page.click("[data-testid=summary-statistics]")
        page.wait_for_selector("[data-testid=statistics]")
        bad = [v for v in _axe(page) if v["impact"] in ("serious", "critical")]
        assert not bad, json.dumps(bad, indent=1)
        g.open_daily_at_last_trick(page, site, TODAY)  # (today's: its result is recorded and shared)
        g.finish_hand(page)
        bad = [v for v in _axe(page) if v["impact"] in ("serious", "critical")]
        assert not bad, json.dumps(bad, indent=1)
    finally:
        context.close()
