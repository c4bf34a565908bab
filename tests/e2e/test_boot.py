"""The page boots under a sub-path: static loading state, MicroPython UI, Pyodide worker.

Proves the runtime architecture end to end (main-thread long tasks are printed here and measured by
bench/load.py, never asserted: a busy machine stretches them): no request leaves the served site, no
console error, the worker answers a JSON call
without SharedArrayBuffer, and dist/ ships exactly the runtime files the page loads.
"""

from __future__ import annotations

import urllib.error
import urllib.request
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page

import build
from tools.browser import WAIT_MS

from .conftest import PageGuard, long_tasks, performance_marks
from .game import settle
from .test_offline import wait_offline_ready

#: The service worker's precache and the repeat visits it controls are part of what is tested here.
pytestmark = pytest.mark.service_worker


def _boot(page: Page, site: build.SiteServer) -> dict[str, float]:
    page.goto(site.url + "?seed=1")
    page.wait_for_function(
        "['expose', 'play', 'error'].includes(document.documentElement.dataset.phase)"
        " && document.documentElement.dataset.engine === 'ready'",
        timeout=WAIT_MS,
    )
    assert page.evaluate("document.documentElement.dataset.phase") != "error", page.text_content("#status")
    assert settle(page) in ("expose", "play")
    return performance_marks(page)


def _check_answer(page: Page) -> None:
    """The table is up: 13 cards in hand, four seats with their scores, the worker dealt."""
    assert page.locator("#hand [data-card]").count() == 13
    for seat in range(4):
        assert page.locator(f'[data-seat="{seat}"] [data-testid="total"]').count() == 1
    assert page.evaluate("new URL(location.href).searchParams.get('seed')") is None


def _report(label: str, marks: dict[str, float], tasks: list[dict[str, float]]) -> None:
    worst = max((t["duration"] for t in tasks), default=0.0)
    print(
        f"\n[{label}] ui-ready {marks['ui-ready']:.0f} ms, table-painted {marks['table-painted']:.0f} ms, "
        f"engine-ready {marks['engine-ready']:.0f} ms, table-ready {marks['table-ready']:.0f} ms, "
        f"{len(tasks)} long tasks (worst {worst:.0f} ms)"
    )


def test_desktop_boot(desktop_page: Page, guard: PageGuard, site: build.SiteServer) -> None:
    marks = _boot(desktop_page, site)
    _check_answer(desktop_page)
    assert marks["ui-ready"] <= marks["table-painted"] < marks["engine-connected"] <= marks["engine-ready"]

    # The worker needs no cross-origin isolation (GitHub Pages sends no COOP/COEP).
    assert desktop_page.evaluate("crossOriginIsolated") is False
    assert desktop_page.evaluate("typeof SharedArrayBuffer") == "undefined"

    tasks = long_tasks(desktop_page)
    _report("desktop", marks, tasks)
    guard.check()


def test_phone_boot(phone_page: Page, phone_guard: PageGuard, site: build.SiteServer) -> None:
    marks = _boot(phone_page, site)
    _check_answer(phone_page)
    tasks = long_tasks(phone_page)
    _report("phone", marks, tasks)
    assert phone_page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    phone_guard.check()


def test_dist_ships_exactly_the_runtime_files_loaded(
    desktop_page: Page, guard: PageGuard, site: build.SiteServer
) -> None:
    _boot(desktop_page, site)
    wait_offline_ready(
        desktop_page
    )  # the build's engine snapshot is only the service worker's, after the boot
    prefix = urlsplit(site.url).path
    requested = {
        urlsplit(url).path[len(prefix) :] for url in guard.requests if url.startswith(site.url + "runtime/")
    }
    shipped = {
        p.relative_to(site.directory).as_posix()
        for p in (site.directory / "runtime").rglob("*")
        if p.is_file()
    }
    assert requested == shipped, {
        "shipped, never loaded": sorted(shipped - requested),
        "loaded, not shipped": sorted(requested - shipped),
    }


def test_loading_state_is_static_html(chromium_browser: Browser, site: build.SiteServer) -> None:
    """Before any script runs, the page already shows its loading state."""
    context = chromium_browser.new_context(java_script_enabled=False, viewport={"width": 360, "height": 640})
    try:
        page = context.new_page()
        page.goto(site.url)
        assert page.get_attribute("html", "data-phase") == "loading"
        assert page.is_visible("text=Shuffling the deck…")
        assert page.is_visible(".spinner")
    finally:
        context.close()


def _status(url: str) -> tuple[int, str]:
    request = urllib.request.Request(url, method="GET")
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(request, timeout=10) as response:
            return response.status, response.headers.get("Content-Type", "")
    except urllib.error.HTTPError as err:
        return err.code, err.headers.get("Location", "") or ""


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


@pytest.mark.parametrize(
    ("path", "status", "detail"),
    [
        ("/", 404, ""),
        ("/index.html", 404, ""),
        ("/gongzhu", 301, "/gongzhu/"),
        ("/gongzhu/", 200, "text/html; charset=utf-8"),
        ("/gongzhu/runtime/pyodide/pyodide.asm.wasm", 200, "application/wasm"),
        ("/gongzhu/runtime/micropython/micropython.mjs", 200, "text/javascript"),
    ],
)
def test_server_serves_only_the_sub_path(site: build.SiteServer, path: str, status: int, detail: str) -> None:
    root = f"http://127.0.0.1:{site.port}"
    assert _status(root + path) == (status, detail)
