"""Playwright fixtures for end-to-end tests of the browser game.

* ``site`` (session): builds the site once and serves it on 127.0.0.1 under the
  sub-path ``/gongzhu/`` (as GitHub Pages would under ``/<repo>/``), on a free port.
* ``chromium_browser`` (session): Debian's ``/usr/bin/chromium`` driven by Playwright
  (never ``playwright install``), with background networking off and every host name
  except 127.0.0.1 unresolvable.
* ``desktop_page`` (1280x800) and ``phone_page`` (360x640 portrait, mobile, touch):
  a fresh context each, guarded by a :class:`PageGuard` that fails the test on any
  request outside the served site, any HTTP error status, any console error or any
  uncaught page error. ``guard`` / ``phone_guard`` give access to it (for
  ``guard.check()`` mid-test or ``guard.long_tasks()``).

Every test here is marked ``e2e`` automatically; deselect with ``-m "not e2e"``.
The session builds the site into a temporary directory (``dist/`` is left alone);
set ``GONGZHU_E2E_NO_BUILD=1`` to serve the existing ``dist/`` instead, or ``GONGZHU_E2E_SITE`` to a
site built beforehand (``scripts/test.sh`` builds one while the lint and the type check run).
"""

from __future__ import annotations

import fcntl
import os
import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import build  # noqa: E402  (repo root module, needs the path above)

playwright_sync = pytest.importorskip("playwright.sync_api")
from playwright.sync_api import (  # noqa: E402
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    Playwright,
    Request,
    Response,
    sync_playwright,
)

from tools.browser import (  # noqa: E402  (the browser, page sizes and waits the benchmarks share)
    CHROMIUM,
    CHROMIUM_ARGS,
    DESKTOP,
    LONG_TASK_OBSERVER,
    NO_STALL_JS,
    PHONE,
    SITE_PREFIX,
    WAIT_MS,
)

#: The limit of every wait of a guarded page (``tools.browser.WAIT_MS``): far above a slow boot.
BOOT_TIMEOUT_MS = WAIT_MS

#: Console messages that are expected and harmless. PyScript warns once per worker that
#: `window`/`document` are not reachable from it without SharedArrayBuffer: by design,
#: the engine worker never touches the DOM (GitHub Pages sends no COOP/COEP headers).
IGNORED_CONSOLE = ("Unable to use `window` or `document` in worker",)

#: What every context of a test gets unless the test asks otherwise. The motion of the cards (CSS only:
#: ``web/game.css`` stops every animation under ``prefers-reduced-motion``, the UI's Python is the same)
#: is the subject of the tests marked ``motion`` (tests/e2e/test_motion.py, the page live mid-animation,
#: the monkey's hurried taps); everywhere else a player who asked for reduced motion is as real a player,
#: and Playwright's clicks wait for no card to come to rest. The service worker (its precache after the
#: engine is ready, the repeat visits it controls) is the subject of the tests marked
#: ``service_worker``; elsewhere its download of the whole site would only compete for the two cores.
CONTEXT_DEFAULTS: dict[str, Any] = {"reduced_motion": "reduce", "service_workers": "block"}
#: The option each marker gives back to the page as a player's browser has it.
MARKER_OPTIONS = {
    "motion": ("reduced_motion", "no-preference"),
    "service_worker": ("service_workers", "allow"),
}
#: This test's defaults (set per test by ``_context_defaults``).
_defaults: dict[str, Any] = dict(CONTEXT_DEFAULTS)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test here ``e2e``, and run the test files longest first: the e2e files whose pages
    run the service worker (the precache of the whole site each time), then the other e2e files, then
    the unit tests, whose many short files fill the end of the run evenly on both processes. (Under
    pytest-xdist this order holds with ``--no-loadscope-reorder``, as ``scripts/test.sh`` runs it;
    the site is built beforehand there, beside the lint and the type check.)"""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)

    def order(item: pytest.Item) -> int:
        if item.get_closest_marker("e2e") is None:
            return 2
        return 0 if item.get_closest_marker("service_worker") else 1

    items.sort(key=order)


@pytest.fixture(autouse=True)
def _context_defaults(request: pytest.FixtureRequest) -> None:
    """The defaults of :data:`CONTEXT_DEFAULTS`, less what the test's markers give back."""
    _defaults.clear()
    _defaults.update(CONTEXT_DEFAULTS)
    for marker, (option, value) in MARKER_OPTIONS.items():
        if request.node.get_closest_marker(marker):
            _defaults[option] = value


@dataclass
class PageGuard:
    """Collects everything that must not happen while a page runs."""

    site_url: str
    problems: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)

    def allowed_url(self, url: str) -> bool:
        """Only the served site itself: 127.0.0.1, its port, under its sub-path."""
        site = urlsplit(self.site_url)
        if url.startswith("data:"):
            return True
        if url.startswith("blob:"):  # blob:http://127.0.0.1:PORT/<uuid>: PyScript's worker
            blob = urlsplit(url[len("blob:") :])
            return (blob.scheme, blob.hostname, blob.port) == (site.scheme, "127.0.0.1", site.port)
        parts = urlsplit(url)
        return (parts.scheme, parts.hostname, parts.port) == (
            site.scheme,
            "127.0.0.1",
            site.port,
        ) and parts.path.startswith(site.path)

    def on_request(self, request: Request) -> None:
        self.requests.append(request.url)
        if not self.allowed_url(request.url):
            self.problems.append(f"request outside the site: {request.method} {request.url}")

    def on_response(self, response: Response) -> None:
        if response.status >= 400:
            self.problems.append(f"HTTP {response.status}: {response.url}")

    def on_console(self, message: ConsoleMessage) -> None:
        text = f"[{message.type}] {message.text}"
        self.console.append(text)
        if message.type in ("error", "assert") and not any(s in message.text for s in IGNORED_CONSOLE):
            self.problems.append(f"console {text}")

    def on_page_error(self, error: Exception) -> None:
        self.problems.append(f"page error: {error}")

    def attach(self, context: BrowserContext) -> None:
        context.on("request", self.on_request)
        context.on("response", self.on_response)
        context.on("console", self.on_console)

    def watch(self, page: Page) -> None:
        page.on("pageerror", self.on_page_error)

    def check(self) -> None:
        if self.problems:
            pytest.fail("page problems:\n  " + "\n  ".join(self.problems), pytrace=False)


def long_tasks(page: Page) -> list[dict[str, Any]]:
    """Main-thread long tasks recorded since navigation (needs the guarded contexts)."""
    tasks = page.evaluate("window.__gongzhuLongTasks")
    if tasks is None:
        raise AssertionError("PerformanceObserver 'longtask' is not supported by this browser")
    return list(tasks)


def wait_for_phase(page: Page, phase: str, timeout_ms: int = BOOT_TIMEOUT_MS) -> None:
    """Wait until ``<html data-phase>`` is ``phase``; fail at once if it turns ``error``."""
    page.wait_for_function(
        "(p) => [p, 'error'].includes(document.documentElement.dataset.phase)",
        arg=phase,
        timeout=timeout_ms,
    )
    current = page.evaluate("document.documentElement.dataset.phase")
    if current != phase:
        status = page.text_content("#status")
        pytest.fail(f"page reached phase {current!r} instead of {phase!r}: {status}", pytrace=False)


def performance_marks(page: Page) -> dict[str, float]:
    """``gongzhu:*`` performance marks, in ms since navigation start."""
    marks = page.evaluate(
        "performance.getEntriesByType('mark')"
        ".filter(m => m.name.startsWith('gongzhu:')).map(m => [m.name, m.startTime])"
    )
    return {name.removeprefix("gongzhu:"): float(t) for name, t in marks}


# --------------------------------------------------------------------------- fixtures


def _shared_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private build (never the dist/ someone may be serving), made once per test run: under
    pytest-xdist the workers share one temporary root, and the first to take the lock builds while
    the others wait for it. The build is read-only for the tests (a test that changes files works
    on a copy)."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # the run's root, shared by every worker
    directory = root / "site" / "dist"
    with open(root / "site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not (directory / "index.html").is_file():
            build.build(directory)
    return directory


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[build.SiteServer]:
    """The built site, served; ``site.directory`` is where it was built."""
    if os.environ.get("GONGZHU_E2E_NO_BUILD"):
        directory = build.DIST
        if not (directory / "index.html").is_file():
            pytest.fail("GONGZHU_E2E_NO_BUILD is set but dist/ is not built")
    elif os.environ.get("GONGZHU_E2E_SITE"):
        directory = Path(os.environ["GONGZHU_E2E_SITE"])
        if not (directory / "index.html").is_file():
            pytest.fail(f"GONGZHU_E2E_SITE is set but {directory} holds no built site")
    else:
        directory = _shared_build(tmp_path_factory)
    with build.serving(directory, SITE_PREFIX) as server:
        yield server


@pytest.fixture(scope="session")
def playwright_instance() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def chromium_browser(playwright_instance: Playwright) -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} not found: run scripts/install-test-deps.sh")
    browser = playwright_instance.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    new_context = browser.new_context

    def no_stall_context(**options: Any) -> BrowserContext:
        """Every context of the tests: the loading watchdog never cuts a healthy page that boots
        slowly (``tools.browser.NO_STALL``); a test that races the watchdog sets its own limits. The
        test's :data:`CONTEXT_DEFAULTS` apply unless the options say otherwise."""
        context = new_context(**{**_defaults, **options})
        context.add_init_script(NO_STALL_JS)
        return context

    browser.new_context = no_stall_context  # type: ignore[method-assign]
    try:
        yield browser
    finally:
        browser.close()


def _guarded_context(
    browser: Browser, site: build.SiteServer, options: dict[str, Any]
) -> tuple[BrowserContext, PageGuard]:
    context = browser.new_context(**options)
    context.set_default_timeout(BOOT_TIMEOUT_MS)
    context.add_init_script(LONG_TASK_OBSERVER)
    guard = PageGuard(site.url)
    guard.attach(context)
    return context, guard


@contextmanager
def guarded_page(
    browser: Browser, site: build.SiteServer, options: dict[str, Any]
) -> Iterator[tuple[Page, PageGuard]]:
    """A page in a fresh guarded context, closed at the end; the caller reads the guard (``check()``,
    or ``problems`` when some are expected)."""
    context, guard = _guarded_context(browser, site, options)
    try:
        page = context.new_page()
        guard.watch(page)
        yield page, guard
    finally:
        context.close()


def _guarded_page(
    browser: Browser, site: build.SiteServer, options: dict[str, Any]
) -> Iterator[tuple[PageGuard, Page]]:
    """A page in a fresh guarded context; the guard's findings fail the test at teardown."""
    with guarded_page(browser, site, options) as (page, guard):
        yield guard, page
    guard.check()


@pytest.fixture
def guard_and_desktop_page(
    chromium_browser: Browser, site: build.SiteServer
) -> Iterator[tuple[PageGuard, Page]]:
    yield from _guarded_page(chromium_browser, site, DESKTOP)


@pytest.fixture
def guard_and_phone_page(
    chromium_browser: Browser, site: build.SiteServer
) -> Iterator[tuple[PageGuard, Page]]:
    yield from _guarded_page(chromium_browser, site, PHONE)


@pytest.fixture
def desktop_page(guard_and_desktop_page: tuple[PageGuard, Page]) -> Page:
    """A 1280x800 desktop page, not yet navigated (``page.goto(site.url)``)."""
    return guard_and_desktop_page[1]


@pytest.fixture
def guard(guard_and_desktop_page: tuple[PageGuard, Page]) -> PageGuard:
    """The guard of ``desktop_page``."""
    return guard_and_desktop_page[0]


@pytest.fixture
def phone_page(guard_and_phone_page: tuple[PageGuard, Page]) -> Page:
    """A 360x640 portrait phone page (mobile, touch), not yet navigated."""
    return guard_and_phone_page[1]


@pytest.fixture
def phone_guard(guard_and_phone_page: tuple[PageGuard, Page]) -> PageGuard:
    """The guard of ``phone_page``."""
    return guard_and_phone_page[0]


@pytest.fixture
def copy_site(site: build.SiteServer, tmp_path: Path) -> Iterator[build.SiteServer]:
    """A private copy of the build, served on its own port (a release the test can change)."""
    directory = tmp_path / "dist"
    shutil.copytree(site.directory, directory)
    with build.serving(directory, SITE_PREFIX) as server:
        yield server
