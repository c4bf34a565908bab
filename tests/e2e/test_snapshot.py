"""Instant start: a first visit boots the engine and makes its memory snapshot itself (never
downloading the build's: on a phone's link it costs more than the boot), the engine worker keeps it
(Cache Storage, ``engine-snapshot``, under the engine release) and a repeat visit restores that. The
build's snapshot (shipped gzipped, named in ``engine-worker.json``) is restored when the service
worker has cached it and none of this release is stored. Every fault falls back with nothing lost: a
stored snapshot that is missing or from another release to the cached build's one; one whose bytes
are not the ones whose SHA-256 was stored with them (64 bytes flipped), or that is rejected by
Pyodide, a cached build's one that is missing or of other bytes, to a normal boot, which stores a
good one in its place; storage that is full or disabled to a boot, every visit. A release update
drops the old snapshot, and restored sessions deal different matches. (The other faults found before
Pyodide sees the bytes, a stored snapshot cut short or without its digest and the build's cut
short, are read by the same code, web/engine-boot.mjs, and each is told apart in Node:
tests/test_snapshot_digest.py.)
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, Playwright

import build
from tools.browser import TEST_QUERY

from . import game as g
from .conftest import (
    BOOT_TIMEOUT_MS,
    CHROMIUM,
    CHROMIUM_ARGS,
    DESKTOP,
    NO_STALL_JS,
    guarded_page,
    performance_marks,
)
from .test_offline import wait_offline_ready

#: The service worker's precache and the repeat visits it controls are part of what is tested here.
pytestmark = pytest.mark.service_worker

CACHE = "engine-snapshot"
SAVE_KEY = "gongzhu.save.v1"
#: How an engine without a stored snapshot starts when the service worker has the build's.
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


def visit(page: Page, site: build.SiteServer, query: str = TEST_QUERY) -> str:
    """Open the game, wait until the engine has answered and the player may act; how it started."""
    page.goto(site.url + "?" + query)
    assert g.settle(page, 3 * BOOT_TIMEOUT_MS) in (
        "expose",
        "play",
    )  # (a cold boot on a shared, busy machine)
    assert page.get_attribute("html", "data-engine") == "ready"
    return str(page.evaluate("gongzhuEngine.boot"))


def stored(page: Page) -> str:
    """Wait for this boot's snapshot to be stored (or refused); the outcome."""
    page.wait_for_function("gongzhuEngine.snapshot !== ''")
    return str(page.evaluate("gongzhuEngine.snapshot"))


def first_visit(page: Page, site: build.SiteServer) -> None:
    """A whole first visit: on loopback (a fast link) the engine fetches and restores the build's
    snapshot, and stores it as its own for the next visits; the service worker caches the site, the
    build's snapshot included (handed over by the engine's download)."""
    assert visit(page, site, f"seed=7&{TEST_QUERY}") == SHIPPED
    assert stored(page) == "stored"
    assert page.evaluate(SNAPSHOT_RELEASES_JS) == [release(site)]
    wait_offline_ready(page)


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
    # A repeat visit's worker may read its snapshot while the UI starts, but restores it only once
    # the saved table is painted (web/engine.js): the restore never delays the paint.
    marks = performance_marks(page)
    assert marks["table-painted"] <= marks["worker-go"], marks
    if g.settle(page) == "expose":
        g.expose_none(page)
    g.play_first(page)
    assert g.settle(page) in ("play", "hand-over")
    # Two new matches (no save, no seed) from the same snapshot deal different hands. (At another
    # level than the default: a start under the default settings draws one of the build's prepared
    # tables, which is not a deal of the restored engine.)
    g.menu_select(page, "difficulty", "easy")
    hands = []
    for _ in range(2):
        page.evaluate(f"localStorage.removeItem('{SAVE_KEY}')")
        assert visit(page, site) == "snapshot"
        hands.append(g.hand(page))
    assert len(hands[0]) == len(hands[1]) == 13
    assert hands[0] != hands[1]


DAMAGE = {
    # Complete, well-formed bytes that are not a Pyodide snapshot (wrong magic number), stored with
    # their own digest: Pyodide itself refuses them.
    "rejected": """async ([name, key]) => {
      const cache = await caches.open(name);
      const bytes = new Uint8Array(1 << 20).fill(7);
      const digest = [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))]
        .map((b) => b.toString(16).padStart(2, '0')).join('');
      const headers = { 'X-Snapshot-Bytes': String(1 << 20), 'X-Snapshot-SHA256': digest };
      await cache.put(key, new Response(bytes, { headers }));
    }""",
    # 64 scattered bytes flipped under the original headers (a disk fault, a tampered cache): the
    # same length, a snapshot Pyodide would restore, but not the bytes whose digest was stored.
    "flipped": """async ([name, key]) => {
      const cache = await caches.open(name);
      const hit = await cache.match(key);
      const bytes = new Uint8Array(await hit.arrayBuffer());
      const step = Math.floor(bytes.length / 64);
      for (let i = 0; i < 64; i++) bytes[i * step + 12345 % step] ^= 0xff;
      await cache.put(key, new Response(bytes, { headers: hit.headers }));
    }""",
    # Only another release's snapshot (e.g. left by an update): never used, and dropped; this release's
    # is missing, so the build's is restored (the case of a missing snapshot, and one more).
    "other-release": """async ([name, key]) => {
      const cache = await caches.open(name);
      const snapshot = await cache.match(key);
      await cache.delete(key);
      await cache.put(key.replace(/[^/]+$/, '0123456789abcdef'), snapshot);
    }""",
}


#: The stored snapshot's faults found before Pyodide sees it: what the boot says of each.
UNREADABLE = {"flipped": "SHA-256 "}

#: The stored snapshot's length and digest headers, and the SHA-256 of its bytes.
STORED_DIGEST_JS = """async ([name, key]) => {
  const hit = await (await caches.open(name)).match(key);
  const bytes = await hit.arrayBuffer();
  const digest = [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))]
    .map((b) => b.toString(16).padStart(2, '0')).join('');
  return [hit.headers.get('X-Snapshot-Bytes'), hit.headers.get('X-Snapshot-SHA256'), bytes.byteLength, digest];
}"""


def test_damaged_snapshot_falls_back_to_a_normal_boot(desktop_page: Page, site: build.SiteServer) -> None:
    """Each fault of :data:`DAMAGE` in turn, on one page: each visit after one boots as it should and
    stores a good snapshot again (its length and digest checked), the state the next fault starts
    from; the last one stored is restored."""
    page = desktop_page
    first_visit(page, site)
    before = g.table_snapshot(page)
    key = page.evaluate(f"new URL('./engine-snapshot/{release(site)}', location.href).href")
    for fault in sorted(DAMAGE):
        page.evaluate(DAMAGE[fault], [CACHE, key])
        how = visit(page, site)
        assert g.table_snapshot(page) == before, fault  # nothing lost: the saved hand resumed
        if fault in UNREADABLE:
            # A damaged snapshot is not worth the shipped one's gunzip: a boot, and the reason is reported.
            assert how.startswith(f"boot (snapshot unreadable: {UNREADABLE[fault]}"), (fault, how)
        elif fault == "rejected":
            assert how.startswith("boot (snapshot rejected"), (fault, how)
        else:  # no snapshot of this release stored: the build's, cached by the service worker
            assert how == SHIPPED, (fault, how)
        # A good snapshot is stored again, the only one, and the next visit uses it.
        assert stored(page) == "stored", fault
        assert page.evaluate(SNAPSHOT_RELEASES_JS) == [release(site)], fault
        length, digest, size, found = page.evaluate(STORED_DIGEST_JS, [CACHE, key])
        assert (int(length), digest) == (size, found), fault  # replaced whole, with its length and SHA-256
    # The last one stored is restored by the next visit (as any stored snapshot:
    # test_repeat_visit_restores_and_restored_sessions_deal_different_matches), the hand as it was.
    assert visit(page, site) == "snapshot"
    assert g.table_snapshot(page) == before


#: Damage done to the build's snapshot in the service worker's cache (its gzipped file), with this
#: release's stored snapshot gone: each makes the visit boot normally, saying why.
SHIPPED_DAMAGE = {
    "missing": (
        "async (key) => { for (const n of await caches.keys()) await (await caches.open(n)).delete(key); }",
        "boot",
    ),
    # Well-formed gzip of the right length, but other bytes than the build's (not even a Pyodide
    # snapshot): refused by the build's SHA-256 before Pyodide sees them.
    "replaced": (
        """async ([key, bytes]) => {
          for (const n of await caches.keys()) {
            const cache = await caches.open(n);
            const hit = await cache.match(key);
            if (!hit) continue;
            const zipped = new Response(new Blob([new Uint8Array(bytes).fill(7)]).stream()
              .pipeThrough(new CompressionStream('gzip')));
            await cache.put(key, new Response(await zipped.blob(), { headers: hit.headers }));
          }
        }""",
        "boot (shipped snapshot unreadable: SHA-256 ",
    ),
}


#: Keeps a copy of the service worker's cached build snapshot (``[key, copy key]``), or puts it back.
KEEP_SHIPPED_JS = """async ([key, copy]) => {
  for (const n of await caches.keys()) {
    const cache = await caches.open(n);
    const hit = await cache.match(key);
    if (hit) await cache.put(copy, hit);
  }
}"""
RESTORE_SHIPPED_JS = """async ([key, copy]) => {
  for (const n of await caches.keys()) {
    const cache = await caches.open(n);
    const kept = await cache.match(copy);
    if (kept) { await cache.put(key, kept); await cache.delete(copy); }
  }
}"""


def test_a_damaged_cached_shipped_snapshot_falls_back_to_a_normal_boot(
    desktop_page: Page, site: build.SiteServer
) -> None:
    """Each fault of :data:`SHIPPED_DAMAGE` in turn, on one page, with this release's stored snapshot
    gone; the build's cached snapshot is put back between two faults. Each boot stores a good snapshot
    of its own; the last one stored is restored by the next visit."""
    page = desktop_page
    first_visit(page, site)
    before = g.table_snapshot(page)
    snapshot = worker_config(site)["snapshot"]
    key = page.evaluate(f"new URL({json.dumps(snapshot['url'])}, location.href).href")
    copy = key + "?kept-by-the-test"
    assert page.evaluate("async (key) => !!(await caches.match(key))", key), "the service worker cached it"
    for fault in sorted(SHIPPED_DAMAGE):
        page.evaluate(KEEP_SHIPPED_JS, [key, copy])
        page.evaluate(
            f"async () => (await caches.open('{CACHE}')).delete(new URL('./engine-snapshot/{release(site)}', location.href).href)"
        )
        damage, reason = SHIPPED_DAMAGE[fault]
        page.evaluate(damage, [key, snapshot["bytes"]] if fault == "replaced" else key)
        how = visit(page, site)
        assert how.startswith(reason), (fault, how)
        assert g.table_snapshot(page) == before, fault  # nothing lost: the saved hand resumed
        assert stored(page) == "stored", fault  # the boot stores its own snapshot
        page.evaluate(RESTORE_SHIPPED_JS, [key, copy])
    assert visit(page, site) == "snapshot"
    assert g.table_snapshot(page) == before


def test_full_storage_starts_every_time_and_plays(desktop_page: Page, site: build.SiteServer) -> None:
    page = desktop_page
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(site.url))
    cdp = page.context.new_cdp_session(page)
    cdp.send("Storage.overrideQuotaForOrigin", {"origin": origin, "quotaSize": 1_000_000})
    assert visit(page, site, f"seed=9&{TEST_QUERY}") == SHIPPED  # (a fast link: fetched, not stored)
    assert stored(page).startswith("not stored"), page.evaluate("gongzhuEngine.snapshot")
    assert page.evaluate(SNAPSHOT_RELEASES_JS) == []
    if g.settle(page) == "expose":
        g.expose_none(page)
    g.play_first(page)
    g.settle(page)
    before = g.table_snapshot(page)
    assert visit(page, site) == SHIPPED
    assert g.table_snapshot(page) == before


def test_disabled_storage_boots_every_time_and_plays(
    playwright_instance: Playwright, site: build.SiteServer
) -> None:
    """An insecure origin has neither Cache Storage nor service workers: a boot, every time (nothing
    can be stored, and the build's snapshot is never downloaded for a boot)."""
    host = "gongzhu-insecure.test"
    args = [*CHROMIUM_ARGS, f"--host-resolver-rules=MAP {host} 127.0.0.1"]
    browser = playwright_instance.chromium.launch(executable_path=CHROMIUM, args=args)
    try:
        page = browser.new_page(**DESKTOP)
        page.set_default_timeout(BOOT_TIMEOUT_MS)
        page.add_init_script(NO_STALL_JS)  # (a browser of its own: the fixture's contexts set it)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        url = site.url.replace("127.0.0.1", host)
        page.goto(url + f"?seed=4&{TEST_QUERY}")
        assert page.evaluate("isSecureContext") is False
        assert page.evaluate("typeof caches") == "undefined"
        assert g.settle(page) in ("expose", "play")
        assert page.evaluate("gongzhuEngine.boot") == "boot"
        before = g.table_snapshot(page)
        page.goto(url + f"?{TEST_QUERY}")
        assert g.settle(page) in ("expose", "play")
        assert page.evaluate("gongzhuEngine.boot") == "boot"
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
