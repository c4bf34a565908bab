"""Hostile saves and storage: a broken autosave never breaks the page, full or disabled storage
leaves the game playable with a notice (the full catalogue of broken saves is unit-tested in
tests/test_ui_store.py, and run under the page's MicroPython in tests/test_ui_store_micropython.py;
here one save of each kind goes through the real page)."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Page

import build
from tests.broken_saves import PAYLOAD, broken_saves, good_save, older_save, packed
from tools.browser import TEST_QUERY, WAIT_MS

from . import game as g

#: Broken saves tried in the browser, one of each kind (names from tests/broken_saves.py): one the
#: page cannot read, one from a newer version, one the engine refuses once the page has drawn it. What
#: the page's loader answers for every broken save is the same under the page's MicroPython as in
#: CPython (tests/test_ui_store_micropython.py) and depends on the kind alone (tests/test_ui_store.py);
#: markup in a save: test_markup_in_a_save_is_never_drawn_nor_run below.
IN_BROWSER = ("truncated JSON", "future schema", "a card twice")


def _notice(page: Page, text: str) -> None:
    page.wait_for_function(
        "(t) => document.querySelector('[data-testid=message]').innerText.includes(t)",
        arg=text,
        timeout=WAIT_MS,
    )


def test_broken_saves_are_set_aside_and_a_new_match_starts(
    desktop_page: Page, site: build.SiteServer
) -> None:
    page = desktop_page
    saves = {name: (text, problem) for name, text, problem in broken_saves(packed(11))}
    g.open_game(page, site)
    for name in IN_BROWSER:
        text, problem = saves[name]
        page.evaluate("(t) => localStorage.setItem('gongzhu.save.v1', t)", text)
        page.reload()
        assert g.settle(page) in ("expose", "play"), name
        _notice(page, "newer version" if problem == "newer" else "could not be read")
        assert page.evaluate("localStorage.getItem('gongzhu.save.corrupt')") == text, name
        assert len(g.hand(page)) == 13, name
        saved = page.evaluate("localStorage.getItem('gongzhu.save.v1')")
        assert saved and json.loads(saved)["schema"] == 1, name  # the new match is saved
    # the last new match is playable
    if g.phase(page) == "expose":
        g.expose_none(page)
        g.settle(page)
    g.play_first(page)


def test_older_save_is_migrated(desktop_page: Page, site: build.SiteServer) -> None:
    page = desktop_page
    p = packed(12)
    g.load_save(page, site, older_save(p))
    assert g.phase(page) in ("expose", "play")
    assert sorted(g.hand(page)) == sorted(p["view"]["hand"])
    assert "could not be read" not in g.message(page)
    assert page.evaluate("localStorage.getItem('gongzhu.save.corrupt')") is None
    page.wait_for_function("JSON.parse(localStorage.getItem('gongzhu.save.v1')).schema === 1")
    assert page.evaluate("JSON.parse(localStorage.getItem('gongzhu.save.v1')).hand_level") == "hard"


FULL = """
Storage.prototype.setItem = function () {
  throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
};
"""
DISABLED = """
Object.defineProperty(window, 'localStorage', {
  configurable: true,
  get() { throw new DOMException('The operation is insecure.', 'SecurityError'); },
});
"""


def _plays_unsaved(page: Page, site: build.SiteServer, script: str) -> None:
    page.add_init_script(script)
    g.open_game(page, site, seed=7)
    page.wait_for_selector("[data-testid=notice]")
    assert "won't be saved" in page.inner_text("[data-testid=notice]")
    if g.phase(page) == "expose":
        g.expose_none(page)
        g.settle(page)
    g.play_first(page)
    if g.settle(page) == "play":
        g.play_first(page)
    g.menu_select(page, "difficulty", "hard")
    assert "won't be saved" in page.inner_text("[data-testid=notice]")


def test_full_storage_still_plays_with_a_notice(desktop_page: Page, site: build.SiteServer) -> None:
    _plays_unsaved(desktop_page, site, FULL)


def test_disabled_storage_still_plays_with_a_notice(phone_page: Page, site: build.SiteServer) -> None:
    _plays_unsaved(phone_page, site, DISABLED)


# --------------------------------------------------------------------------- markup planted in a save

#: Injected Python that marks the page if it ever runs (PyScript would run a new script tag).
RUNS = 'QS"><script type="mpy">from pyscript import window\nwindow.pwned = 1</script><span x="'


def _markup_everywhere(p: dict[str, Any]) -> str:
    """A real match's save with markup in every string field outside the engine state."""
    save = good_save(p)
    view = json.loads(json.dumps(p["view"]))
    view["trick"]["plays"] = [{"seat": 1, "card": RUNS}]
    view["hand"][0] = RUNS
    save.update(view=view, notice=RUNS, hand_level=RUNS, selected=RUNS, expose_sel=[RUNS])
    return json.dumps(save)


def test_markup_in_a_save_is_never_drawn_nor_run(desktop_page: Page, site: build.SiteServer) -> None:
    page = desktop_page
    p = packed(13)
    g.open_game(page, site)
    for text in (_markup_everywhere(p), json.dumps(dict(good_save(p), notice=PAYLOAD, selected=PAYLOAD))):
        page.evaluate("(t) => localStorage.setItem('gongzhu.save.v1', t)", text)
        page.reload()
        g.settle(page)
        assert page.evaluate("window.pwned") is None
        assert page.locator("script[type=mpy]").count() == 1  # only ui/main.py
        assert page.locator("#game span[x], #game script").count() == 0
        assert "print(" not in page.inner_text("body") and "pwned" not in page.inner_text("body")
    # the first save was set aside (markup in the table), the second resumed without its text
    assert page.evaluate("localStorage.getItem('gongzhu.save.corrupt')") == _markup_everywhere(p)
    assert sorted(g.hand(page)) == sorted(p["view"]["hand"])


def test_a_huge_save_is_refused_with_a_notice(desktop_page: Page, site: build.SiteServer) -> None:
    page = desktop_page
    g.open_game(page, site)
    huge = json.dumps(dict(good_save(packed(14)), notice="x" * 4_500_000))
    page.evaluate("(t) => localStorage.setItem('gongzhu.save.v1', t)", huge)
    page.reload()
    assert g.settle(page) in ("expose", "play")
    _notice(page, "could not be read")
    assert len(g.hand(page)) == 13
    # never lost: set aside, or (storage too full to copy it) left in its slot and not written over
    kept = page.evaluate(
        "[localStorage.getItem('gongzhu.save.corrupt'), localStorage.getItem('gongzhu.save.v1')]"
    )
    assert huge in kept


# --------------------------------------------------------------------------- two tabs, deal links


def test_two_tabs_follow_each_other_and_lose_no_move(desktop_page: Page, site: build.SiteServer) -> None:
    first = desktop_page
    g.open_game(first, site, seed=7)
    if g.phase(first) == "expose":
        g.expose_none(first)
        g.settle(first)
    second = first.context.new_page()
    second.goto(site.url + f"?{TEST_QUERY}")
    g.settle(second)
    assert g.hand(second) == g.hand(first)
    played = g.play_first(second)
    g.settle(second)
    # the first tab follows: the move shows there, and it says the game is played elsewhere
    first.wait_for_selector("[data-testid=elsewhere]")
    first.wait_for_function("(c) => !document.querySelector(`#hand [data-card='${c}']`)", arg=played)
    assert g.hand(first) == g.hand(second)
    first.locator("#hand [data-card]").first.click()  # ignored: this tab does not have the game
    assert json.loads(first.evaluate("localStorage.getItem('gongzhu.save.v1')"))["view"]["hand"] == g.hand(
        second
    )
    # take the game back here: the other tab follows in turn, and both moves are in the match (the
    # tab played in is the one in front: a tab behind draws no frame)
    first.bring_to_front()
    first.click("[data-testid=take-over]")
    assert g.settle(first) == "play"
    again = g.play_first(first)
    second.wait_for_selector("[data-testid=elsewhere]")
    second.wait_for_function("(c) => !document.querySelector(`#hand [data-card='${c}']`)", arg=again)
    first.wait_for_function("!document.documentElement.dataset.busy")
    saved = json.loads(first.evaluate("localStorage.getItem('gongzhu.save.v1')"))
    assert played not in saved["view"]["hand"] and again not in saved["view"]["hand"]
    assert len(saved["view"]["hand"]) == 11
    second.close()


def test_a_seed_link_asks_before_replacing_a_match_in_progress(
    desktop_page: Page, site: build.SiteServer
) -> None:
    page = desktop_page
    g.open_game(page, site, seed=7)
    if g.phase(page) == "expose":
        g.expose_none(page)
        g.settle(page)
    g.play_first(page)
    g.settle(page)
    mine = g.hand(page)
    page.goto(site.url + f"?seed=8&{TEST_QUERY}")
    page.wait_for_selector("[data-testid=seed-question]")
    assert g.hand(page) == mine
    page.click("[data-testid=seed-resume]")
    g.settle(page)
    assert g.hand(page) == mine
    page.goto(site.url + f"?seed=8&{TEST_QUERY}")
    page.click("[data-testid=seed-new]")
    # the old hand (12 cards) may still be drawn for a moment: wait for the new deal's 13
    page.wait_for_function("document.querySelectorAll('#hand [data-card]').length === 13")
    g.settle(page)
    assert sorted(g.hand(page)) == sorted(g.op("new_match", seed=8)["view"]["hand"])


def test_a_seed_beyond_the_engine_is_refused_with_a_notice(
    desktop_page: Page, site: build.SiteServer
) -> None:
    page = desktop_page
    page.goto(site.url + f"?{TEST_QUERY}&seed=" + "9" * 5000)
    assert g.settle(page) in ("expose", "play")
    _notice(page, "not valid")
    assert len(g.hand(page)) == 13
    assert "seed=" not in page.url


#: web/engine.js's glue, with every engine request answered by an error.
BROKEN_ENGINE = """
let real;
Object.defineProperty(window, 'gongzhuEngine', {
  configurable: true,
  set(value) {
    value.call = async () => JSON.stringify({ ok: false, error: 'RuntimeError: no engine here' });
    real = value;
  },
  get() { return real; },
});
"""


def test_a_start_up_failure_under_a_resumed_table_is_shown(
    desktop_page: Page, site: build.SiteServer
) -> None:
    """The saved table is up before the engine: when the engine then fails to start, the loading
    watchdog (web/boot.js, on duty until the engine is ready) says so with "Try again", never a silent
    dead table."""
    page = desktop_page
    save = json.dumps(good_save(packed(15)))
    page.add_init_script(f"localStorage.setItem('gongzhu.save.v1', {json.dumps(save)});")
    page.add_init_script(BROKEN_ENGINE)
    page.goto(site.url + f"?{TEST_QUERY}")
    page.wait_for_function("document.documentElement.dataset.phase === 'error'", timeout=WAIT_MS)
    text = page.inner_text("[data-testid=loading] #status")
    assert text == "The game engine could not start."
    assert page.locator("[data-testid=retry]").is_visible()
    assert page.evaluate("localStorage.getItem('gongzhu.save.v1')") == save  # nothing lost
