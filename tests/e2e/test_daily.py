"""The daily deal end to end: the same hand for a date, recorded once, replayed for practice,
shared, and the match in progress kept (issue 14)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from playwright.sync_api import Page

import build
from tools.browser import TEST_QUERY

from . import game as g
from .conftest import PageGuard

#: Today's date (UTC): only today's deal is recorded (another day's is practice, tests/e2e/test_record_kept.py).
DATE = datetime.now(UTC).date().isoformat()


def predicted_daily(date: str) -> dict[str, Any]:
    """The end of the daily hand of ``date`` played by ``g.finish_hand`` against the Hard opponents."""
    view: dict[str, Any] = g.daily_played(date)["view"]
    return view


def daily_attr(page: Page) -> str | None:
    value = page.evaluate("document.documentElement.dataset.daily ?? null")
    return None if value is None else str(value)


def test_daily_deal_played_twice_the_same_day(
    desktop_page: Page, site: build.SiteServer, guard: PageGuard
) -> None:
    page = desktop_page
    expected = predicted_daily(DATE)
    score = expected["last_hand"]["scores"][0]
    g.open_game(page, site, seed=5)
    if g.phase(page) == "expose":
        g.expose_none(page)
    g.settle(page)
    match_before = g.table_snapshot(page)
    # Today's hand, left at its last trick (its slot): the page resumes it there, over the match.
    g.open_daily_at_last_trick(page, site, DATE)
    g.finish_hand(page)
    summary = page.inner_text("[data-testid=hand-summary]")
    assert DATE in summary and f"Place {expected['moments'][0]['place']} of 4" in summary
    assert page.locator("[data-testid=next-hand]").count() == 0
    record = json.loads(page.evaluate("localStorage.getItem('gongzhu.record.v1')"))
    assert record["daily"] == {
        DATE: {
            "score": score,
            "place": expected["moments"][0]["place"],
            "codes": expected["moments"][0]["codes"],
        }
    }
    assert record["tallies"]["all"]["hands_played"] == 0  # a daily deal is not a match hand
    page.click("[data-testid=share]")
    page.wait_for_function(f"document.querySelector('#message').textContent.includes('{DATE}')")
    shared = page.inner_text("#message")
    assert (f"{score:+d}" if score else "0") in shared
    assert not any(code in shared for code in ("QS", "JD", "TC", "♠", "♥"))  # no spoiler

    # Back to the match, as it was.
    page.click("[data-testid=daily-leave]")
    page.wait_for_function("document.documentElement.dataset.daily === undefined")
    g.settle(page)
    assert g.table_snapshot(page) == match_before

    # The same day again: the result, and a replay for practice (that it records nothing when played
    # out is checked through the page's runner in CPython: tests/test_ui_flow.py).
    page.goto(site.url + f"?{TEST_QUERY}&daily={DATE}")
    page.wait_for_selector("[data-testid=daily-panel] [data-testid=daily-result]")
    assert daily_attr(page) is None  # the match is on the table, under the result
    page.click("[data-testid=daily-practice]")
    page.wait_for_function(f"document.documentElement.dataset.daily === '{DATE}'")
    g.settle(page)
    assert g.hand(page) == g.op("daily", date=DATE)["view"]["hand"]  # the same cards for everyone
    again = json.loads(page.evaluate("localStorage.getItem('gongzhu.record.v1')"))
    assert again["daily"] == record["daily"]
    page.reload()  # the practice is not the match: a reload brings the match back
    g.settle(page)
    assert daily_attr(page) is None and g.table_snapshot(page) == match_before


def test_a_bad_daily_date_is_refused_with_a_notice(
    desktop_page: Page, site: build.SiteServer, guard: PageGuard
) -> None:
    page = desktop_page
    page.goto(site.url + f"?{TEST_QUERY}&daily=2026-02-30")
    g.settle(page)
    assert "date in this link is not valid" in g.message(page)
    assert daily_attr(page) is None


def test_the_daily_deal_from_the_menu_keeps_the_match(
    desktop_page: Page, site: build.SiteServer, guard: PageGuard
) -> None:
    page = desktop_page
    g.open_game(page, site, seed=5)
    before = g.table_snapshot(page)
    g.menu_click(page, "open-daily")
    page.wait_for_function("/^\\d{4}-\\d{2}-\\d{2}$/.test(document.documentElement.dataset.daily || '')")
    today = page.evaluate("new Date().toISOString().slice(0, 10)")
    assert daily_attr(page) == today
    g.settle(page)
    page.reload()  # the daily hand is not the match: a reload brings the match back
    g.settle(page)
    assert daily_attr(page) is None
    assert g.table_snapshot(page) == before
