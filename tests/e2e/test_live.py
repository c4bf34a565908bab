"""Live from the first frame: what the page shows early can be drawn, and acts (issue 28).

A reloaded table is painted before the engine worker has started; a tap or a press in that moment
is kept and carried out once the engine answers, and the page reads as busy (``data-busy``) until
then. A page that reads as settled shows its final table: no card still being dealt or flying in.
The engine's start is held back here (``HOLD_ENGINE``) so that "the first paint" is a moment the
test controls, not a race it may lose.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest
from playwright.sync_api import Page

import build
from sitebuild.first_tables import FIRST_TABLES
from tools.browser import TEST_QUERY, WAIT_MS
from ui.core import store
from ui.features import daily, record

from . import game as g
from .conftest import PageGuard

#: As a player's browser runs the page: the service worker registers and the cards move
#: (tests/e2e/conftest.py CONTEXT_DEFAULTS).
pytestmark = [pytest.mark.service_worker, pytest.mark.motion]

#: Installed before any page script: while ``sessionStorage['hold-engine']`` is set, the engine's
#: ``ready()`` waits for ``window.releaseEngine()`` (the worker itself starts as usual).
HOLD_ENGINE = """
(() => {
  let api;
  Object.defineProperty(window, 'gongzhuEngine', {
    configurable: true,
    get() { return api; },
    set(value) {
      api = value;
      if (!sessionStorage.getItem('hold-engine')) return;
      const ready = value.ready.bind(value);
      const go = new Promise((resolve) => { window.releaseEngine = resolve; });
      value.ready = () => go.then(ready);
    },
  });
})();
"""

#: The moment of the first paint of a resumed table, the engine not yet started.
FIRST_PAINT_JS = """(phase) => {
  const root = document.documentElement;  // (null before the page's first bytes: waited from "commit")
  return !!root && root.dataset.phase === phase && root.dataset.engine === 'starting';
}"""


def _reload_held(page: Page, phase: str) -> None:
    """Reload with the engine held back; return at the first paint of the resumed ``phase``."""
    page.evaluate("sessionStorage.setItem('hold-engine', '1')")
    page.reload(wait_until="commit")
    page.wait_for_function(FIRST_PAINT_JS, arg=phase, timeout=WAIT_MS)


def _release(page: Page) -> None:
    page.evaluate("sessionStorage.removeItem('hold-engine'); window.releaseEngine()")


def test_a_double_tap_at_the_first_paint_after_a_reload_plays_the_card(
    desktop_page: Page, guard: PageGuard, site: build.SiteServer
) -> None:
    page = desktop_page
    page.add_init_script(HOLD_ENGINE)
    mid = g.play_out(g.op("new_match", seed=4), lambda v: v["phase"] == "play" and v["turn"] == 0)
    g.load_save(page, site, g.save_text(mid))
    _reload_held(page, "play")
    code = g.playable(page)[0]
    g.card(page, code).click()
    g.card(page, code).click()
    # Kept, not lost: the page says it is working on it while the engine starts.
    assert page.evaluate("document.documentElement.dataset.busy") == "true"
    assert page.evaluate("document.documentElement.dataset.engine") == "starting"
    _release(page)
    page.wait_for_selector(f'#hand [data-card="{code}"]', state="detached", timeout=WAIT_MS)
    g.settle(page)
    assert code not in g.hand(page)
    guard.check()


def test_next_hand_at_the_first_paint_of_a_reloaded_summary_starts_the_next_hand(
    desktop_page: Page, guard: PageGuard, site: build.SiteServer
) -> None:
    page = desktop_page
    page.add_init_script(HOLD_ENGINE)
    over = g.play_out(g.op("new_match", seed=9), lambda v: v["phase"] == "hand_over")
    g.load_save(page, site, g.save_text(over))
    _reload_held(page, "hand-over")
    page.click("[data-testid=next-hand]")
    assert page.evaluate("document.documentElement.dataset.busy") == "true"
    _release(page)
    page.wait_for_selector("[data-testid=hand-summary]", state="detached", timeout=WAIT_MS)
    assert g.settle(page) in ("expose", "play")
    saved = json.loads(page.evaluate("localStorage.getItem('gongzhu.save.v1')"))
    assert saved["view"]["hand_number"] == over["view"]["hand_number"] + 1
    guard.check()


def test_a_first_visit_draws_a_prepared_table_and_keeps_an_expose_made_before_the_engine_answers(
    desktop_page: Page, guard: PageGuard, site: build.SiteServer
) -> None:
    """A first visit draws one of the build's prepared tables at its first paint (issue 42): the
    player's hand and the cards they may expose, from the engine's own view dealt at build time. A
    tap on an exposable card and "Expose" made before the engine answers are kept, then carried out
    once; the table is the engine's new match for the prepared table's seed."""
    page = desktop_page
    prepared = json.loads((site.directory / FIRST_TABLES).read_text(encoding="utf-8"))
    exposing = [k for k, text in enumerate(prepared["tables"]) if json.loads(text)["view"]["exposable"]]
    k = exposing[0]
    pick = (k + 0.5) / len(prepared["tables"])  # (the page picks its table with Math.random)
    page.add_init_script(f"sessionStorage.setItem('hold-engine', '1'); Math.random = () => {pick};")
    page.add_init_script(HOLD_ENGINE)
    page.goto(site.url + f"?{TEST_QUERY}", wait_until="commit")
    page.wait_for_function(FIRST_PAINT_JS, arg="expose", timeout=WAIT_MS)
    dealt = g.op("new_match", seed=prepared["seeds"][k])["view"]
    assert sorted(g.hand(page)) == sorted(dealt["hand"])
    code = dealt["exposable"][0]
    g.card(page, code).click()
    page.click("[data-testid=expose-confirm]")
    assert page.evaluate("document.documentElement.dataset.busy") == "true"
    assert page.evaluate("document.documentElement.dataset.engine") == "starting"
    _release(page)
    g.settle(page)
    saved = json.loads(page.evaluate(f"localStorage.getItem('{store.SAVE_KEY}')"))
    assert json.loads(saved["state"])["seed"] == prepared["seeds"][k]
    assert saved["view"]["exposed"][0] == [code]  # exposed once, as tapped
    guard.check()


#: Finite animations still running on the table's cards: the deal, a card flying in, the sweep (the
#: endless glows and pulses aside, and the transitions of a card under the pointer).
MOVING_JS = """() => document.getAnimations().filter((a) => {
  const el = a.effect && a.effect.target;
  if (!el || !el.closest || !el.closest('#hand, [data-testid=trick]')) return false;
  if (!(a instanceof CSSAnimation)) return false;
  return a.playState === 'running' && a.effect.getComputedTiming().iterations !== Infinity;
}).map((a) => `${a.animationName} on ${a.effect.target.outerHTML.slice(0, 80)}`)"""


def test_a_settled_page_shows_the_dealt_hand_face_up(
    desktop_page: Page, guard: PageGuard, site: build.SiteServer
) -> None:
    page = desktop_page

    def still() -> None:
        assert page.locator("#hand .deal").count() == 0  # no card still arriving face down
        assert page.evaluate(MOVING_JS) == []

    g.open_game(page, site, seed=4)
    assert page.locator("#hand [data-card]").count() == 13
    still()
    if g.phase(page) == "expose":
        g.expose_none(page)
    for _ in range(4):  # the opponents' cards fly in, tricks sweep: settled means still
        g.settle(page)
        still()
        g.play_first(page)
    # the same hand at its last trick (played on in CPython as the page plays it), then the next deal
    g.load_save(page, site, g.save_text(g.at_last_trick(4)))
    g.finish_hand(page)
    page.click("[data-testid=next-hand]")
    page.wait_for_selector("[data-testid=hand-summary]", state="detached")
    g.settle(page)
    assert page.locator("#hand [data-card]").count() == 13
    still()
    guard.check()


def _preload(page: Page, items: dict[str, str]) -> None:
    """Store ``items`` before the game's scripts run, on the first load of this tab only (the game
    saves on pagehide: a write on a live page would be overwritten)."""
    page.add_init_script(
        "if (!sessionStorage.getItem('preloaded')) { sessionStorage.setItem('preloaded', '1');"
        f" for (const [k, v] of Object.entries({json.dumps(items)})) localStorage.setItem(k, v); }}"
    )


def test_a_stored_match_result_without_its_result_is_set_aside_not_a_load_failure(
    desktop_page: Page, guard: PageGuard, site: build.SiteServer
) -> None:
    page = desktop_page
    final = g.play_out(g.op("new_match", seed=5), lambda v: v["phase"] == "match_over")
    final["view"]["result"] = None
    _preload(page, {store.SAVE_KEY: g.save_text(final)})
    page.add_init_script(
        "new MutationObserver(() => { if (document.documentElement.dataset.phase === 'error')"
        " window.sawError = true; }).observe(document, {attributes: true, subtree: true});"
    )
    page.goto(site.url + f"?{TEST_QUERY}")
    assert g.settle(page) in ("expose", "play")
    assert "could not be read" in page.inner_text("#notes, [data-testid=message]")
    assert page.evaluate("window.sawError === true") is False
    assert page.evaluate("localStorage.getItem('gongzhu.save.corrupt')") is not None
    guard.check()


def _played_daily(date: str) -> dict[str, str]:
    """The storage a finished daily deal of ``date`` leaves, written by the UI's own record code."""
    memory = store.MemoryStorage()
    end: dict[str, Any] = g.daily_played(date)["view"]
    daily.record_result(memory, date, end)
    assert record.load(memory)[0].daily.get(date)
    return memory.data


def test_closing_the_already_played_daily_panel_leaves_a_working_table(
    desktop_page: Page, guard: PageGuard, site: build.SiteServer
) -> None:
    page = desktop_page
    date = datetime.now(UTC).date().isoformat()  # (only today's deal is recorded; another day's is practice)
    _preload(page, _played_daily(date))
    page.goto(site.url + f"?{TEST_QUERY}&daily={date}")
    page.wait_for_selector("[data-testid=daily-panel] [data-testid=daily-result]")
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-testid=daily-panel]", state="detached")
    assert g.settle(page) in ("expose", "play")
    if g.phase(page) == "expose":
        g.expose_none(page)
    g.settle(page)
    g.play_first(page)
    guard.check()
