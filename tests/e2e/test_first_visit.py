"""A first visit: the link carries what the first paint needs first (the UI runtime, the UI, the
build's prepared table), then what the engine needs (Pyodide, and the build's engine snapshot where
the link is fast enough for it to pay: on loopback here), and everything else (the rules page, icons,
the other languages) once the player may act, in the background. Where the player asked to save data
(or the browser says the link is slow: web/link.js) the build's snapshot is never downloaded; the
engine boots and its own snapshot, made after its boot, makes the next visit fast all the same. The
loading screen of a ``?seed=`` link counts the engine's download in the player's language.
"""

from __future__ import annotations

import functools
import json
import threading
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser

import build
from tools.browser import TEST_QUERY

from . import game as g
from .conftest import DESKTOP, SITE_PREFIX, guarded_page
from .test_offline import cached_paths, wait_offline_ready
from .test_snapshot import SNAPSHOT_RELEASES_JS, release, stored, visit, worker_config

#: The service worker's precache and the repeat visits it controls are part of what is tested here.
pytestmark = pytest.mark.service_worker

#: Epoch ms when <html data-engine> became "ready" (the player may act), and the texts the
#: loading screen's download line showed.
WATCH_JS = """
window.__engineReadyAt = null;
window.__downloadTexts = [];
new MutationObserver(() => {
  const root = document.documentElement;
  if (root.dataset.engine === 'ready' && window.__engineReadyAt === null) window.__engineReadyAt = Date.now();
  const line = document.getElementById('load-progress');
  const text = line && !line.hidden ? line.textContent : '';
  if (text && window.__downloadTexts[window.__downloadTexts.length - 1] !== text) window.__downloadTexts.push(text);
}).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
"""
#: The player asked to save data (what the page's navigator says; web/pwa.js tells the service worker).
SAVE_DATA_JS = """
Object.defineProperty(Navigator.prototype, 'connection', {
  configurable: true,
  get: () => ({ saveData: true, effectiveType: '4g', downlink: 10, rtt: 50, addEventListener() {} }),
});
"""

#: The browser says the link is slow (web/link.js), the player has not asked to save data: a 2G
#: connection, or a 4G one whose measured downlink is under 1 Mbit/s.
SLOW_LINK_JS = {
    "2g": "{ saveData: false, effectiveType: '2g', downlink: 0.25, rtt: 1800, addEventListener() {} }",
    "low downlink": "{ saveData: false, effectiveType: '4g', downlink: 0.5, rtt: 300, addEventListener() {} }",
}


def _connection_js(connection: str) -> str:
    return f"""
Object.defineProperty(Navigator.prototype, 'connection', {{ configurable: true, get: () => ({connection}) }});
"""


class LoggingServer(build.SiteServer):
    """The site, logging when each request arrived (epoch ms, path under the site)."""

    def __init__(self, directory: Any):
        super().__init__(directory, SITE_PREFIX)
        self.log: list[tuple[float, str]] = []
        base = self.RequestHandlerClass
        assert isinstance(base, functools.partial)
        server = self

        class Logging(base.func):  # type: ignore[name-defined,misc]
            def do_GET(self) -> None:
                path = urlsplit(self.path).path.removeprefix(server.prefix)
                server.log.append((time.time() * 1000, path))
                super().do_GET()

        self.RequestHandlerClass = functools.partial(Logging, *base.args, **base.keywords)

    def fetched(self, path: str) -> int:
        return sum(1 for _t, p in self.log if p == path)


@pytest.fixture
def logged_site(site: build.SiteServer) -> Iterator[LoggingServer]:
    server = LoggingServer(site.directory)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def _snapshot_path(site: build.SiteServer) -> str:
    return str(worker_config(site)["snapshot"]["url"]).removeprefix("./")


#: Files the first move does not need: fetched only once the player may act.
def _later(path: str) -> bool:
    other_language = path.startswith("locales/") and path != "locales/en.json"
    return path in ("rules.html", "sw.js") or path.startswith("icons/") or other_language


#: Files the engine needs, and nothing of the first paint: fetched only once the table is drawn. (The
#: engine worker starts with the page and imports Pyodide's loader, ``pyodide.mjs``, 7 kB gzipped; the
#: runtime it loads, its wasm, standard library and lock file, wait for the paint: web/engine.js.)
def _engine(path: str, snapshot: str) -> bool:
    return path == snapshot or (path.startswith("runtime/pyodide/") and path != "runtime/pyodide/pyodide.mjs")


#: The engine worker's own files (web/engine-worker.js, what it imports, its configuration): it starts
#: with the page, and fetches them itself, which the page's hints cannot do for it (``link.js`` and
#: ``engine-worker.json`` are the page's too).
WORKER_FILES = {
    "engine-worker.js",
    "engine-boot.mjs",
    "link.js",
    "runtime/pyodide/pyodide.mjs",
    "engine-worker.json",
}

#: The paths under the site of the page's preload hints.
PRELOADED_JS = """[...document.querySelectorAll('link[rel=preload], link[rel=modulepreload]')]
  .map((link) => new URL(link.href).pathname.slice(new URL('./', location.href).pathname.length))"""

#: When the prepared table was drawn, on the epoch clock of the server's log.
PAINTED_AT_JS = "performance.timeOrigin + performance.getEntriesByName('gongzhu:table-painted')[0].startTime"


def test_first_visit_fetches_what_the_first_paint_needs_first(
    chromium_browser: Browser, logged_site: LoggingServer
) -> None:
    snapshot = _snapshot_path(logged_site)
    with guarded_page(chromium_browser, logged_site, DESKTOP) as (page, guard):
        page.add_init_script(WATCH_JS)
        # A fast link (loopback): the build's snapshot pays, and is fetched by the engine itself.
        assert visit(page, logged_site, TEST_QUERY) == "snapshot (shipped)"
        assert stored(page) == "stored"  # kept as the engine's own for the next visits
        wait_offline_ready(page)
        painted = float(page.evaluate(PAINTED_AT_JS))
        ready = float(page.evaluate("window.__engineReadyAt"))
        first = {p for t, p in logged_site.log if t < painted}
        assert "first-tables.json" in first and "runtime/micropython/micropython.wasm" in first
        early = sorted(p for p in first if _engine(p, snapshot) or _later(p))
        assert early == [], f"fetched before the table was drawn: {early}"
        # Every file the first paint fetches is announced at the top of the page (sitebuild/preload.py),
        # so the browser asks for all of them at once, and each is fetched once: the hint's fetch is the
        # one the page uses (same mode), never a second download.
        hinted = set(page.evaluate(PRELOADED_JS))
        unannounced = sorted(first - hinted - WORKER_FILES - {"", "first-tables.json", "favicon.svg"})
        assert unannounced == [], f"fetched for the first paint without a hint: {unannounced}"
        # (A file the worker fetches too may be fetched by it before or after the paint, as the
        # machine's load has it: once or twice then. An image hint, the card back, is fetched when
        # the browser's scheduler sees fit, which on a busy machine can be just after the paint:
        # its one fetch is counted up to the moment the player may act.)
        counts = {p: sum(1 for t, q in logged_site.log if q == p and t < ready) for p in hinted}
        twice = sorted(p for p, n in counts.items() if not (1 <= n <= 1 + (p in WORKER_FILES)))
        assert twice == [], f"not fetched exactly once by the page before the player could act: {counts}"
        early = sorted({p for t, p in logged_site.log if t < ready and _later(p)})
        assert early == [], f"fetched before the player could act: {early}"
        late = {p for t, p in logged_site.log if t >= ready}
        assert {"rules.html", "sw.js", "locales/fr.json"} <= late, late
        # The build's snapshot, downloaded once (by the engine; the service worker took its copy).
        assert logged_site.fetched(snapshot) == 1
        assert snapshot in cached_paths(page)
        guard.check()


def test_saving_data_skips_the_build_snapshot_and_the_next_visit_is_fast(
    chromium_browser: Browser, logged_site: LoggingServer
) -> None:
    snapshot = _snapshot_path(logged_site)
    with guarded_page(chromium_browser, logged_site, DESKTOP) as (page, guard):
        page.add_init_script(SAVE_DATA_JS)
        assert visit(page, logged_site, f"seed=3&{TEST_QUERY}") == "boot"
        assert page.evaluate("navigator.connection.saveData") is True
        assert stored(page) == "stored"
        wait_offline_ready(page)
        assert page.evaluate(SNAPSHOT_RELEASES_JS) == [release(logged_site)]
        before = g.table_snapshot(page)
        assert visit(page, logged_site) == "snapshot"  # the engine's own snapshot
        assert g.table_snapshot(page) == before
        assert logged_site.fetched(snapshot) == 0
        cached = cached_paths(page)
        assert snapshot not in cached and "rules.html" in cached
        guard.check()


def test_a_slow_link_skips_the_build_snapshot_and_the_engine_makes_its_own(
    chromium_browser: Browser, logged_site: LoggingServer
) -> None:
    """A visit on a 2G link; the page's rule reads the other slow link the same way (each link's
    verdict: tests/test_link_rule.py, web/link.js run in Node)."""
    snapshot = _snapshot_path(logged_site)
    with guarded_page(chromium_browser, logged_site, DESKTOP) as (page, guard):
        page.add_init_script(_connection_js(SLOW_LINK_JS["2g"]))
        assert visit(page, logged_site, f"seed=3&{TEST_QUERY}") == "boot"
        assert page.evaluate("navigator.connection.saveData") is False
        for link, connection in SLOW_LINK_JS.items():
            assert page.evaluate(f"gongzhuLink.lean({{ connection: {connection} }})") is True, link
        assert stored(page) == "stored"  # the engine's own snapshot, made after its boot
        wait_offline_ready(page)  # the rest of the site is cached all the same
        assert page.evaluate(SNAPSHOT_RELEASES_JS) == [release(logged_site)]
        assert visit(page, logged_site) == "snapshot"
        assert logged_site.fetched(snapshot) == 0
        cached = cached_paths(page)
        assert snapshot not in cached and "rules.html" in cached
        guard.check()


def test_the_loading_screen_counts_the_download_in_the_players_language(
    chromium_browser: Browser, site: build.SiteServer
) -> None:
    # On loopback the build's snapshot usually pays: the download is its own and Pyodide's files. The
    # page decides from its measure of the link, which a loaded machine can make slow even on loopback:
    # then it boots, and counts a boot's download. Either way it counts the download it makes.
    config = json.loads((site.directory / build.WORKER_CONFIG_SHIPPED).read_text(encoding="utf-8"))
    totals = {int(config["snapshot"]["download"]), int(config["download"])}
    with guarded_page(chromium_browser, site, DESKTOP) as (page, guard):
        page.add_init_script(WATCH_JS)
        page.goto(site.url + f"?seed=3&{TEST_QUERY}&lang=fr")
        g.settle(page)
        texts: list[str] = page.evaluate("window.__downloadTexts")
        download = page.evaluate("gongzhuBoot.download")
        total = download["total"]
        assert total in totals and download == {"received": total, "total": total}, (download, totals)
        total_text = f"{total / 1e6:.1f}".replace(".", ",")
        counted = [
            t
            for t in texts
            if t.startswith("Téléchargement du jeu : ") and t.endswith(f"sur {total_text} Mo")
        ]
        assert counted, texts
        assert texts[-1] == "Démarrage du moteur de jeu…", texts
        assert page.is_hidden("[data-testid=load-progress]")
        guard.check()
