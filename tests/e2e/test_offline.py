"""Offline: after one visit the whole site is in the service worker's cache; with the network cut
(browser offline *and* the server stopped) a reload loads the game and the saved hand resumes
exactly, and the engine (Pyodide, from the cache) plays on.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

import build

from . import game as g
from .conftest import DESKTOP, SITE_PREFIX, _guarded_context

#: The service worker's precache and the repeat visits it controls are part of what is tested here.
pytestmark = pytest.mark.service_worker


def _desktop() -> dict[str, Any]:
    return dict(DESKTOP)


#: Resolves once the page is controlled by the service worker (the first install activates only
#: after the whole site is cached) and returns the release caches' names (the engine's snapshot
#: cache, ``engine-snapshot``, is not one) and the release version.
OFFLINE_READY_JS = """async () => {
  const ready = (async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller)
      await new Promise(r => navigator.serviceWorker.addEventListener('controllerchange', r, {once: true}));
  })();
  // (page.evaluate has no timeout of its own: a service worker that never takes over fails the test)
  const late = new Promise((_, no) => setTimeout(() => no(new Error('the service worker did not take over in 90 s')), 90000));
  await Promise.race([ready, late]);
  for (let i = 0; i < 100 && !window.gongzhuPWA.version; i++) await new Promise(r => setTimeout(r, 50));
  return {caches: (await caches.keys()).filter(n => n.startsWith('gongzhu-')), version: window.gongzhuPWA.version};
}"""


def wait_offline_ready(page: Page) -> dict[str, Any]:
    info: dict[str, Any] = page.evaluate(OFFLINE_READY_JS)
    assert info["version"], info
    assert info["caches"] == ["gongzhu-" + info["version"]], info
    return info


def cached_paths(page: Page) -> set[str]:
    """Paths (relative to the site) in the service worker's cache."""
    urls: list[str] = page.evaluate(
        "async () => { const c = await caches.open((await caches.keys()).find(n => n.startsWith('gongzhu-')));"
        " return (await c.keys()).map(r => r.url); }"
    )
    base = page.evaluate("new URL('./', location.href).href")
    return {u[len(base) :] for u in urls}


@pytest.fixture
def own_site(site: build.SiteServer) -> Iterator[build.SiteServer]:
    """The built site on a server of its own (own port: own origin, own service worker)."""
    server = build.serve_in_thread(site.directory, SITE_PREFIX)
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def test_offline_reload_resumes_the_saved_hand(chromium_browser: Browser, own_site: build.SiteServer) -> None:
    context, guard = _guarded_context(chromium_browser, own_site, _desktop())
    try:
        page = context.new_page()
        guard.watch(page)
        g.open_game(page, own_site, seed=7)
        wait_offline_ready(page)
        shipped = {
            p.relative_to(own_site.directory).as_posix() for p in own_site.directory.rglob("*") if p.is_file()
        }
        assert cached_paths(page) == shipped - {"sw.js"}

        # Reach a hand in progress: decline to expose if asked, play two cards.
        if g.settle(page) == "expose":
            g.expose_none(page)
        for _ in range(2):
            assert g.settle(page) == "play"
            g.play_first(page)
        g.settle(page)
        before = g.table_snapshot(page)
        assert len(before["hand"]) == 11
        saved = page.evaluate("localStorage.getItem('gongzhu.save.v1')")
        assert saved
        guard.check()

        # Cut the network: the browser goes offline and the server stops.
        context.set_offline(True)
        own_site.shutdown()
        own_site.server_close()

        page.reload()
        assert g.settle(page) == before["phase"]
        assert g.table_snapshot(page) == before
        assert page.evaluate("navigator.onLine") is False
        assert page.evaluate("!!navigator.serviceWorker.controller")
        # The engine came from the cache too: play on, offline.
        g.play_first(page)
        assert len(g.hand(page)) == 10

        # A new tab, offline, opens the game as well.
        other = context.new_page()
        guard.watch(other)
        other.goto(own_site.url)
        g.settle(other)
        assert len(g.hand(other)) == 10
        guard.check()
    finally:
        context.close()
