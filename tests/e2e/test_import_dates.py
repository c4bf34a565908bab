"""An imported data file's daily results are checked against its own date and today (issue 41).

A daily result dated after the day the file was exported, or after today, would mark a daily deal
played before it is dealt (and the player's real play that day would count as practice only): the
file is refused with that reason and the player's data stays. The offer of a good file says how many
daily results it brings. The page's "today" is fixed here (``SHIFT_DATE``), so the test does not
depend on the day it runs.
"""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Page

import build
from tools.browser import TEST_QUERY

from . import game as g
from .conftest import PageGuard
from .test_record_kept import panel_says

#: The page's today (UTC).
TODAY = "2026-12-03"
#: Every wait's limit (each ends on its own condition): a cold start on a shared, busy machine.
LONG = 180_000

#: Installed before any page script: the page's clock reads ``TODAY`` (its time keeps flowing).
SHIFT_DATE = """
(() => {
  const Real = Date;
  const shift = Real.parse('TODAYT10:00:00Z') - Real.now();
  class Shifted extends Real {
    constructor(...args) { if (args.length) super(...args); else super(Real.now() + shift); }
    static now() { return Real.now() + shift; }
  }
  window.Date = Shifted;
})();
""".replace("TODAY", TODAY)


def daily_file(daily: dict[str, int], date: str | None) -> str:
    """A valid data file exported on ``date`` (None: a file from before dates) whose record holds
    one daily result, first place with ``score``, for each date of ``daily``."""
    results = {day: {"score": score, "place": 1, "codes": []} for day, score in daily.items()}
    record = {"schema": 2, "tallies": {"all": {"hands_played": 5}}, "counted": [], "daily": results}
    data: dict[str, Any] = {"format": "gongzhu-player-data", "version": 1, "record": record, "save": None}
    if date is not None:
        data["date"] = date
    return json.dumps(data)


def test_daily_results_dated_after_the_file_or_today_are_refused(
    desktop_page: Page, site: build.SiteServer, guard: PageGuard
) -> None:
    page = desktop_page
    page.set_default_timeout(LONG)
    page.add_init_script(SHIFT_DATE)
    page.goto(site.url + f"?seed=5&{TEST_QUERY}")
    g.settle(page, LONG)
    assert page.evaluate("new Date().toISOString().slice(0, 10)") == TODAY
    before = g.stored(page)
    g.menu_click(page, "open-statistics")
    page.wait_for_selector("[data-testid=statistics] [data-testid=import]")
    refused = (
        (daily_file({"2026-12-05": 200}, TODAY), "dated after the day it was exported"),
        (daily_file({"2026-11-30": -10, "2999-12-31": 200}, TODAY), "dated after the day it was exported"),
        (daily_file({"2026-12-05": 200}, "2026-12-05"), "dated after today"),  # (a forged export date)
        (daily_file({"2026-12-04": 200}, None), "dated after today"),  # (a file from before dates)
    )
    for text, reason in refused:
        g.choose_file(page, text)
        panel_says(page, reason)
        said = page.inner_text("[data-testid=statistics]")
        assert "This file could not be imported" in said and "Your data is unchanged." in said
        assert page.locator("[data-testid=import-offer]").count() == 0
        assert g.stored(page) == before

    # A file whose daily results are up to its date and today: offered, saying how many it brings.
    g.choose_file(page, daily_file({"2026-12-03": 200, "2026-11-28": -30}, TODAY))
    page.wait_for_selector("[data-testid=import-offer]")
    assert "The file's daily deal results: 2." in page.inner_text("[data-testid=import-offer]")
    page.click("[data-testid=import-confirm]")
    page.wait_for_function("document.querySelector('#message').textContent.includes('imported')")
    record = json.loads(page.evaluate("localStorage.getItem('gongzhu.record.v1')"))
    assert sorted(record["daily"]) == ["2026-11-28", "2026-12-03"]
    guard.check()
