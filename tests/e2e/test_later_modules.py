"""The UI modules the saved table does not need (ui/core/later.py) are imported once the game is
interactive: the parts they draw work when the player reaches them before that (issue 13)."""

from __future__ import annotations

import json

from playwright.sync_api import Page, Route

import build
from tools.browser import TEST_QUERY

from . import game as g
from .conftest import PageGuard

SEED = 3


def test_summary_statistics_menu_and_review_before_the_engine_answers(
    desktop_page: Page, site: build.SiteServer, guard: PageGuard
) -> None:
    """The engine held back (its Pyodide runtime never answered), so the game never became
    interactive and ``later.import_rest`` never ran: the resumed hand summary still has its chart,
    coach and buttons, the statistics and the menu's entries open; then the engine answers, the
    review opens and play goes on."""
    page = desktop_page
    packed = g.play_out(g.op("new_match", seed=SEED), lambda v: v["phase"] == "hand_over")
    held: list[Route] = []
    holding = [True]

    def hold(route: Route) -> None:
        if holding[0]:
            held.append(route)
        else:
            route.continue_()

    page.context.route("**/runtime/pyodide/pyodide.asm.mjs", hold)
    page.add_init_script(f"localStorage.setItem('gongzhu.save.v1', {json.dumps(g.save_text(packed))});")
    page.goto(site.url + f"?{TEST_QUERY}")
    page.wait_for_selector("[data-testid=hand-summary]")
    for testid in ("match-chart", "summary-statistics", "review-hand", "next-hand"):
        assert page.locator(f"[data-testid=hand-summary] [data-testid={testid}]").count() == 1, testid

    page.click("[data-testid=summary-statistics]")
    page.wait_for_selector("[data-testid=statistics]")
    assert page.inner_text("[data-testid=statistics] [data-stat=hands_played]") == "0"
    page.click("[data-testid=statistics] [data-action=close]")
    page.wait_for_selector("[data-testid=hand-summary]")
    page.click("[data-testid=menu]")
    page.wait_for_selector("[data-testid=sheet]")
    assert page.locator("[data-testid=open-statistics]").count() == 1
    assert page.locator("[data-testid=open-daily]").count() == 1
    g.close_menu(page)
    g.wait_until(page, lambda: bool(held), "the engine worker asks for Pyodide")  # (in its own time)
    assert page.get_attribute("html", "data-engine") == "starting"

    holding[0] = False
    for route in held:
        route.continue_()
    assert g.settle(page) == "hand-over"
    page.click("[data-testid=review-hand]")  # (the review asks the engine: offered once it is ready)
    page.wait_for_selector("[data-testid=review]")
    page.click("[data-testid=review-close]")
    page.wait_for_selector("[data-testid=review]", state="detached")
    page.click("[data-testid=next-hand]")
    page.wait_for_selector("[data-testid=hand-summary]", state="detached")
    assert g.settle(page) in ("expose", "play")
    guard.check()
