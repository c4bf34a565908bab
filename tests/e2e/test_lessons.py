"""The guided lessons in the browser (issue 43), on a 360x640 phone: in Chinese (the one script of its
own) a new player completes all seven lessons in a row by tapping only what each lesson asks, each
lesson's moment asserted on the engine's state the page saved; a wrong play leads to the retry; a
reload in the middle of a lesson resumes it (both in English). (The flow is the same in every
language: tests/test_ui_lessons.py runs it in English through the page's runner, and
tests/test_i18n.py holds every language's catalog to the English one, placeholders included.) The taps and seconds each lesson takes
are printed (``-s``)."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

import build
from gongzhu.vocab import LESSONS
from tests.e2e.conftest import guarded_page
from tests.e2e.game import menu_click, settle
from tests.support.replay import find_seed, op
from tools.browser import PHONE, TEST_QUERY
from ui.core import store
from ui.features import lessons as lesson_flow

from .test_accessibility import AXE, _axe

#: What the player may do in a lesson, once the page is settled: ``verdict`` (the lesson's panel),
#: ``expose`` (the lesson chose the cards: confirm), ``play`` (the lesson selected its card: tap it).
LESSON_READY_JS = """() => {
  const d = document.documentElement.dataset, q = (s) => document.querySelector(s);
  if (d.engine !== 'ready' || d.busy) return false;
  if (q('[data-testid=lesson-verdict]')) return 'verdict';
  if (d.phase === 'expose' && q('[data-testid=expose-confirm]:not([disabled])')) return 'expose';
  if (d.phase === 'play' && d.turn === '0' && q('#hand [data-card][aria-pressed=true]')) return 'play';
  return false;
}"""


def _ready(page: Page) -> str:
    return str(page.wait_for_function(LESSON_READY_JS).json_value())


def _slot(page: Page) -> dict[str, Any]:
    raw = page.evaluate("(k) => localStorage.getItem(k)", lesson_flow.SLOT_KEY)
    assert raw, "no lesson saved"
    saved: dict[str, Any] = json.loads(raw)
    return saved


def _state(page: Page) -> dict[str, Any]:
    state: dict[str, Any] = json.loads(_slot(page)["state"])
    return state


def _moment(number: int, state: dict[str, Any]) -> None:
    """Each lesson's moment, on the engine's state (not on the text)."""
    mine = state["captured"][0]
    key = LESSONS[number - 1]
    if key == "tricks":
        assert state["tricks"][0]["winner"] == 0
    elif key == "pig":
        assert "QS" not in mine and any("QS" in c for c in state["captured"][1:])
    elif key == "goat":
        assert "JD" in mine
    elif key == "hearts":
        assert state["last_hand"]["breakdowns"][0]["all_hearts"] is True
    elif key == "transformer":
        assert [c for c in mine if c[1] == "H" or c in ("QS", "JD", "TC")] == ["TC"]
    elif key == "exposing":
        assert state["exposed"][0] == ["JD"] and "JD" in mine
    else:
        assert state["phase"] == "match_over" and state["result"]["winner"] == 0


def _follow(page: Page) -> tuple[int, str]:
    """Tap what the lesson asks until its verdict: ``(taps, the verdict's outcome code)``."""
    taps = 0
    while True:
        ready = _ready(page)
        if ready == "verdict":
            return taps, str(page.get_attribute("[data-testid=lesson-outcome]", "data-outcome"))
        if ready == "expose":
            page.click("[data-testid=expose-confirm]")
        else:
            page.click("#hand [data-card][aria-pressed=true]")
        taps += 1
        assert taps < 10


@pytest.mark.parametrize("lang", ["zh"])
def test_a_new_player_completes_every_lesson(lang: str, phone_page: Page, site: build.SiteServer) -> None:
    page = phone_page
    page.goto(site.url + f"?lang={lang}&{TEST_QUERY}")
    settle(page)
    match_save = page.evaluate("(k) => localStorage.getItem(k)", store.SAVE_KEY)
    page.click("[data-testid=offer-learn]")  # the first visit's offer: learn, or play now
    timings = []
    for number in range(1, len(LESSONS) + 1):
        start = time.monotonic()
        page.locator(f"[data-testid=lesson-strip][data-lesson='{number}']").wait_for()
        taps, outcome = _follow(page)
        assert outcome == LESSONS[number - 1] + "_done"
        state = _state(page)
        assert _slot(page)["lesson"] == number
        _moment(number, state)
        timings.append((number, taps + 1, round(time.monotonic() - start, 2)))  # (+1: Next)
        page.click("[data-testid=lesson-next]")
    settle(page)  # back to the match, as it was
    assert page.evaluate("(k) => localStorage.getItem(k)", store.SAVE_KEY) == match_save
    assert page.evaluate("(k) => localStorage.getItem(k)", lesson_flow.SLOT_KEY) is None
    assert json.loads(page.evaluate("(k) => localStorage.getItem(k)", lesson_flow.PROGRESS_KEY))["done"] == [
        1,
        2,
        3,
        4,
        5,
        6,
        7,
    ]
    assert page.evaluate("localStorage.getItem('gongzhu.record.v1')") is None  # (no statistics)
    assert not page.locator("[data-testid=lesson-offer]").count()
    print(f"\n[lessons {lang}] (lesson, taps, seconds):", timings)


def _no_serious_axe(page: Page, where: str) -> None:
    if AXE.is_file():  # (node_modules/axe-core: npm ci)
        bad = [v for v in _axe(page) if v["impact"] in ("serious", "critical")]
        assert not bad, f"axe at {where}: " + json.dumps(bad, indent=1)


def _said(page: Page) -> str:
    return str(page.inner_text("[data-testid=announce]"))


def test_a_wrong_play_leads_to_the_retry(chromium_browser: Browser, site: build.SiteServer) -> None:
    """A wrong card in the pig's lesson: the verdict says why and offers to try again; the retry is
    played with the keyboard alone; screen readers hear the goal, the step and the verdict; axe
    finds nothing serious on the step or the verdict (a 360x640 phone)."""
    with guarded_page(chromium_browser, site, {**PHONE, "bypass_csp": True}) as (page, guard):
        _wrong_play_then_retry(page, site)
    guard.check()


def _wrong_play_then_retry(page: Page, site: build.SiteServer) -> None:
    page.goto(site.url + f"?{TEST_QUERY}")
    settle(page)
    page.click("[data-testid=offer-dismiss]")
    page.locator("[data-testid=lesson-offer]").wait_for(state="detached")
    menu_click(page, "open-lessons")
    page.click("[data-testid=lesson-2]")
    assert _ready(page) == "play"
    assert page.get_attribute("#hand [data-card][aria-pressed=true]", "data-card") == "5S"
    assert "Lesson 2 of 7" in _said(page) and "play the card 5♠" in _said(page)
    _no_serious_axe(page, "a lesson's step")
    page.click('#hand [data-card="AS"]')  # the wrong card: selected, then played
    page.click('#hand [data-card="AS"]')
    assert _ready(page) == "verdict"
    assert page.get_attribute("[data-testid=lesson-outcome]", "data-outcome") == "pig_retry"
    assert "QS" in _state(page)["captured"][0]
    assert "so you took the pig" in _said(page)
    _no_serious_axe(page, "a lesson's verdict")
    page.click("[data-testid=lesson-retry]")
    assert _ready(page) == "play"
    for _ in range(20):  # the keyboard: Tab to the card the lesson selected, Enter plays it
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.card") == "5S":
            break
    page.keyboard.press("Enter")
    assert _ready(page) == "verdict"
    assert page.get_attribute("[data-testid=lesson-outcome]", "data-outcome") == "pig_done"


#: The boxes the lesson's strip and step, the offer and the table's buttons and cards take.
CLEAR_JS = """() => {
  const boxes = (sel) => [...document.querySelectorAll(sel)].map((el) => {
    const r = el.getBoundingClientRect(); return {sel, left: r.left, top: r.top, right: r.right, bottom: r.bottom}; });
  return {ours: boxes('[data-testid=lesson-strip], [data-testid=lesson-offer]'),
          table: boxes('#actions button, #trick [data-card], #hand [data-card], .seat .who, .seat .scores')};
}"""


def _clear_of_the_table(page: Page, where: str) -> None:
    """The lesson's strip (or the offer) covers none of the table's buttons and cards, and is on screen."""
    got = page.evaluate(CLEAR_JS)
    size = page.viewport_size
    assert size is not None and got["ours"], where
    for a in got["ours"]:
        assert a["left"] >= -0.5 and a["right"] <= size["width"] + 0.5 and a["bottom"] <= size["height"] + 0.5
        for b in got["table"]:
            apart = (  # (within a pixel: touching is not covering)
                a["right"] <= b["left"] + 1
                or b["right"] <= a["left"] + 1
                or a["bottom"] <= b["top"] + 1
                or b["bottom"] <= a["top"] + 1
            )
            assert apart, f"{a} covers {b} at {where}"


def _opponents_lead_to_me(seed: int) -> bool:
    """The deal of ``seed`` gives the player nothing to expose, and the three opponents (the top seat
    among them) play to the first trick before the player's turn."""
    packed = op("new_match", seed=seed)
    if packed["view"]["exposable"]:
        return False
    packed = op("bots_expose", state=packed["state"], level="normal")
    return packed["view"]["phase"] == "play" and packed["view"]["turn"] == 1


#: A first visit whose first trick holds three cards, the top seat's among them, when the offer is up.
_LED_FROM_THE_TOP = find_seed(_opponents_lead_to_me)


def test_a_reload_in_the_middle_of_a_lesson_resumes_it(phone_page: Page, site: build.SiteServer) -> None:
    """Lesson 4 (portrait) and lesson 6 (the phone turned to landscape) reloaded in their middle:
    the same table, the same step, then played to their verdict; the strip and the offer clear of
    the table's buttons and cards."""
    page = phone_page
    page.goto(site.url + f"?seed={_LED_FROM_THE_TOP}&{TEST_QUERY}")  # a first visit: the offer over a trick
    settle(page)
    assert page.locator("#trick [data-card]").count() == 3
    _clear_of_the_table(page, "the offer, 360x640")
    page.set_viewport_size({"width": 640, "height": 360})
    _clear_of_the_table(page, "the offer, 640x360")
    page.set_viewport_size({"width": 360, "height": 640})
    for number, taps_before in ((4, 1), (6, 2)):
        if number == 6:
            page.set_viewport_size({"width": 640, "height": 360})
        menu_click(page, "open-lessons")
        page.click(f"[data-testid=lesson-{number}]")
        for _ in range(taps_before):
            if _ready(page) == "expose":
                page.click("[data-testid=expose-confirm]")
            else:
                page.click("#hand [data-card][aria-pressed=true]")
        assert _ready(page) == "play"
        before = _state(page)
        hand = page.eval_on_selector_all("#hand [data-card]", "els => els.map(e => e.dataset.card)")
        page.reload()
        assert _ready(page) == "play"
        assert _state(page) == before
        assert page.eval_on_selector_all("#hand [data-card]", "els => els.map(e => e.dataset.card)") == hand
        assert page.get_attribute("[data-testid=lesson-strip]", "data-lesson") == str(number)
        _clear_of_the_table(page, f"lesson {number}, {page.viewport_size}")
        _taps, outcome = _follow(page)
        assert outcome == LESSONS[number - 1] + "_done"
        _moment(number, _state(page))
        page.click("[data-testid=lesson-leave]")
        settle(page)
