"""Installable web app and service worker: manifest and icons, the first download's real byte
progress (one download of the runtime, which then loads from the cache), and the clean update
path: a new release is announced without touching the hand in progress, and accepting it
replaces the old cache with the new one.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Request, Route

import build

from . import game as g
from .conftest import DESKTOP, PageGuard, _guarded_context
from .test_offline import cached_paths, wait_offline_ready

#: The service worker's precache and the repeat visits it controls are part of what is tested here.
pytestmark = pytest.mark.service_worker

#: The service worker's release caches (not the engine's snapshot cache).
RELEASE_CACHES = "caches.keys().then(names => names.filter(n => n.startsWith('gongzhu-')))"


def _desktop() -> dict[str, Any]:
    return dict(DESKTOP)


def _context(browser: Browser, site: build.SiteServer) -> tuple[BrowserContext, PageGuard, Page]:
    context, guard = _guarded_context(browser, site, _desktop())
    page = context.new_page()
    guard.watch(page)
    return context, guard, page


def _png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n", path
    width, height = struct.unpack(">II", header[16:24])
    return int(width), int(height)


def test_manifest_and_icons(site: build.SiteServer) -> None:
    manifest = json.loads((site.directory / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == manifest["scope"] == "./"
    assert manifest["theme_color"].startswith("#") and manifest["name"] and manifest["short_name"]
    sizes = {}
    for icon in manifest["icons"]:
        path = site.directory / icon["src"]
        assert path.is_file(), icon
        if icon["type"] == "image/png":
            w, h = _png_size(path)
            assert icon["sizes"] == f"{w}x{h}"
            sizes[(w, icon["purpose"])] = True
    assert (192, "any") in sizes and (512, "any") in sizes and (512, "maskable") in sizes


def test_installable_and_first_visit_downloads_once_with_progress(
    chromium_browser: Browser, copy_site: build.SiteServer
) -> None:
    context, guard, page = _context(chromium_browser, copy_site)
    try:
        page.add_init_script(
            "window.__progress = [];"
            "addEventListener('gongzhu:load-progress', e => window.__progress.push(e.detail));"
        )
        fetched: list[str] = []

        def on_request(request: Request) -> None:
            if "/runtime/pyodide/" in request.url:
                fetched.append(request.url.rsplit("/", 1)[1])

        context.on("request", on_request)  # the page's, its workers' and the service worker's
        g.open_game(page, copy_site, seed=3)
        wait_offline_ready(page)

        # Real bytes of the engine's download, growing up to the exact total of what it fetches (on
        # loopback, a fast link: the build's snapshot and Pyodide's files, web/link.js snapshotPays).
        config = json.loads((copy_site.directory / build.WORKER_CONFIG_SHIPPED).read_text(encoding="utf-8"))
        assert page.evaluate("gongzhuEngine.boot") == "snapshot (shipped)"
        total = config["snapshot"]["download"]
        progress = page.evaluate("window.__progress")
        assert len(progress) >= 2, progress
        assert all(p["total"] == total for p in progress)
        received = [p["received"] for p in progress]
        assert received == sorted(received) and received[-1] == total
        assert page.is_hidden("[data-testid=load-progress]")

        # The engine did not wait for the cache, yet the runtime was downloaded once: the service
        # worker precached the engine worker's copies of the files Pyodide fetches and of the
        # build's snapshot.
        snapshot = str(config["snapshot"]["url"]).rsplit("/", 1)[1]  # the build's engine snapshot
        for name in ("pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json", snapshot):
            assert fetched.count(name) == 1, fetched
        cached = cached_paths(page)
        assert {f"runtime/pyodide/{name}" for name in set(fetched)} <= cached

        # Chromium's own installability check ("in-incognito": every Playwright context is one).
        cdp = context.new_cdp_session(page)
        errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
        assert [e for e in errors if e["errorId"] != "in-incognito"] == [], errors
        manifest = cdp.send("Page.getAppManifest")
        assert not manifest.get("errors"), manifest
        guard.check()
    finally:
        context.close()


def test_first_visit_engine_does_not_wait_for_the_precache(
    chromium_browser: Browser, copy_site: build.SiteServer
) -> None:
    """The engine starts while the site is still being cached: with one file of the precache held
    back, the service worker never finishes installing, and the game is playable all the same."""
    context, guard, page = _context(chromium_browser, copy_site)
    held: list[Route] = []
    try:
        # Only the precache asks for it; never answered.
        context.route("**/rules.html", lambda route: held.append(route))
        g.open_game(page, copy_site, seed=5)
        assert g.settle(page) in ("expose", "play")
        assert page.get_attribute("html", "data-engine") == "ready"
        page.wait_for_function("() => window.gongzhuPWA.registration !== null")
        # The precache asks for rules.html in its own time (once seen installing, it may not have
        # reached it yet): waited for, the route's handler running meanwhile.
        g.wait_until(page, lambda: bool(held), "the precache asks for rules.html")
        assert page.evaluate("navigator.serviceWorker.controller") is None
        assert page.evaluate("!!gongzhuPWA.registration.installing"), "the install should still be held"
        # The precache's bytes are never shown: the loading screen shows the engine's download only.
        page.wait_for_function("() => window.gongzhuPWA.precache !== null")
        assert page.evaluate("gongzhuPWA.precache.received < gongzhuPWA.precache.total")
        assert page.is_hidden("[data-testid=load-progress]")
        guard.check()
    finally:
        context.close()


def test_new_release_is_announced_and_replaces_the_cache(
    chromium_browser: Browser, copy_site: build.SiteServer
) -> None:
    context, guard, page = _context(chromium_browser, copy_site)
    try:
        g.open_game(page, copy_site, seed=11)
        old = wait_offline_ready(page)["version"]
        if g.settle(page) == "expose":
            g.expose_none(page)
        assert g.settle(page) == "play"
        g.play_first(page)
        g.settle(page)
        before = g.table_snapshot(page)

        # Release B: one file changes; build.py's service-worker step gives it a new version.
        css = copy_site.directory / "game.css"
        css.write_text(css.read_text(encoding="utf-8") + "\n/* release B */\n", encoding="utf-8")
        new = build.write_service_worker(copy_site.directory)
        assert new != old

        # The page checks for an update (as it does on every load and every 30 minutes): the new
        # release installs in the background and the player is told, mid-hand, with no reload.
        page.evaluate("window.__samePage = true")
        page.evaluate("gongzhuPWA.registration.update()")
        notice = page.locator("[data-testid=update-ready]")
        notice.wait_for(state="visible")
        assert "A new version is ready" in notice.inner_text()
        assert page.evaluate("window.__samePage") is True
        assert g.table_snapshot(page) == before
        assert sorted(page.evaluate(RELEASE_CACHES)) == sorted([f"gongzhu-{old}", f"gongzhu-{new}"])
        assert page.evaluate("gongzhuPWA.version") == old  # still the old release

        # The hand goes on under the old release until the player accepts.
        g.play_first(page)
        g.settle(page)
        before = g.table_snapshot(page)

        with page.expect_navigation():
            page.click("[data-testid=update-reload]")
        g.settle(page)
        assert page.evaluate("window.__samePage") is None
        assert g.table_snapshot(page) == before  # the saved hand resumed exactly
        page.wait_for_function("gongzhuPWA.version !== null")
        assert page.evaluate("gongzhuPWA.version") == new
        assert page.evaluate(RELEASE_CACHES) == [f"gongzhu-{new}"]
        assert "release B" in page.evaluate("fetch('./game.css').then(r => r.text())")
        assert page.is_hidden("[data-testid=update-ready]")
        guard.check()
    finally:
        context.close()
