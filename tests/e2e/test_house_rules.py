"""House rules in the browser: chosen in the settings sheet for the next match (the match in
progress keeps its rules), named by a badge and the summaries; a quick match (−500)'s last card played
to its result (its hands are played in CPython: tests/test_page_replays.py), and a hand without an
expose phase. (How a hand under house rules counts, only under its rule set, and how the statistics
panel shows it: tests/test_record.py and tests/test_ui_house_rules.py, through the page's own code.)"""

from __future__ import annotations

import json

from playwright.sync_api import Page

import build
from tests.support.replay import finish_like_page, my_last_card, quick_match_hands, save_text
from tools.browser import TEST_QUERY

from . import game as g


def _new_match_with(page: Page, site: build.SiteServer, testid: str, value: str, seed: int) -> None:
    """Choose a house rule in the sheet during a match, then start the next match from a deal link."""
    g.open_game(page, site, seed=seed)
    g.open_menu(page)
    assert "This match keeps its rules: standard rules." in page.inner_text("[data-testid=house-rules-note]")
    page.select_option(f"[data-testid={testid}]", value)
    g.close_menu(page)
    g.wait_message(page, "House rules apply from the next match.")
    assert page.locator("[data-testid=house-rules-badge]").count() == 0  # this match keeps its rules
    page.goto(site.url + f"?seed={seed + 1}&{TEST_QUERY}")
    g.settle(page)
    page.click("[data-testid=seed-new]")
    g.settle(page)


def _saved_view(page: Page) -> dict[str, object]:
    view: dict[str, object] = json.loads(page.evaluate("localStorage.getItem('gongzhu.save.v1')"))["view"]
    return view


def test_a_quick_matchs_last_hand_ends_in_its_result_named_by_its_rules(
    desktop_page: Page, site: build.SiteServer
) -> None:
    """The quick match's logic (its end at −500, one leader, the eliminated) is played in CPython
    (tests/test_page_replays.py); here the page, resumed at the player's turn in the last trick of that
    match's last hand, plays its last card to the result the engine predicts and names the rules on the
    bar, the summary and the result."""
    *starts, final = quick_match_hands()
    last = finish_like_page(starts[-1], until=my_last_card)  # (as the page plays it: tests/support/replay.py)
    page = desktop_page
    g.load_save(page, site, save_text(last))
    assert page.inner_text("[data-testid=house-rules-badge]") == "Quick match (−500)"
    g.finish_hand(page)
    assert g.phase(page) == "match-over"
    assert "House rules: Quick match (−500)" in page.inner_text("[data-testid=house-rules-line]")
    assert _saved_view(page)["result"] == final["view"]["result"]


def test_a_hand_without_exposing(desktop_page: Page, site: build.SiteServer) -> None:
    page = desktop_page
    _new_match_with(page, site, "rule-exposing", "off", 3)
    assert g.phase(page) == "play"  # no expose phase
    assert page.inner_text("[data-testid=house-rules-badge]") == "No exposing"
    assert page.locator("[data-testid=expose-none]").count() == 0
    g.play_first(page)  # (play goes on: nobody exposed, nobody could)
    view = _saved_view(page)
    assert view["exposed"] == [[], [], [], []] and view["rules"]["exposing"] == "off"  # type: ignore[index]


def test_the_first_match_of_a_visit_follows_the_house_rules_chosen_before(
    desktop_page: Page, site: build.SiteServer
) -> None:
    """A visit with no match saved starts one at boot: under the house rules the player chose for the
    next match (saved with the settings), as a match started from the page does."""
    page = desktop_page
    settings = {
        "house_rules": {"match_end": "-500", "exposing": "on", "first_lead": "2S", "all_hearts": "standard"}
    }
    page.add_init_script(f"localStorage.setItem('gongzhu.settings.v1', {json.dumps(json.dumps(settings))});")
    g.open_game(page, site, seed=41)
    assert page.inner_text("[data-testid=house-rules-badge]") == "Quick match (−500)"
    assert _saved_view(page)["house_rules"] == {"match_end": "-500"}
