"""Instant start: a first visit restores the build's memory snapshot of the booted engine (shipped
gzipped, named in ``engine-worker.json``), the engine worker keeps it (Cache Storage,
``engine-snapshot``, under the engine release) and a repeat visit restores that. Every fault falls
back with nothing lost: a stored snapshot that is missing or from another release to the shipped one;
one that is truncated or rejected by Pyodide, a shipped one that is missing, truncated or rejected,
to a normal boot; storage that is full or disabled to the shipped one, every visit. A release update
drops the old snapshot, and restored sessions deal different matches.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, Playwright

import build

from . import game as g
from .conftest import BOOT_TIMEOUT_MS, CHROMIUM, CHROMIUM_ARGS, DESKTOP, guarded_page, performance_marks
from .test_offline import wait_offline_ready

CACHE = "engine-snapshot"
SAVE_KEY = "gongzhu.save.v1"
#: How a first visit's engine starts: from the build's snapshot.
SHIPPED = "snapshot (shipped)"
#: The releases the snapshot cache holds a snapshot for.
SNAPSHOT_RELEASES_JS = f"""async () => {{
  const cache = await caches.open('{CACHE}');
  return (await cache.keys()).map(r => r.url.split('/').pop()).sort();
}}"""


def worker_config(site: build.SiteServer) -> dict[str, Any]:
    config: dict[str, Any] = json.loads(
        (site.directory / build.WORKER_CONFIG_SHIPPED).read_text(encoding="utf-8")
    )
    return config


def release(site: build.SiteServer) -> str:
    return str(worker_config(site)["release"])


def shipped_snapshot(site: build.SiteServer) -> Path:
    """The build's snapshot of the engine, as served."""
    return site.directory / str(worker_config(site)["snapshot"]["url"]).removeprefix("./")


def visit(page: Page, site: build.SiteServer, query: str = "fast=1") -> str:
    """Open the game, wait until the engine has answered and the player may act; how it started."""
    page.goto(site.url + "?" + query)
    assert g.settle(page) in ("expose", "play")
    assert page.get_attribute("html", "data-engine") == "ready"
    return str(page.evaluate("gongzhuEngine.boot"))


def stored(page: Page) -> str:
    """Wait for this boot's snapshot to be stored (or refused); the outcome."""
    page.wait_for_function("gongzhuEngine.snapshot !== ''")
    return str(page.evaluate("gongzhuEngine.snapshot"))


def first_visit(page: Page, site: build.SiteServer) -> None:
    """A first visit restores the build's snapshot, and stores it for the next visits."""
    assert visit(page, site, "seed=7&fast=1") == SHIPPED
    assert stored(page) == "stored"
    assert page.evaluate(SNAPSHOT_RELEASES_JS) == [release(site)]


def test_repeat_visit_restores_and_restored_sessions_deal_different_matches(
    desktop_page: Page, site: build.SiteServer
) -> None:
    page = desktop_page
    first_visit(page, site)
    wait_offline_ready(page)  # a service worker controls the next visits: they are repeat visits
    # The saved hand resumes on the restored engine, which plays on.
    before = g.hand(page)
    assert visit(page, site) == "snapshot"
    assert g.hand(page) == before
    # A repeat visit creates its worker once the saved table is painted (web/engine.js).
    marks = performance_marks(page)
    assert marks["worker-start"] > marks["table-painted"], marks
    if g.settle(page) == "expose":
        g.expose_none(page)
    g.play_first(page)
    assert g.settle(page) in ("play", "hand-over")
    # Two new matches (no save, no seed) from the same snapshot deal different hands.
    hands = []
    for _ in range(2):
        page.evaluate(f"localStorage.removeItem('{SAVE_KEY}')")
        assert visit(page, site) == "snapshot"
        hands.append(g.hand(page))
    assert len(hands[0]) == len(hands[1]) == 13
    assert hands[0] != hands[1]


DAMAGE = {
    # Half the stored bytes under the original headers (a write cut short): fewer bytes than stored.
    "truncated": """async ([name, key]) => {
      const cache = await caches.open(name);
      const hit = await cache.match(key);
      const bytes = await hit.arrayBuffer();
      await cache.put(key, new Response(bytes.slice(0, bytes.byteLength >> 1), { headers: hit.headers }));
    }""",
    # Complete, well-formed bytes that are not a Pyodide snapshot (wrong magic number).
    "rejected": """async ([name, key]) => {
      const cache = await caches.open(name);
      const headers = { 'X-Snapshot-Bytes': String(1 << 20) };
      await cache.put(key, new Response(new Uint8Array(1 << 20).fill(7), { headers }));
    }""",
    # Only another release's snapshot (e.g. left by an update): never used, and dropped.
    "other-release": """async ([name, key]) => {
      const cache = await caches.open(name);
      const snapshot = await cache.match(key);
      await cache.delete(key);
      await cache.put(key.replace(/[^/]+$/, '0123456789abcdef'), snapshot);
    }""",
    "missing": """async ([name, key]) => { await (await caches.open(name)).delete(key); }""",
}


@pytest.mark.parametrize("fault", sorted(DAMAGE))
def test_damaged_snapshot_falls_back_to_a_normal_boot(
    desktop_page: Page, site: build.SiteServer, fault: str
) -> None:
    page = desktop_page
    first_visit(page, site)
    before = g.table_snapshot(page)
    key = page.evaluate(f"new URL('./engine-snapshot/{release(site)}', location.href).href")
    page.evaluate(DAMAGE[fault], [CACHE, key])

    how = visit(page, site)
    assert g.table_snapshot(page) == before  # nothing lost: the saved hand resumed
    if fault in ("truncated", "rejected"):
        # A damaged snapshot is not worth the shipped one's gunzip: a boot, and the reason is reported.
        assert how.startswith(f"boot (snapshot {'unreadable' if fault == 'truncated' else 'rejected'}"), how
    else:
        assert how == SHIPPED  # no snapshot of this release stored: the build's, as on a first visit
    # A good snapshot is stored again, the only one, and the next visit uses it.
    assert stored(page) == "stored"
    assert page.evaluate(SNAPSHOT_RELEASES_JS) == [release(site)]
    assert visit(page, site) == "snapshot"
    assert g.table_snapshot(page) == before


#: Damage done to the build's snapshot as the site serves it (its gzipped file): each makes a first
#: visit boot normally, saying why.
SHIPPED_DAMAGE = {
    "missing": (lambda data: None, "boot (shipped snapshot unreadable: HTTP 404"),
    "truncated": (lambda data: data[: len(data) // 2], "boot (shipped snapshot unreadable"),
    # Well-formed, of the right length, but not a Pyodide snapshot (wrong magic number).
    "rejected": (
        lambda data: gzip.compress(bytes([7]) * len(gzip.decompress(data)), mtime=0),
        "boot (shipped snapshot rejected: ",
    ),
}


@pytest.mark.parametrize("fault", sorted(SHIPPED_DAMAGE))
def test_a_damaged_shipped_snapshot_falls_back_to_a_normal_boot(
    chromium_browser: Browser, copy_site: build.SiteServer, fault: str
) -> None:
    damage, reason = SHIPPED_DAMAGE[fault]
    path = shipped_snapshot(copy_site)
    data = damage(path.read_bytes())
    if data is None:
        path.unlink()
    else:
        path.write_bytes(data)
    with guarded_page(chromium_browser, copy_site, {**DESKTOP, "service_workers": "block"}) as (page, guard):
        how = visit(page, copy_site, "seed=5&fast=1")
        assert how.startswith(reason), how
        # The boot stores its own snapshot, which the next visit restores: the saved hand resumes.
        assert stored(page) == "stored"
        before = g.table_snapshot(page)
        assert visit(page, copy_site) == "snapshot"
        assert g.table_snapshot(page) == before
        expected = f"HTTP 404: {copy_site.url}{path.relative_to(copy_site.directory).as_posix()}"
        assert [p for p in guard.problems if p != expected] == []


def test_full_storage_restores_the_shipped_snapshot_every_time_and_plays(
    desktop_page: Page, site: build.SiteServer
) -> None:
    page = desktop_page
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(site.url))
    cdp = page.context.new_cdp_session(page)
    cdp.send("Storage.overrideQuotaForOrigin", {"origin": origin, "quotaSize": 1_000_000})
    assert visit(page, site, "seed=9&fast=1") == SHIPPED
    assert stored(page).startswith("not stored"), page.evaluate("gongzhuEngine.snapshot")
    assert page.evaluate(SNAPSHOT_RELEASES_JS) == []
    if g.settle(page) == "expose":
        g.expose_none(page)
    g.play_first(page)
    g.settle(page)
    before = g.table_snapshot(page)
    assert visit(page, site) == SHIPPED
    assert g.table_snapshot(page) == before


def test_disabled_storage_restores_the_shipped_snapshot_every_time_and_plays(
    playwright_instance: Playwright, site: build.SiteServer
) -> None:
    """An insecure origin has neither Cache Storage nor service workers: the build's snapshot, every
    time (nothing can be stored)."""
    host = "gongzhu-insecure.test"
    args = [*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {host} 127.0.0.1"]
    browser = playwright_instance.chromium.launch(executable_path=CHROMIUM, args=args)
    try:
        page = browser.new_page(**DESKTOP)
        page.set_default_timeout(BOOT_TIMEOUT_MS)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        url = site.url.replace("127.0.0.1", host)
        page.goto(url + "?seed=4&fast=1")
        assert page.evaluate("isSecureContext") is False
        assert page.evaluate("typeof caches") == "undefined"
        assert g.settle(page) in ("expose", "play")
        assert page.evaluate("gongzhuEngine.boot") == SHIPPED
        before = g.table_snapshot(page)
        page.goto(url + "?fast=1")
        assert g.settle(page) in ("expose", "play")
        assert page.evaluate("gongzhuEngine.boot") == SHIPPED
        assert g.table_snapshot(page) == before
        assert errors == []
    finally:
        browser.close()


def test_engine_update_drops_the_old_snapshot(chromium_browser: Browser, copy_site: build.SiteServer) -> None:
    with guarded_page(chromium_browser, copy_site, DESKTOP) as (page, guard):
        first_visit(page, copy_site)
        old = release(copy_site)
        wait_offline_ready(page)

        # Release B changes the engine: a new engine release, a new service worker.
        rules = copy_site.directory / "gongzhu" / "rules.py"
        rules.write_text(rules.read_text(encoding="utf-8") + "\n# release B\n", encoding="utf-8")
        engine_files = sorted(
            p.relative_to(copy_site.directory).as_posix()
            for p in (copy_site.directory / "gongzhu").rglob("*.py")
        )
        build.add_engine_release(copy_site.directory, engine_files)
        build.write_service_worker(copy_site.directory)
        new = release(copy_site)
        assert new != old

        page.evaluate("gongzhuPWA.registration.update()")
        page.locator("[data-testid=update-ready]").wait_for(state="visible")
        with page.expect_navigation():
            page.click("[data-testid=update-reload]")
        assert g.settle(page) in ("expose", "play")
        page.wait_for_function("gongzhuEngine.boot !== ''")
        # The old snapshot is never used; the new release ships none here: a boot.
        assert page.evaluate("gongzhuEngine.boot") == "boot"
        assert stored(page) == "stored"
        assert page.evaluate(SNAPSHOT_RELEASES_JS) == [new]  # ... and is gone
        assert visit(page, copy_site) == "snapshot"
        guard.check()
