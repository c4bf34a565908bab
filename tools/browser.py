"""Driving the browser game through its testing contract (``data-*`` attributes and test ids), shared
by the e2e tests (tests/e2e/), the benchmarks (bench/) and the screenshots (tools/screenshots.py).

The Chromium every one of them launches (Debian's, never ``playwright install``) and its flags, the
page sizes, then helpers that take a Playwright ``Page``: this module imports no Playwright itself
(its callers launch the browser), so it loads where Playwright is not installed.

Every wait here ends on the condition it waits for; its limit (:data:`WAIT_MS`) is only there so
that a page that never gets there fails, and is far above what a loaded 2-core machine needs.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import FilePayload, Page

    import build

CHROMIUM = os.environ.get("GONGZHU_CHROMIUM", "/usr/bin/chromium")
#: Browser features a headless test browser has no use for. Chromium's headless mode still builds each
#: window's omnibox popup (a WebUI page in a renderer of its own, chrome://omnibox-popup.top-chrome:
#: ``WebUIOmniboxPopup``, and since Chromium 156 its AI-mode page, ``WebUIOmniboxAimPopup``): about a
#: third of the CPU a new page costs (measured 2026-12-04: ten pages at about:blank, 11.7 CPU seconds
#: with it, 8.3 without; a game page's first visit 2.8 CPU seconds with the AI-mode page, 2.4 without).
#: Playwright passes its own ``--disable-features`` list first; a second switch of the same name may
#: replace it, so its entries (Playwright 1.5x) are repeated here.
UNUSED_FEATURES = (
    "WebUIOmniboxPopup,WebUIOmniboxAimPopup,OmniboxAimPopupWebUIContent,OmniboxFullPopupWebUIContent,"
    "AvoidUnnecessaryBeforeUnloadCheckSync,DestroyProfileOnBrowserClose,HttpsUpgrades,"
    "HttpsFirstBalancedModeAutoEnable,LensOverlay,MediaRouter,PaintHolding,ThirdPartyStoragePartitioning,"
    "AvoidCorsURLLoaderRestartOnRedirect,OptimizationHints,NetworkTimeServiceQuerying,AimEnabled,"
    "PreconnectToSearch"
)
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
    f"--disable-features={UNUSED_FEATURES}",
]
#: Where the site is served (as GitHub Pages would under ``/<repo>/``).
SITE_PREFIX = "/gongzhu/"
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}
PHONE: dict[str, Any] = {
    "viewport": {"width": 360, "height": 640},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
#: The limit of every wait for the page (boot included): a cold start takes ~3-4 s on a quiet 2-core
#: machine and a step well under one; the limit only ends a wait whose condition never comes, so it
#: is far above what a slow, loaded machine takes (a 60 s limit once failed there).
WAIT_MS = 240_000

#: Installed before any page script of a test's page (tests/e2e/conftest.py): the loading watchdog's
#: limits (web/boot.js, ``window.gongzhuBootLimits``) far above :data:`WAIT_MS`, so that a healthy
#: page booting slowly on a loaded machine is never told "no progress" (a test that expects the
#: watchdog to fire injects its own limits, after this script).
NO_STALL = {"stallMs": 10 * WAIT_MS, "engineStartMs": 10 * WAIT_MS}
NO_STALL_JS = f"window.gongzhuBootLimits = {json.dumps(NO_STALL)};"

#: Installed before any page script: records main-thread long tasks (> 50 ms).
LONG_TASK_OBSERVER = """
window.__gongzhuLongTasks = [];
try {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      window.__gongzhuLongTasks.push({ start: e.startTime, duration: e.duration, name: e.name });
  }).observe({ type: "longtask", buffered: true });
} catch (e) {
  window.__gongzhuLongTasks = null;  // API missing: long_tasks() will say so
}
"""

SETTLED_JS = """() => {
  const d = document.documentElement.dataset;
  if (d.engine !== 'ready' || d.busy) return false;
  if (d.phase === 'hand-over') return !!document.querySelector('[data-testid=hand-summary]');
  if (d.phase === 'match-over') return !!document.querySelector('[data-testid=match-summary]');
  if (d.phase === 'expose') return !!document.querySelector('[data-testid=expose-none]');
  if (d.phase === 'play') return d.turn === '0' && !!document.querySelector('[data-testid=play]');
  return false;
}"""


FAST = "fast=1"  # the opponents play at once
NO_COACH = "coach=0"  # the coach stays idle (a test not about it would only share the cores with its work)
#: How the tests open the game.
TEST_QUERY = f"{FAST}&{NO_COACH}"


def page_query(coach: bool = False) -> str:
    """:data:`TEST_QUERY`, or with the coach at work when ``coach`` asks for it."""
    return FAST if coach else TEST_QUERY


def open_game(
    page: Page, site: build.SiteServer, seed: int | None = None, fast: bool = True, coach: bool = False
) -> None:
    """Open the game (``?seed=``) and wait until it settles. ``fast``: the opponents play at once
    (:data:`FAST`); the coach values the finished hands only when ``coach`` asks for it (else
    :data:`NO_COACH`)."""
    query = []
    if seed is not None:
        query.append(f"seed={seed}")
    if fast:
        query.append(FAST)
    if not coach:
        query.append(NO_COACH)
    page.goto(site.url + ("?" + "&".join(query) if query else ""))
    settle(page)


def settle(page: Page, timeout_ms: int = WAIT_MS) -> str:
    """Wait until the player has something to do; return ``<html data-phase>``. A page that shows its
    loading failure instead (``data-phase="error"``) fails at once, with what it says."""
    page.wait_for_function(
        f"() => document.documentElement.dataset.phase === 'error' || ({SETTLED_JS})()", timeout=timeout_ms
    )
    current = phase(page)
    if current == "error":
        raise AssertionError(f"the page failed to load: {page.text_content('#overlay')!r}")
    return current


def wait_until(page: Page, condition: Callable[[], bool], what: str, limit_ms: int = WAIT_MS) -> None:
    """Wait until ``condition()`` holds: the test's own state, filled by Playwright's handlers (a
    route's requests held, say), which run while this waits on the page."""
    waited = 0
    while not condition():
        assert waited < limit_ms, f"{what}: not within {limit_ms} ms"
        page.wait_for_timeout(100)
        waited += 100


def phase(page: Page) -> str:
    return str(page.evaluate("document.documentElement.dataset.phase"))


def hand(page: Page) -> list[str]:
    return [
        str(c) for c in page.eval_on_selector_all("#hand [data-card]", "els => els.map(e => e.dataset.card)")
    ]


def playable(page: Page) -> list[str]:
    return [
        str(c)
        for c in page.eval_on_selector_all(
            "#hand [data-card][aria-disabled=false]", "els => els.map(e => e.dataset.card)"
        )
    ]


def unplayable(page: Page) -> list[str]:
    return [
        str(c)
        for c in page.eval_on_selector_all(
            "#hand [data-card][aria-disabled=true]", "els => els.map(e => e.dataset.card)"
        )
    ]


def trick(page: Page) -> list[tuple[int, str]]:
    plays = page.eval_on_selector_all(
        "[data-testid=trick] [data-card]", "els => els.map(e => [Number(e.dataset.seat), e.dataset.card])"
    )
    return [(int(s), str(c)) for s, c in plays]


def scores(page: Page) -> list[tuple[str, str]]:
    return [
        (
            page.inner_text(f'[data-seat="{s}"] [data-testid="hand-score"]'),
            page.inner_text(f'[data-seat="{s}"] [data-testid="total"]'),
        )
        for s in range(4)
    ]


def message(page: Page) -> str:
    return page.inner_text("[data-testid=message]")


def wait_message(page: Page, text: str) -> str:
    """Wait until the message area contains ``text``; return the whole message."""
    page.wait_for_function(
        "(t) => document.querySelector('[data-testid=message]').innerText.includes(t)", arg=text
    )
    return message(page)


def table_snapshot(page: Page) -> dict[str, Any]:
    return {"phase": phase(page), "hand": hand(page), "trick": trick(page), "scores": scores(page)}


def card(page: Page, code: str) -> Any:
    return page.locator(f'#hand [data-card="{code}"]')


def play_first(page: Page, by_button: bool = True) -> str:
    """Play the first playable card: select then Play, or tap it twice."""
    code = playable(page)[0]
    card(page, code).click()
    if by_button:
        page.click("[data-testid=play]")
    else:
        card(page, code).click()
    page.wait_for_selector(f'#hand [data-card="{code}"]', state="detached")
    return code


def open_menu(page: Page) -> None:
    """Open the settings sheet (☰), unless it is open already."""
    if not page.locator("[data-testid=sheet]").count():
        page.click("[data-testid=menu]")
        page.wait_for_selector("[data-testid=sheet]")


def close_menu(page: Page) -> None:
    """Close the settings sheet with its close button, if it is open."""
    if page.locator("[data-testid=sheet]").count():
        page.click("[data-testid=menu-close]")
        page.wait_for_selector("[data-testid=sheet]", state="detached")


def menu_click(page: Page, testid: str) -> None:
    """Click a menu item (``data-testid``), opening the settings sheet first when it is not on screen.
    A switch leaves the sheet open (its ``aria-pressed`` can be read); an entry that opens a panel
    or leaves the table closes it."""
    if not page.locator(f"[data-testid={testid}]").is_visible():
        open_menu(page)
    page.click(f"[data-testid={testid}]")


def menu_select(page: Page, testid: str, value: str) -> None:
    """Choose ``value`` in a select of the settings sheet (difficulty, language, play speed...), then
    close the sheet."""
    open_menu(page)
    page.select_option(f"[data-testid={testid}]", value)
    close_menu(page)


def menu_value(page: Page, testid: str) -> str:
    """The value of a select of the settings sheet (opened, then closed again)."""
    open_menu(page)
    value = page.input_value(f"[data-testid={testid}]")
    close_menu(page)
    return value


def expose_none(page: Page) -> None:
    page.click("[data-testid=expose-none]")
    page.wait_for_selector("[data-testid=expose-none]", state="detached")


def finish_hand(page: Page) -> int:
    """Play on (never exposing) until the hand summary or the match result; return cards played."""
    played = 0
    while True:
        current = settle(page)
        if current in ("hand-over", "match-over"):
            return played
        if current == "expose":
            expose_none(page)
            continue
        play_first(page, by_button=played % 2 == 0)
        played += 1


def load_save(
    page: Page, site: build.SiteServer, text: str, key: str = "gongzhu.save.v1", query: str = TEST_QUERY
) -> None:
    """Open the site (``?query``: by default as :func:`open_game` opens it) with ``text`` stored at
    ``key`` (the autosave, or the daily deal's slot ``gongzhu.daily.v1``), set before any page script
    runs (once per tab and key)."""
    flag = json.dumps("test-save:" + key)
    page.add_init_script(
        f"if (!sessionStorage.getItem({flag})) {{"
        f" localStorage.setItem({json.dumps(key)}, {json.dumps(text)});"
        f" sessionStorage.setItem({flag}, '1'); }}"
    )
    page.goto(site.url + "?" + query)
    settle(page)


#: The player's record and saved match as stored (raw text, or None), to compare before and after.
STORED_JS = "[localStorage.getItem('gongzhu.record.v1'), localStorage.getItem('gongzhu.save.v1')]"


def stored(page: Page) -> list[str | None]:
    """The stored record and save, as the page holds them now."""
    found: list[str | None] = page.evaluate(STORED_JS)
    return found


def choose_file(page: Page, text: str, open_chooser: Callable[[], None] | None = None) -> None:
    """Import: the statistics panel's Import button (or ``open_chooser``), then ``text`` as the file."""
    with page.expect_file_chooser() as chooser:
        if open_chooser is None:
            page.click("[data-testid=import]")
        else:
            open_chooser()
    chosen: FilePayload = {"name": "data.json", "mimeType": "application/json", "buffer": text.encode()}
    chooser.value.set_files(files=[chosen])
