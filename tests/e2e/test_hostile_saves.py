"""Hostile saves and storage: a broken autosave never breaks the page, full or disabled storage
leaves the game playable with a notice (the full catalogue of broken saves is unit-tested in
tests/test_ui_store.py; here a representative set goes through the real page)."""

from __future__ import annotations

import json

from playwright.sync_api import Page

import build
from tests.broken_saves import broken_saves, older_save, packed

from . import game as g

#: Broken saves tried in the browser (names from tests/broken_saves.py).
IN_BROWSER = (
    "not JSON",
    "truncated JSON",
    "foreign app",
    "future schema",
    "view of the wrong shape",
    "14 cards in a hand",
    "a card twice",
)


def _notice(page: Page, text: str) -> None:
    page.wait_for_function(
        "(t) => document.querySelector('[data-testid=message]').innerText.includes(t)",
        arg=text,
        timeout=30_000,
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
    page.select_option("[data-testid=difficulty]", "hard")
    assert "won't be saved" in page.inner_text("[data-testid=notice]")


def test_full_storage_still_plays_with_a_notice(desktop_page: Page, site: build.SiteServer) -> None:
    _plays_unsaved(desktop_page, site, FULL)


def test_disabled_storage_still_plays_with_a_notice(phone_page: Page, site: build.SiteServer) -> None:
    _plays_unsaved(phone_page, site, DISABLED)
