"""The page never spins forever: a file of the site that fails to load (the PyScript runtime, a
configuration, a UI module, an engine module, Pyodide itself) turns the loading screen into a message
in the player's language with "Try again" (web/boot.js); a first visit offline says the game needs one
online visit; once the file is back, "Try again" starts the game.

Testing contract: ``<html data-phase="error">``, the message in the loading box
(``[data-testid=loading]``), a ``[data-testid=retry]`` button.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

import build
from sitebuild.wheels import MICROPIP, WHEEL_DIR, engine_wheel_name
from tools.browser import NO_STALL, TEST_QUERY
from tools.i18n import load_messages
from tools.loading_notice import NOTICE
from ui.view.i18n import HTML_LANG

from .conftest import BOOT_TIMEOUT_MS, DESKTOP, SITE_PREFIX, PageGuard

#: The limit of a wait for the failure to be told: far above the watchdog's own limits (12 s without
#: progress, 40 s while the engine starts), which the test does not time (bench/ measures).
ERROR_WAIT_MS = BOOT_TIMEOUT_MS

#: The watchdog's limits (``window.gongzhuBootLimits``, web/boot.js) of a page that fails to load,
#: injected, never assumed: the page's own (12 s without progress, 40 s while the engine starts) where
#: nothing but the stall timer may tell the failure, or NO_STALL (tools/browser.py) where the test
#: expects the report of what is missing: the stall timer never fires before the wait for the failure
#: ends, so the report is what is told, however long the engine takes to fail on a loaded machine.
WATCHDOG = {"stallMs": 12_000, "engineStartMs": 40_000}


@pytest.fixture(scope="module")
def broken_site(
    site: build.SiteServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[build.SiteServer]:
    """A private copy of the built site, on its own port, whose files the tests take away."""
    directory = tmp_path_factory.mktemp("broken") / "dist"
    shutil.copytree(site.directory, directory)
    with build.serving(directory, SITE_PREFIX) as server:
        yield server


#: Stands for the build's snapshot of the engine (its name carries the release): without it, the
#: engine boots from its modules, so a missing engine module shows.
SHIPPED_SNAPSHOT = "<the shipped engine snapshot>"

#: The engine's wheel, which micropip installs at boot (``--engine-as wheel``: sitebuild/wheels.py).
ENGINE_WHEEL = f"{WHEEL_DIR}/{engine_wheel_name()}"


def _served(site: build.SiteServer, rel: str) -> Path:
    if rel == SHIPPED_SNAPSHOT:
        config = json.loads((site.directory / build.WORKER_CONFIG_SHIPPED).read_text(encoding="utf-8"))
        rel = str(config["snapshot"]["url"]).removeprefix("./")
    return site.directory / rel


@contextmanager
def tampered(site: build.SiteServer, rel: str) -> Iterator[None]:
    """``rel`` is served with other bytes inside the block (its last byte changed: same length)."""
    path = _served(site, rel)
    data = path.read_bytes()
    try:
        path.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
        yield
    finally:
        path.write_bytes(data)


@contextmanager
def without(site: build.SiteServer, *rels: str) -> Iterator[None]:
    """``rels`` are missing from the served site (a 404) inside the block."""
    kept = []
    try:
        for rel in rels:
            path = _served(site, rel)
            path.rename(path.with_name(path.name + ".kept"))
            kept.append(path)
        yield
    finally:
        for path in kept:
            path.with_name(path.name + ".kept").rename(path)


@contextmanager
def fresh_page(
    browser: Browser,
    site: build.SiteServer,
    offline: bool = False,
    locale: str = "en-US",
    limits: dict[str, int] | None = None,
) -> Iterator[Page]:
    """A first visit (fresh context: no cache, no service worker, which is kept off so that a reload
    asks the server again), with the watchdog's ``limits`` (default :data:`WATCHDOG`). Not guarded
    against 404s and console errors, which are the point here; no request may leave the site all the
    same."""
    context = browser.new_context(**DESKTOP, service_workers="block", locale=locale)
    context.set_default_timeout(BOOT_TIMEOUT_MS)
    # (after the context's NO_STALL; a limit kept for the tab, as "Try again" does, wins)
    context.add_init_script(
        "window.gongzhuBootLimits = JSON.parse(sessionStorage.getItem('test-boot-limits') || 'null')"
        f" || {json.dumps(limits or WATCHDOG)};"
    )
    if offline:  # the page itself came, the network is gone: what navigator.onLine reports
        context.add_init_script("Object.defineProperty(Navigator.prototype, 'onLine', {get: () => false});")
    guard = PageGuard(site.url)
    context.on("request", guard.on_request)
    try:
        yield context.new_page()
    finally:
        context.close()
    assert not [p for p in guard.problems if "outside the site" in p], guard.problems


def wait_for_error(page: Page) -> str:
    """Wait for ``data-phase="error"`` (failing if the engine starts instead); the loading box's text."""
    page.wait_for_function(
        "document.documentElement.dataset.phase === 'error' || document.documentElement.dataset.engine === 'ready'",
        timeout=ERROR_WAIT_MS,
    )
    state = page.evaluate("({...document.documentElement.dataset})")
    assert state.get("phase") == "error", state
    assert page.locator("[data-testid=retry]").is_visible()
    return page.locator("[data-testid=loading]").inner_text()


def texts(language: str) -> dict[str, str]:
    catalog = load_messages(language)
    return {key: str(catalog[msgid]) for key, msgid in NOTICE.items()}


@pytest.mark.parametrize(
    ("missing", "language", "reason"),
    [
        ("runtime/pyscript/core.js", "en", "failed"),  # PyScript itself: no Python ever runs
        ("pyscript.toml", "fr", "failed"),  # the main thread's configuration
        ("ui-modules.json", "uk", "failed"),  # the MicroPython UI's modules (one file)
        # A module of the engine, the build's snapshot too (else the engine needs no module): the
        # worker dies while starting.
        (("gongzhu/game.py", SHIPPED_SNAPSHOT), "pt", "engine"),
        # Pyodide's wasm: the worker reports it at once (loadPyodide alone would wait for ever)
        ("runtime/pyodide/pyodide.asm.wasm", "zh", "engine"),
    ],
)
def test_a_missing_file_is_told_in_the_players_language(
    chromium_browser: Browser,
    broken_site: build.SiteServer,
    missing: str | tuple[str, ...],
    language: str,
    reason: str,
) -> None:
    wanted = texts(language)
    files = (missing,) if isinstance(missing, str) else missing
    limits = NO_STALL if reason == "engine" else None  # the engine's report races the stall timer
    with without(broken_site, *files), fresh_page(chromium_browser, broken_site, limits=limits) as page:
        page.goto(f"{broken_site.url}?seed=3&{TEST_QUERY}&lang={language}")
        shown = wait_for_error(page)
        assert any(wanted[one] in shown for one in reason.split("|")), shown
        assert page.locator("[data-testid=retry]").inner_text() == wanted["retry"]
        assert page.evaluate("document.documentElement.lang") == HTML_LANG[language]  # as the UI says it


@pytest.fixture(scope="module")
def wheel_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[build.SiteServer]:
    """The site built with the engine as its wheel (``--engine-as wheel``), served."""
    directory = tmp_path_factory.mktemp("wheel-site") / "dist"
    try:
        build.build(directory, engine="wheel")
    except build.BuildError as exc:  # pragma: no cover - only without PyPI and without the cache
        pytest.skip(f"micropip's wheel cannot be had here: {exc}")
    with build.serving(directory, SITE_PREFIX) as server:
        yield server


#: The player saves data (web/link.js: a link to spare): a first visit never fetches the build's
#: snapshot, the engine boots.
SAVE_DATA_JS = (
    "Object.defineProperty(Navigator.prototype, 'connection', { configurable: true,"
    " get: () => ({ saveData: true, effectiveType: '4g', downlink: 10, addEventListener() {} }) });"
)


def test_the_engine_installed_from_its_wheel_plays(
    chromium_browser: Browser, wheel_site: build.SiteServer
) -> None:
    with fresh_page(chromium_browser, wheel_site) as page:
        # The player saves data: no build snapshot, the engine boots and installs its wheel.
        page.add_init_script(SAVE_DATA_JS)
        page.goto(f"{wheel_site.url}?seed=3&{TEST_QUERY}&lang=en")
        page.wait_for_function(
            "['expose', 'play'].includes(document.documentElement.dataset.phase)", timeout=BOOT_TIMEOUT_MS
        )
        assert page.evaluate("gongzhuEngine.boot") == "boot"
        assert page.locator("#hand [data-card]").count() == 13


@pytest.mark.parametrize("wheel", [ENGINE_WHEEL, f"{WHEEL_DIR}/{MICROPIP.file_name}"])
def test_a_tampered_wheel_is_refused_before_it_is_installed(
    chromium_browser: Browser, wheel_site: build.SiteServer, wheel: str
) -> None:
    """A wheel whose bytes are not the ones the build pinned (engine-worker.json's sha256) is never
    installed: the engine does not start, the player is told, the console names the file."""
    with (
        without(wheel_site, SHIPPED_SNAPSHOT),
        tampered(wheel_site, wheel),
        fresh_page(chromium_browser, wheel_site, limits=NO_STALL) as page,
    ):
        said: list[str] = []
        page.on("console", lambda message: said.append(message.text))
        page.goto(f"{wheel_site.url}?seed=3&{TEST_QUERY}&lang=en")
        assert texts("en")["engine"] in wait_for_error(page)
        name = wheel.rsplit("/", 1)[1]
        refused = [t for t in said if f"{name}: sha256 " in t and "is not the one the build pinned" in t]
        assert refused, said


@pytest.mark.parametrize(("locale", "saved", "language"), [("pt-BR", None, "pt"), ("fr-FR", "uk", "uk")])
def test_without_lang_the_browsers_or_the_saved_language_is_used(
    chromium_browser: Browser, broken_site: build.SiteServer, locale: str, saved: str | None, language: str
) -> None:
    with (
        without(broken_site, "runtime/pyscript/core.js"),
        fresh_page(chromium_browser, broken_site, locale=locale) as page,
    ):
        if saved:
            page.add_init_script(f"localStorage.setItem('gongzhu.lang', '{saved}')")
        page.goto(broken_site.url)
        assert texts(language)["failed"] in wait_for_error(page)


def test_first_visit_offline_says_the_game_needs_one_online_visit(
    chromium_browser: Browser, broken_site: build.SiteServer
) -> None:
    with (
        without(broken_site, "runtime/micropython/micropython.wasm"),
        fresh_page(chromium_browser, broken_site, offline=True) as page,
    ):
        page.goto(f"{broken_site.url}?lang=en")
        assert texts("en")["offline"] in wait_for_error(page)


def test_a_redraw_after_the_failure_keeps_it_told(
    chromium_browser: Browser, broken_site: build.SiteServer
) -> None:
    """Once the watchdog has told the failure, the UI's redraws leave its box and ``data-phase="error"``
    alone: the loading bar's redraw already asked for when the watchdog fired (which made the missing
    Pyodide case fail now and then), or ☰ opened over the message, as here."""
    with (
        without(broken_site, "gongzhu/game.py", SHIPPED_SNAPSHOT),
        fresh_page(chromium_browser, broken_site, limits=NO_STALL) as page,  # the engine's report tells
    ):
        page.goto(f"{broken_site.url}?seed=3&{TEST_QUERY}&lang=en")
        shown = wait_for_error(page)
        assert texts("en")["engine"] in shown
        page.click("[data-testid=menu]")
        page.wait_for_selector("#sheet [role=dialog]")  # drawn in the same frame as <html>'s attributes
        assert page.evaluate("document.documentElement.dataset.phase") == "error"
        assert page.locator("[data-testid=loading]").inner_text() == shown
        assert page.locator("[data-testid=retry]").count() == 1


def test_try_again_starts_the_game_once_the_file_is_back(
    chromium_browser: Browser, broken_site: build.SiteServer
) -> None:
    with fresh_page(chromium_browser, broken_site) as page:
        with without(broken_site, "ui-modules.json"):
            page.goto(f"{broken_site.url}?seed=3&{TEST_QUERY}")
            wait_for_error(page)  # (told by the stall timer: nothing else reports a missing UI module)
        # The reload is a healthy page: the watchdog must not cut its boot on a loaded machine.
        page.evaluate("(limits) => sessionStorage.setItem('test-boot-limits', limits)", json.dumps(NO_STALL))
        page.click("[data-testid=retry]")
        page.wait_for_function(
            "['expose', 'play'].includes(document.documentElement.dataset.phase)", timeout=BOOT_TIMEOUT_MS
        )
        assert page.locator("#hand [data-card]").count() == 13


def test_a_resumed_match_whose_engine_dies_while_starting_says_so(
    chromium_browser: Browser, broken_site: build.SiteServer
) -> None:
    """A saved match paints its table before the engine starts: the watchdog still tells."""
    with fresh_page(chromium_browser, broken_site, limits=NO_STALL) as page:
        page.goto(f"{broken_site.url}?seed=3&{TEST_QUERY}&lang=fr")
        page.wait_for_function("document.documentElement.dataset.engine === 'ready'", timeout=BOOT_TIMEOUT_MS)
        # No snapshot to restore, stored or shipped: the engine must boot, and cannot.
        page.wait_for_function("gongzhuEngine.snapshot !== ''", timeout=BOOT_TIMEOUT_MS)
        # (the copies of the runtime the first visit handed over to a service worker, blocked here, too)
        page.evaluate("Promise.all([caches.delete('engine-snapshot'), caches.delete('gongzhu-handoff')])")
        page.add_init_script(SAVE_DATA_JS)  # (no build snapshot fetched, not even from the HTTP cache)
        with without(broken_site, "gongzhu/game.py", SHIPPED_SNAPSHOT):
            page.reload()
            shown = wait_for_error(page)
        assert texts("fr")["engine"] in shown
