"""Accessibility: axe-core on every phase (portrait and landscape phones), a whole hand played with
the keyboard alone, the screen-reader log, card names, the four-colour deck.

axe-core comes from the npm registry (devDependency in package.json) and is injected by the test
only: it is never shipped in dist/.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

import build
from tools.browser import TEST_QUERY, WAIT_MS

from . import game as g
from .conftest import BOOT_TIMEOUT_MS, PageGuard

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
ORIENTATIONS = {
    "portrait": {"width": 360, "height": 640},
    "landscape": {"width": 640, "height": 360},
}
#: Filled by the axe test: {(orientation, phase): {impact: [rule ids]}}, printed for the closing note.
AXE_RESULTS: dict[tuple[str, str], dict[str, list[str]]] = {}


#: The first load's engine waits for ``__releaseEngine()`` (web/pwa.js's gate), so that axe sees the
#: loading screen however fast the engine starts; the reloads that follow are not held.
HOLD_ENGINE = """
(() => {
  if (sessionStorage.getItem('__engineHeld')) return;
  sessionStorage.setItem('__engineHeld', '1');
  let glue;
  const gate = new Promise((resolve) => { window.__releaseEngine = resolve; });
  Object.defineProperty(window, 'gongzhuPWA', {
    configurable: true,
    get() { return glue; },
    set(value) {
      const open = value.engineMayStart;
      value.engineMayStart = () => gate.then(() => open());
      glue = value;
    },
  });
})();
"""


#: True once every finite animation and transition has ended: axe reads colours at rest (a button
#: caught mid-fade has a contrast it never keeps).
AT_REST = """() => document.getAnimations().every(
  (a) => a.playState !== 'running' || a.effect.getComputedTiming().iterations === Infinity)"""


def _axe(page: Page) -> list[dict[str, Any]]:
    page.wait_for_function(AT_REST, timeout=WAIT_MS)
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        """async () => {
          const r = await axe.run(document, { resultTypes: ['violations'] });
          return r.violations.map(v => ({ id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 4).map(n => n.target.join(' ') + ' :: ' + n.failureSummary) }));
        }"""
    )
    return list(result)


def _check(page: Page, orientation: str, phase: str) -> None:
    violations = _axe(page)
    summary: dict[str, list[str]] = {}
    for v in violations:
        summary.setdefault(str(v["impact"]), []).append(str(v["id"]))
    AXE_RESULTS[(orientation, phase)] = summary
    print(f"axe {orientation} {phase}: {json.dumps(summary) if summary else 'no violations'}")
    bad = [v for v in violations if v["impact"] in ("serious", "critical")]
    assert not bad, json.dumps(bad, indent=1)


@pytest.mark.skipif(not AXE.is_file(), reason="node_modules/axe-core missing: npm ci")
@pytest.mark.parametrize("orientation", list(ORIENTATIONS))
def test_axe_on_every_phase(orientation: str, chromium_browser: Browser, site: build.SiteServer) -> None:
    context = chromium_browser.new_context(
        viewport=ORIENTATIONS[orientation], is_mobile=True, has_touch=True, bypass_csp=True
    )
    context.set_default_timeout(BOOT_TIMEOUT_MS)
    guard = PageGuard(site.url)
    guard.attach(context)
    page = context.new_page()
    guard.watch(page)
    # loading: the engine is held back (web/pwa.js's gate) until axe has looked at the loading screen
    page.add_init_script(HOLD_ENGINE)
    try:
        seed = g.find_seed(lambda s: bool(g.my_exposable(s)))
        page.goto(site.url + f"?seed={seed}&{TEST_QUERY}")
        page.wait_for_selector("[data-testid=menu]")  # the UI has drawn its menu
        assert g.phase(page) == "loading"
        _check(page, orientation, "loading")
        page.evaluate("window.__releaseEngine()")
        assert g.settle(page) == "expose"
        _check(page, orientation, "expose")
        g.expose_none(page)
        assert g.settle(page) == "play"
        g.card(page, g.playable(page)[0]).click()
        page.wait_for_selector("#hand .card.selected")
        _check(page, orientation, "play")
        over = g.play_out(g.op("new_match", seed=9), lambda v: v["phase"] == "hand_over")
        page.evaluate("(t) => localStorage.setItem('gongzhu.save.v1', t)", g.save_text(over))
        page.reload()
        assert g.settle(page) == "hand-over"
        _check(page, orientation, "hand-over")
        final = g.play_out(g.op("new_match", seed=5), lambda v: v["phase"] == "match_over")
        page.evaluate("(t) => localStorage.setItem('gongzhu.save.v1', t)", g.save_text(final))
        page.evaluate(
            "(t) => localStorage.setItem('gongzhu.settings.v1', t)", '{"level":"normal","four_colour":true}'
        )
        page.reload()
        assert g.settle(page) == "match-over"
        _check(page, orientation, "match-over")
    finally:
        context.close()
    guard.check()


def _focused(page: Page) -> dict[str, Any]:
    return dict(
        page.evaluate(
            """() => { const a = document.activeElement;
              return { card: a.dataset.card || null, testid: a.dataset.testid || null,
                       disabled: a.getAttribute('aria-disabled'), label: a.getAttribute('aria-label') || a.textContent }; }"""
        )
    )


def _tab_to(page: Page, want: Any, limit: int = 30) -> dict[str, Any]:
    for _ in range(limit):
        page.keyboard.press("Tab")
        now = _focused(page)
        if want(now):
            return now
    raise AssertionError("Tab never reached the wanted control")


def test_a_whole_hand_with_the_keyboard_only(desktop_page: Page, site: build.SiteServer) -> None:
    page = desktop_page
    seed = g.find_seed(lambda s: bool(g.my_exposable(s)))
    g.open_game(page, site, seed=seed)
    assert g.phase(page) == "expose"
    # Tab order: the hand first, then the actions, the first visit's offer, then the menu (Last trick
    # is off before a trick)
    first = _tab_to(page, lambda f: True)
    assert first["card"], first
    assert "of" in first["label"]  # "ace of hearts, exposable"
    order = [first["testid"] or first["card"]]
    offer = ["offer-learn", "offer-dismiss"]  # (a first visit: the lessons' offer, in the notes)
    for _ in range(3 + len(offer)):
        page.keyboard.press("Tab")
        f = _focused(page)
        order.append(f["testid"] or f["card"])
    assert order[1:] == ["expose-none", "hint", *offer, "menu"], order
    # expose with the keyboard: back to the hand, pick the exposable card, then Expose
    for _ in range(3 + len(offer)):
        page.keyboard.press("Shift+Tab")
    assert _focused(page)["card"] in g.my_exposable(seed)
    page.keyboard.press("Enter")
    page.wait_for_selector("#hand .card.selected")
    _tab_to(page, lambda f: f["testid"] == "expose-confirm")
    page.keyboard.press("Space")
    page.wait_for_selector("[data-testid=expose-confirm]", state="detached")
    played = 0
    while True:
        current = g.settle(page)
        if current == "hand-over":
            break
        assert current == "play"
        if not _focused(page)["card"]:
            _tab_to(page, lambda f: bool(f["card"]))
        page.keyboard.press("Home")
        for _ in range(14):
            if _focused(page)["disabled"] == "false":
                break
            page.keyboard.press("ArrowRight")
        code = _focused(page)["card"]
        assert _focused(page)["disabled"] == "false", code
        page.keyboard.press("Enter")  # select
        page.wait_for_selector(f'#hand .selected[data-card="{code}"]')
        page.keyboard.press("Enter" if played % 2 else " ")  # play
        page.wait_for_selector(f'#hand [data-card="{code}"]', state="detached")
        played += 1
    assert played == 13
    log = page.inner_text("[data-testid=announce]")
    assert "Hand over" in log, log
    # the summary's button has the focus: Enter starts the next hand
    assert _focused(page)["testid"] == "next-hand"
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=hand-summary]", state="detached")
    assert g.settle(page) in ("expose", "play")


def test_live_log_names_and_four_colours(desktop_page: Page, site: build.SiteServer) -> None:
    page = desktop_page
    g.open_game(page, site, seed=g.find_seed(lambda s: not g.my_exposable(s)))
    texts: list[str] = []
    for _ in range(3):
        g.settle(page)
        g.play_first(page)
    g.settle(page)
    texts = page.eval_on_selector_all("[data-testid=announce] p", "ps => ps.map(p => p.textContent)")
    assert any(t.startswith("You played ") for t in texts), texts
    assert any(" played " in t and not t.startswith("You") for t in texts), texts
    assert any(t.endswith("won the trick") for t in texts), texts
    assert "Your turn" in texts, texts
    # refusals are read out too
    bad = g.unplayable(page)
    if bad:
        g.card(page, bad[0]).click(force=True)
        page.wait_for_function(
            "() => document.querySelector('[data-testid=announce]').innerText.includes('must')"
        )
    # trick cards are named in words, with their seat
    labels = page.eval_on_selector_all("[data-testid=trick] [data-card]", "els => els.map(e => e.ariaLabel)")
    assert all(": " in label and " of " in label for label in labels), labels
    # four-colour deck: diamonds blue, clubs green, saved
    colour = "(s) => { const e = document.querySelector('.card.suit-' + s); return e && getComputedStyle(e).color; }"
    g.menu_click(page, "four-colour")
    page.wait_for_selector("html[data-deck=four]")
    assert page.get_attribute("[data-testid=four-colour]", "aria-pressed") == "true"
    for suit, rgb in (("D", "rgb(23, 71, 181)"), ("C", "rgb(19, 112, 47)")):
        if page.evaluate(colour, suit):
            assert page.evaluate(colour, suit) == rgb
    page.reload()
    g.settle(page)
    assert page.evaluate("document.documentElement.dataset.deck") == "four"
