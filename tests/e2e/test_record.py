"""The player's record end to end: statistics counted once across reloads and tabs, the match
chart, broken statistics set aside (issue 14)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

import build

from . import game as g
from .conftest import PageGuard

SEED = 5  # the player (first playable card, no exposure) takes the pig in hands 1 and 2


def predicted_hands(seed: int, hands: int) -> list[dict[str, Any]]:
    """The views at the end of the first ``hands`` hands of a ``?seed=seed&fast=1`` page driven by
    ``g.finish_hand`` (no exposure, the first playable card)."""
    packed = g.finish_like_page(g.op("new_match", seed=seed))
    ends = [packed["view"]]
    while len(ends) < hands:
        packed = g.finish_like_page(g.op("step", state=packed["state"], action={"type": "next_hand"}))
        ends.append(packed["view"])
    return ends


def reload_twice(page: Page, phase: str) -> None:
    """Reload on the summary twice: each time the page comes back to it (and counts nothing)."""
    for _ in range(2):
        page.reload()
        assert g.settle(page) == phase


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


def test_statistics_after_two_hands_with_a_reload_on_each_summary(
    desktop_page: Page, site: build.SiteServer, guard: PageGuard
) -> None:
    page = desktop_page
    ends = predicted_hands(SEED, 2)
    g.open_game(page, site, seed=SEED)
    assert stats(page)["hands_played"] == "0"
    g.finish_hand(page)
    assert g.phase(page) == "hand-over"
    page.reload()
    assert g.settle(page) == "hand-over"
    first = stats(page)
    assert first["hands_played"] == "1"
    assert first["best_hand"] == first["worst_hand"] == str(ends[0]["last_hand"]["scores"][0])
    next_hand(page)
    g.finish_hand(page)
    reload_twice(page, "hand-over")
    second = stats(page)
    assert second["hands_played"] == "2"
    assert second["matches_played"] == "0"
    pigs = sum(1 for view in ends if "pig_taken" in view["moments"][0]["codes"])
    assert second["pigs_taken"] == str(pigs)
    scores = [view["last_hand"]["scores"][0] for view in ends]
    assert (second["best_hand"], second["worst_hand"]) == (str(max(scores)), str(min(scores)))


def test_match_result_counted_once_across_reloads(
    desktop_page: Page, site: build.SiteServer, guard: PageGuard
) -> None:
    page = desktop_page
    final = g.play_out(g.op("new_match", seed=SEED), lambda v: v["phase"] == "match_over")["view"][
        "hand_number"
    ]
    packed = g.play_out(
        g.op("new_match", seed=SEED),
        lambda v: v["hand_number"] == final and v["phase"] == "play" and v["turn"] == 0,
    )
    g.load_save(page, site, g.save_text(packed))
    g.finish_hand(page)
    assert g.phase(page) in ("match-over", "hand-over")
    while g.phase(page) == "hand-over":
        next_hand(page)
        g.finish_hand(page)
    assert page.locator("[data-testid=match-summary] [data-testid=match-chart]").count() == 1
    reload_twice(page, "match-over")
    figures = stats(page)
    assert figures["matches_played"] == "1"
    won = page.evaluate("document.querySelector('[data-testid=match-summary]').classList.contains('won')")
    assert figures["matches_won"] == ("1" if won else "0")


def test_two_tabs_finishing_hands_count_each_hand_once(
    chromium_browser: Browser, site: build.SiteServer
) -> None:
    context = chromium_browser.new_context(viewport={"width": 1000, "height": 700})
    try:
        first = context.new_page()
        g.open_game(first, site, seed=SEED)
        g.finish_hand(first)
        second = context.new_page()
        second.goto(site.url + "?fast=1")
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
    g.open_game(page, site, seed=SEED)
    assert "statistics could not be read" in g.message(page)
    assert page.evaluate("localStorage.getItem('gongzhu.record.corrupt')") == '{"schema": 2, "tallies": 5'
    g.finish_hand(page)
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
        page.goto(site.url + "?fast=1&daily=2026-12-02")
        page.wait_for_function("document.documentElement.dataset.daily === '2026-12-02'")
        g.finish_hand(page)
        bad = [v for v in _axe(page) if v["impact"] in ("serious", "critical")]
        assert not bad, json.dumps(bad, indent=1)
    finally:
        context.close()
