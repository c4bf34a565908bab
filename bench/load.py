#!/usr/bin/env python3
"""Load times of the game, cold and warm, against a bare Pyodide boot measured in the same run.

    python bench/load.py [--runs 5] [--no-build | --engine-as wheel] [--json results.json]
    python bench/load.py --compare before=/tmp/dist-main after=/tmp/dist-branch [--visits 12]
    python bench/load.py --mbps 2 --rtt-ms 150 [--runs 3] [--no-build | --dist NAME=DIR ... | --engine-as wheel modules]

Playwright drives Debian's headless Chromium (``/usr/bin/chromium``, flags of the e2e tests) on
127.0.0.1. Each run, interleaved so that machine noise hits both alike:

* **game, cold**: a fresh browser context (empty HTTP cache, no service worker, no save) opens
  ``?seed=N``; the engine boots and makes its own snapshot; the visit ends once
  the table is interactive, the service worker controls the page (the whole site is cached) and the
  engine has stored its memory snapshot;
* **game, warm**: a new page in the same context (service worker + cache, the engine's memory
  snapshot and the autosave of the cold visit) opens the site again: the saved table is drawn,
  and the engine restores its snapshot;
* **bare Pyodide, cold / warm**: a page of the bench's own, on a server of its own (so no service
  worker), that only boots Pyodide as the site ships it (the same ``pyodide.mjs``, wasm and trimmed
  standard library, copied from the built site) in a module worker and runs ``1 + 1``.

Measured per visit: first contentful paint, ``gongzhu:table-painted`` (the table on screen),
``gongzhu:table-ready`` (the engine has answered and the table is interactive: the player can
act), bytes the server sent (service worker fetches included; also as a host that gzips would
send them: headers as sent, each body gzipped at level 6), and the longest main-thread task
(``PerformanceObserver`` ``longtask``). The report gives medians and the ratios that hold on a
noisy machine: game interactive / bare Pyodide ready, cold and warm.

``--mbps M --rtt-ms R`` measures first visits over a phone's link instead: both sites are served
by :class:`ThrottledServer` (one shared link of M Mbit/s for every request, R ms added to each
request and to each new connection, compressible files gzipped on the fly as static hosts do; not
DevTools emulation, which a service worker or a dedicated worker can bypass; ``--mbps 1000
--rtt-ms 0`` stands for loopback). Each run, interleaved: a cold game visit with no link (a first
visit: the build's prepared table is drawn) until the player's hand is drawn (``gongzhu:table-
painted``) and until the player may act (``gongzhu:table-ready``), then a cold bare Pyodide boot.
It reports the times, their ratios to the bare boot, the bytes sent before each and how they split
by file. ``--dist NAME=DIR`` (repeatable) measures built sites side by side in the same runs;
``--engine-as wheel modules`` builds the site with the engine as its wheel (installed by micropip)
and as its module files, and measures both. The bare boot ships the smallest standard library of
the sites measured.

``--compare NAME=DIST ...`` compares built sites (``build.build(path)``) instead: one cold visit of
each fills its cache and stores its snapshot, then their repeat visits alternate (ABAB, then BABA)
so that machine noise hits them alike. It prints each step's median per build and the medians of
per-visit differences between steps, which hold better than the times themselves: MicroPython's
own start (``ui-ready``) varies by ±50 ms from one visit to the next on a 2-core machine, and every
later step with it.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import json
import shutil
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright  # noqa: E402

import build  # noqa: E402
from tools.browser import CHROMIUM, CHROMIUM_ARGS, LONG_TASK_OBSERVER, PHONE  # noqa: E402

PREFIX = "/gongzhu/"
TIMEOUT_MS = 120_000

BARE_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>bare Pyodide</title></head>
<body><p id="status">booting Pyodide…</p>
<script type="module">
  performance.mark("bare:start");
  const worker = new Worker("./bare-worker.js", { type: "module" });
  worker.onmessage = (event) => {
    performance.mark("bare:ready");
    document.getElementById("status").textContent = "Pyodide ready: 1 + 1 = " + event.data;
    document.documentElement.dataset.ready = "1";
  };
</script></body></html>
"""
BARE_WORKER = """import { loadPyodide } from "./runtime/pyodide/pyodide.mjs";
const pyodide = await loadPyodide({ indexURL: new URL("./runtime/pyodide/", location.href).href });
postMessage(String(pyodide.runPython("1 + 1")));
"""

GAME_DONE_JS = """() => performance.getEntriesByName('gongzhu:table-ready').length > 0
  || document.documentElement.dataset.phase === 'error'"""
SW_CONTROLS_JS = """async () => {
  if (!('serviceWorker' in navigator)) return false;
  await navigator.serviceWorker.ready;
  if (!navigator.serviceWorker.controller)
    await new Promise(r => navigator.serviceWorker.addEventListener('controllerchange', r, {once: true}));
  return true;
}"""
TIMINGS_JS = """() => {
  const out = {};
  for (const e of performance.getEntriesByType('mark')) out[e.name] = e.startTime;
  for (const e of performance.getEntriesByType('paint')) out[e.name] = e.startTime;
  const tasks = window.__gongzhuLongTasks || [];
  out.longest_task = tasks.reduce((m, t) => Math.max(m, t.duration), 0);
  return out;
}"""


# --------------------------------------------------------------------------- byte-counting server


class _CountingWriter:
    """The handler's output stream, counting the bytes written (headers and bodies)."""

    def __init__(self, raw: Any, server: CountingServer):
        self._raw = raw
        self._server = server

    def write(self, data: bytes) -> int:
        self._server.add_bytes(len(data))
        return int(self._raw.write(data))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._raw, name)


class CountingServer(build.SiteServer):
    """:class:`build.SiteServer` that counts the bytes it sends (``bytes_sent``, ``reset()``)."""

    def __init__(self, directory: Path, prefix: str = PREFIX):
        super().__init__(directory, prefix)
        self.bytes_sent = 0
        self.requests = 0
        self.files: list[str] = []  # the files whose bodies were sent, one entry per response
        self._lock = threading.Lock()
        base = self.RequestHandlerClass
        assert isinstance(base, functools.partial)
        server = self

        class Counting(base.func):  # type: ignore[name-defined,misc]
            def setup(self) -> None:
                super().setup()
                self.wfile: Any = _CountingWriter(self.wfile, server)
                with server._lock:
                    server.requests += 1

            def copyfile(self, source: Any, outputfile: Any) -> None:
                with server._lock:
                    server.files.append(str(source.name))
                super().copyfile(source, outputfile)

        self.RequestHandlerClass = functools.partial(Counting, *base.args, **base.keywords)

    def add_bytes(self, n: int) -> None:
        with self._lock:
            self.bytes_sent += n

    def reset(self) -> tuple[int, int, list[str]]:
        """``(bytes, requests, files served)`` since the last reset."""
        with self._lock:
            result = (self.bytes_sent, self.requests, self.files)
            self.bytes_sent = 0
            self.requests = 0
            self.files = []
        return result


@functools.cache
def _file_sizes(path: str) -> tuple[int, int]:
    """A file's size, raw and gzipped (level 6, as a static host compresses on the fly)."""
    data = Path(path).read_bytes()
    return len(data), len(gzip.compress(data, compresslevel=6))


def serve(directory: Path) -> CountingServer:
    server = CountingServer(directory)
    threading.Thread(target=server.serve_forever, name="bench-server", daemon=True).start()
    return server


# --------------------------------------------------------------------------- throttled link

#: What a static host gzips on the fly (GitHub Pages: text, JSON, JavaScript, SVG and wasm); zip
#: and gzip files are sent as they are.
COMPRESSIBLE = frozenset(
    {".html", ".js", ".mjs", ".css", ".json", ".svg", ".py", ".wasm", ".webmanifest", ".txt"}
)
CHUNK = 16_384


class Link:
    """One shared link: every chunk of every response waits for its turn at ``mbps``."""

    def __init__(self, mbps: float, rtt_ms: float):
        self.bytes_per_s = mbps * 1e6 / 8
        self.rtt_s = rtt_ms / 1000
        self._free_at = 0.0
        self._lock = threading.Lock()

    def send(self, n: int) -> None:
        with self._lock:
            start = max(time.monotonic(), self._free_at)
            self._free_at = start + n / self.bytes_per_s
            until = self._free_at
        time.sleep(max(0.0, until - time.monotonic()))

    def round_trip(self) -> None:
        time.sleep(self.rtt_s)


@functools.cache
def _gzipped(path: str, mtime_ns: int) -> bytes:
    return gzip.compress(Path(path).read_bytes(), compresslevel=6, mtime=0)


class ThrottledServer(build.SiteServer):
    """:class:`build.SiteServer` behind one :class:`Link`: HTTP/1.1 keep-alive (a new connection
    costs a round trip, as its handshake would), each request a round trip before its first byte,
    compressible files gzipped when the browser accepts it. Counts the bytes sent per file
    (headers included) since the last :meth:`take_counts`."""

    def __init__(self, directory: Path, link: Link, prefix: str = PREFIX):
        super().__init__(directory, prefix)
        self.link = link
        self.counts: dict[str, int] = {}
        self._lock = threading.Lock()
        base = self.RequestHandlerClass
        assert isinstance(base, functools.partial)
        server = self

        class Throttled(base.func):  # type: ignore[name-defined,misc]
            protocol_version = "HTTP/1.1"

            def setup(self) -> None:
                super().setup()
                # A response's headers and body are separate writes: with Nagle's algorithm on, the
                # body waits for the client's delayed ACK (about 40 ms on Linux) on every request, a
                # delay no real web server adds (they set TCP_NODELAY) and the link does not model.
                self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                server.link.round_trip()  # the connection's handshake

            rel = "(not a file)"  # what the bytes sent are counted for

            def do_GET(self) -> None:
                self.rel = "(not a file)"
                server.link.round_trip()
                if self._route():
                    self._send_file(head=False)

            def do_HEAD(self) -> None:
                self.rel = "(not a file)"
                server.link.round_trip()
                if self._route():
                    self._send_file(head=True)

            def _send_file(self, head: bool) -> None:
                path = Path(self.translate_path(self.path))
                if path.is_dir():
                    path = path / "index.html"
                if not path.is_file():
                    self.send_error(404, "File not found")
                    return
                gz = path.suffix in COMPRESSIBLE and "gzip" in self.headers.get("Accept-Encoding", "")
                body = _gzipped(str(path), path.stat().st_mtime_ns) if gz else path.read_bytes()
                self.send_response(200)
                self.send_header("Content-Type", self.guess_type(str(path)))
                self.send_header("Content-Length", str(len(body)))
                if gz:
                    self.send_header("Content-Encoding", "gzip")
                self.rel = path.relative_to(server.directory).as_posix()
                self.end_headers()
                if head:
                    return
                for start in range(0, len(body), CHUNK):
                    piece = body[start : start + CHUNK]
                    server.link.send(len(piece))
                    self.wfile.write(piece)
                    server.count(self.rel, len(piece))

            def flush_headers(self) -> None:
                sent = sum(len(line) for line in getattr(self, "_headers_buffer", []))
                server.link.send(sent)
                server.count(self.rel, sent)
                super().flush_headers()

        self.RequestHandlerClass = functools.partial(Throttled, *base.args, **base.keywords)

    def count(self, rel: str, n: int) -> None:
        with self._lock:
            self.counts[rel] = self.counts.get(rel, 0) + n

    def take_counts(self) -> dict[str, int]:
        with self._lock:
            counts, self.counts = self.counts, {}
        return counts


def serve_throttled(directory: Path, link: Link) -> ThrottledServer:
    server = ThrottledServer(directory, link)
    threading.Thread(target=server.serve_forever, name="bench-throttled", daemon=True).start()
    return server


# --------------------------------------------------------------------------- visits


def _new_context(browser: Browser) -> BrowserContext:
    options: dict[str, Any] = dict(PHONE)
    context = browser.new_context(**options)
    context.set_default_timeout(TIMEOUT_MS)
    context.add_init_script(LONG_TASK_OBSERVER)
    return context


def _visit_figures(
    page: Page, server: CountingServer, marks: dict[str, str], steps: bool = False
) -> dict[str, float]:
    """The figures every visit reports, plus ``marks`` (report key -> timing name) of its own, and
    with ``steps`` the marks of :data:`STEPS` that the visit has."""
    page.wait_for_timeout(300)  # long-task entries are delivered asynchronously
    t = page.evaluate(TIMINGS_JS)
    sent, requests, files = server.reset()
    figures = {key: t[name] for key, name in marks.items()}
    if steps:
        figures.update({f"step:{name}": t[f"gongzhu:{name}"] for name, _ in STEPS if f"gongzhu:{name}" in t})
    bodies = [_file_sizes(f) for f in files]
    # The same responses from a host that gzips: headers as sent, bodies compressed.
    figures["bytes_gzip"] = float(sent - sum(raw for raw, _ in bodies) + sum(gz for _, gz in bodies))
    figures["first_paint"] = t.get("first-contentful-paint", float("nan"))
    figures["longest_task"] = t["longest_task"]
    figures["bytes"] = float(sent)
    figures["requests"] = float(requests)
    return figures


#: Where a game visit's time goes: the page's and the engine worker's marks (``gongzhu:<name>``;
#: web/engine.js puts the worker's boot steps on the page's timeline as ``worker-<step>``).
STEPS: tuple[tuple[str, str], ...] = (
    ("worker-start", "engine worker running (web/engine-worker.js)"),
    ("worker-snapshot-found", "snapshot looked up in Cache Storage"),
    ("worker-go", "restore / boot may start"),
    ("worker-snapshot-read", "snapshot bytes read (stored; or the build's, downloaded and gunzipped)"),
    ("worker-snapshot-checked", "stored snapshot's SHA-256 checked"),
    ("worker-pyodide", "loadPyodide resolved"),
    ("worker-imported", "engine modules imported (a boot)"),
    ("worker-python", "ready to answer (a boot: snapshot made)"),
    ("ui-ready", "MicroPython runs ui/main.py"),
    ("ui-modules", "UI modules imported"),
    ("table-painted", "table painted"),
    ("engine-ready", "engine answered the page"),
    ("table-ready", "interactive"),
)


def game_visit(context: BrowserContext, server: CountingServer, url: str, cold: bool) -> dict[str, float]:
    server.reset()
    page = context.new_page()
    try:
        page.goto(url)
        page.wait_for_function(GAME_DONE_JS, timeout=TIMEOUT_MS)
        if page.evaluate("document.documentElement.dataset.phase") == "error":
            raise RuntimeError("game failed to start: " + str(page.text_content("#status")))
        if cold:  # the warm visit needs the whole site in the service worker's cache, and the snapshot
            page.evaluate(SW_CONTROLS_JS)
            page.wait_for_function("window.gongzhuEngine.snapshot !== ''", timeout=TIMEOUT_MS)
        how = str(page.evaluate("window.gongzhuEngine.boot"))
        marks = {"table_painted": "gongzhu:table-painted", "interactive": "gongzhu:table-ready"}
        figures = _visit_figures(page, server, marks, steps=True)
        figures["restored"] = float(how == "snapshot")  # the snapshot stored by an earlier visit
        figures["shipped"] = float(how == "snapshot (shipped)")  # the build's
        return figures
    finally:
        page.close()


def bare_visit(context: BrowserContext, server: CountingServer) -> dict[str, float]:
    server.reset()
    page = context.new_page()
    try:
        page.goto(server.url)
        page.wait_for_function("document.documentElement.dataset.ready === '1'", timeout=TIMEOUT_MS)
        return _visit_figures(page, server, {"ready": "bare:ready"})
    finally:
        page.close()


def make_bare_site(directory: Path, site: Path) -> None:
    """The bare Pyodide page, with Pyodide's files as the built ``site`` ships them (its trimmed
    standard library: a baseline is never made slower than the runtime the game loads)."""
    runtime = directory / "runtime" / "pyodide"
    runtime.mkdir(parents=True, exist_ok=True)
    _package, patterns, dest = next(r for r in build.RUNTIME_FILES if r[0] == "pyodide")
    for pattern in patterns:
        shutil.copyfile(site / dest / pattern, runtime / pattern)
    (directory / "index.html").write_text(BARE_HTML, encoding="utf-8")
    (directory / "bare-worker.js").write_text(BARE_WORKER, encoding="utf-8")


# --------------------------------------------------------------------------- report


def _median(rows: list[dict[str, float]], key: str) -> float:
    return float(statistics.median(r[key] for r in rows))


def _ms(value: float) -> str:
    return f"{value:,.0f} ms"


def _size(value: float) -> str:
    return f"{value / 1e6:,.2f} MB" if value >= 100_000 else f"{value / 1e3:,.1f} kB"


def report(results: dict[str, list[dict[str, float]]]) -> str:
    lines = [
        f"Medians over {len(results['game_cold'])} runs (phone viewport, headless Chromium, 127.0.0.1).",
        "",
        "| visit | first paint | table painted | interactive / ready | bytes sent | gzipped | longest task |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for key, label in (("game_cold", "game, cold (first visit)"), ("game_warm", "game, warm (repeat visit)")):
        rows = results[key]
        lines.append(
            f"| {label} | {_ms(_median(rows, 'first_paint'))} | {_ms(_median(rows, 'table_painted'))} | "
            f"{_ms(_median(rows, 'interactive'))} | {_size(_median(rows, 'bytes'))} | "
            f"{_size(_median(rows, 'bytes_gzip'))} | {_ms(_median(rows, 'longest_task'))} |"
        )
    for key, label in (("bare_cold", "bare Pyodide, cold"), ("bare_warm", "bare Pyodide, warm")):
        rows = results[key]
        lines.append(
            f"| {label} | {_ms(_median(rows, 'first_paint'))} | – | {_ms(_median(rows, 'ready'))} | "
            f"{_size(_median(rows, 'bytes'))} | {_size(_median(rows, 'bytes_gzip'))} | "
            f"{_ms(_median(rows, 'longest_task'))} |"
        )
    warm = [
        g["interactive"] / b["ready"] for g, b in zip(results["game_warm"], results["bare_warm"], strict=True)
    ]
    cold = [
        g["interactive"] / b["ready"] for g, b in zip(results["game_cold"], results["bare_cold"], strict=True)
    ]
    worst_task = max(r["longest_task"] for key in ("game_cold", "game_warm") for r in results[key])
    restored = sum(int(r.get("restored", 0)) for r in results["game_warm"])
    shipped = sum(int(r.get("shipped", 0)) for r in results["game_cold"])
    lines += [
        "",
        "| ratio / target | value | target |",
        "|---|---:|---|",
        f"| warm: game interactive / bare Pyodide ready (median of per-run ratios) | "
        f"{statistics.median(warm):.2f}× | ≤ 0.4× |",
        f"| warm: game interactive (median) | {_ms(_median(results['game_warm'], 'interactive'))} | "
        "< 1,000 ms (quiet machine) |",
        f"| warm: saved table painted (median) | {_ms(_median(results['game_warm'], 'table_painted'))} | "
        "< 500 ms |",
        f"| warm visits restored from the engine snapshot | {restored} / {len(results['game_warm'])} | all |",
        f"| cold visits restored from the build's snapshot | {shipped} / {len(results['game_cold'])} | "
        "all on loopback (a fast link: web/link.js snapshotPays) |",
        f"| cold: game interactive / bare Pyodide ready (median of per-run ratios) | "
        f"{statistics.median(cold):.2f}× | ≤ 1.15× |",
        f"| cold: table painted (median) | {_ms(_median(results['game_cold'], 'table_painted'))} | < 1,500 ms |",
        f"| longest main-thread task, any game visit | {_ms(worst_task)} | ≤ 200 ms |",
        "",
        "Where the time goes (median ms since navigation; – when the visit has no such step):",
        "",
        "| step | cold | warm |",
        "|---|---:|---:|",
    ]
    for name, label in STEPS:
        cells = []
        for key in ("game_cold", "game_warm"):
            values = [r[f"step:{name}"] for r in results[key] if f"step:{name}" in r]
            cells.append(f"{statistics.median(values):,.0f}" if values else "–")
        lines.append(f"| {label} (`{name}`) | {cells[0]} | {cells[1]} |")
    return "\n".join(lines)


# --------------------------------------------------------------------------- --mbps (first visit)


#: The game's table is on screen (a first visit: the build's prepared table, the player's hand).
PAINTED_JS = "() => performance.getEntriesByName('gongzhu:table-painted').length > 0"


def _first_visit(
    browser: Browser, server: ThrottledServer, url: str, done_js: str, painted_js: str | None = None
) -> dict[str, Any]:
    """One cold visit over ``server``'s link: milliseconds until ``done_js`` holds (marks of the
    page), and the bytes sent until then, per file; with ``painted_js``, also the bytes sent until
    it held (``files_painted``: what the first paint cost)."""
    time.sleep(0.5)  # what the previous visit left on the link drains
    server.take_counts()
    context = _new_context(browser)
    try:
        page = context.new_page()
        page.goto(url)
        painted: dict[str, int] = {}
        if painted_js:
            page.wait_for_function(painted_js, timeout=TIMEOUT_MS, polling=20)
            painted = server.take_counts()
        page.wait_for_function(done_js, timeout=TIMEOUT_MS, polling=20)
        counts = server.take_counts()
        for name, n in painted.items():
            counts[name] = counts.get(name, 0) + n
        if page.evaluate("document.documentElement.dataset.phase") == "error":
            raise RuntimeError("game failed to start: " + str(page.text_content("#status")))
        marks = page.evaluate(TIMINGS_JS)
        boot = page.evaluate("window.gongzhuEngine ? window.gongzhuEngine.boot : ''")
    finally:
        context.close()
    return {
        "marks": marks,
        "files": counts,
        "bytes": sum(counts.values()),
        "files_painted": painted,
        "bytes_painted": sum(painted.values()),
        "boot": boot,
    }


def first_visits(sites: list[tuple[str, Path]], mbps: float, rtt_ms: float, runs: int) -> dict[str, Any]:
    """``--mbps``: ``runs`` rounds of a cold visit of each site, then a bare Pyodide boot (of the
    runtime the sites ship, with the smallest standard library), all over one throttled link."""
    link = Link(mbps, rtt_ms)
    results: dict[str, Any] = {"mbps": mbps, "rtt_ms": rtt_ms, "sites": [n for n, _ in sites], "runs": []}
    with tempfile.TemporaryDirectory(prefix="gongzhu-bench-bare-") as tmp:
        # The bare boot ships the smallest standard library of the sites (the engine's, without what
        # micropip adds): a baseline is never made slower than any runtime measured against it.
        smallest = min(
            (d for _n, d in sites), key=lambda d: (d / "runtime/pyodide/python_stdlib.zip").stat().st_size
        )
        make_bare_site(Path(tmp), smallest)
        servers = {name: serve_throttled(dist, link) for name, dist in sites}
        bare_server = serve_throttled(Path(tmp), link)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                for run in range(runs):
                    row: dict[str, Any] = {}
                    order = [*servers.items()]
                    if run % 2:
                        order.reverse()
                    for name, server in order:
                        row[name] = _first_visit(browser, server, server.url, GAME_DONE_JS, PAINTED_JS)
                        row[name]["act"] = row[name]["marks"]["gongzhu:table-ready"]
                        row[name]["hand"] = row[name]["marks"]["gongzhu:table-painted"]
                    row["bare"] = _first_visit(browser, bare_server, bare_server.url, BARE_DONE_JS)
                    row["bare"]["act"] = row["bare"]["marks"]["bare:ready"]
                    results["runs"].append(row)
                    print(
                        f"run {run + 1}/{runs}: "
                        + "; ".join(
                            f"{key} {v['act']:,.0f} ms {_size(v['bytes'])}{' (' + v['boot'] + ')' if v['boot'] else ''}"
                            for key, v in row.items()
                        ),
                        file=sys.stderr,
                        flush=True,
                    )
                browser.close()
        finally:
            for server in (*servers.values(), bare_server):
                server.shutdown()
                server.server_close()
    return results


BARE_DONE_JS = "document.documentElement.dataset.ready === '1'"


def _split_table(runs: list[dict[str, Any]], name: str, key: str, title: str, more: str = "") -> list[str]:
    """The median bytes per file of ``runs``' ``name`` visits (their ``key``: bytes by file)."""
    files = sorted({f for r in runs for f in r[name][key]})
    split = {f: statistics.median(r[name][key].get(f, 0) for r in runs) for f in files}
    lines = ["", f"{title} (median bytes per file{more}):", "", "| file | bytes |", "|---|---:|"]
    return lines + [f"| `{f}` | {n:,.0f} |" for f, n in sorted(split.items(), key=lambda kv: -kv[1]) if n]


def first_visit_report(results: dict[str, Any], command: str) -> str:
    runs: list[dict[str, Any]] = results["runs"]
    lines = [
        f"First visit over {results['mbps']:g} Mbit/s, {results['rtt_ms']:g} ms round trip "
        f"(bench/load.py throttled server): medians of {len(runs)} interleaved runs.",
        f"`{command}`",
        "",
        "A first visit with no link (the build's prepared table): **hand drawn** is the first paint of the"
        " player's hand (`table-painted`), **engine ready** the moment the player's tap is carried out"
        " (`table-ready`); ratios to the bare Pyodide boot of the same run, median of the runs (min–max).",
        "",
        "| site | hand drawn | ratio | sent before it | engine ready | ratio | sent before it "
        "| bare Pyodide boot | sent |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    bare_act = statistics.median(r["bare"]["act"] for r in runs)
    bare_bytes = statistics.median(r["bare"]["bytes"] for r in runs)

    def ratio(name: str, key: str) -> str:
        values = [r[name][key] / r["bare"]["act"] for r in runs]
        return f"{statistics.median(values):.2f}× ({min(values):.2f}–{max(values):.2f})"

    for name in results["sites"]:
        lines.append(
            f"| {name} | {statistics.median(r[name]['hand'] for r in runs) / 1000:.1f} s | {ratio(name, 'hand')} | "
            f"{_size(statistics.median(r[name]['bytes_painted'] for r in runs))} | "
            f"{statistics.median(r[name]['act'] for r in runs) / 1000:.1f} s | {ratio(name, 'act')} | "
            f"{_size(statistics.median(r[name]['bytes'] for r in runs))} | {bare_act / 1000:.1f} s | "
            f"{_size(bare_bytes)} |"
        )
    lines += ["", "Where the time goes (median ms since navigation; – when the visit has no such step):", ""]
    lines += ["| step | " + " | ".join(results["sites"]) + " |", "|---|" + "---:|" * len(results["sites"])]
    for step, label in STEPS:
        cells = []
        for name in results["sites"]:
            values = [
                r[name]["marks"][f"gongzhu:{step}"] for r in runs if f"gongzhu:{step}" in r[name]["marks"]
            ]
            cells.append(f"{statistics.median(values):,.0f}" if values else "–")
        lines.append(f"| {label} (`{step}`) | " + " | ".join(cells) + " |")
    for name in results["sites"]:
        lines += _split_table(runs, name, "files_painted", f"Sent before the hand is drawn, {name}")
    for name in [*results["sites"], "bare"]:
        boots = sorted({r[name]["boot"] for r in runs if r[name]["boot"]})
        engine = f"; engine: {', '.join(boots)}" if boots else ""
        lines += _split_table(runs, name, "files", f"Sent before the player may act, {name}", engine)
    return "\n".join(lines)


# --------------------------------------------------------------------------- --compare


#: The steps reported, in the order of a repeat visit.
COMPARED_STEPS = (
    "ui-ready",
    "ui-modules",
    "table-painted",
    "worker-start",
    "worker-snapshot-read",
    "worker-snapshot-checked",
    "worker-pyodide",
    "engine-ready",
    "table-ready",
)
#: Differences reported (from step, to step).
COMPARED_SPANS = (
    ("ui-ready", "table-painted"),
    ("table-painted", "worker-start"),
    ("worker-start", "table-ready"),
    ("ui-ready", "table-ready"),
)


def _median_cell(values: list[float]) -> str:
    return f"{statistics.median(values):,.0f}" if values else "–"


def compare(builds: list[tuple[str, Path]], count: int) -> None:
    """``--compare``: ``count`` repeat visits of each build (name, built site), interleaved; print
    their steps' medians and the medians of per-visit differences between steps."""
    names = [name for name, _dist in builds]
    visits: dict[str, list[dict[str, float]]] = {name: [] for name in names}
    servers = {name: serve(dist) for name, dist in builds}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            contexts = {name: _new_context(browser) for name in names}
            for name in names:
                game_visit(contexts[name], servers[name], f"{servers[name].url}?seed=3", True)
            for i in range(count):
                for name in names if i % 2 == 0 else names[::-1]:
                    figures = game_visit(contexts[name], servers[name], servers[name].url, False)
                    row = {
                        step: figures[f"step:{step}"] for step in COMPARED_STEPS if f"step:{step}" in figures
                    }
                    row["longest-task"] = figures["longest_task"]
                    row["restored"] = figures["restored"]
                    visits[name].append(row)
                    print(name, " ".join(f"{k}={v:.0f}" for k, v in row.items()), file=sys.stderr, flush=True)
            browser.close()
    finally:
        for server in servers.values():
            server.shutdown()
            server.server_close()
    print(f"Repeat visits, {count} of each build, interleaved (median ms since navigation).\n")
    print("| step | " + " | ".join(names) + " |")
    print("|---|" + "---:|" * len(names))
    for step in (*COMPARED_STEPS, "longest-task"):
        cells = [_median_cell([v[step] for v in visits[n] if step in v]) for n in names]
        print(f"| `{step}` | " + " | ".join(cells) + " |")
    for start, end in COMPARED_SPANS:
        cells = [
            _median_cell([v[end] - v[start] for v in visits[n] if start in v and end in v]) for n in names
        ]
        print(f"| `{start}` → `{end}` | " + " | ".join(cells) + " |")
    restored = [f"{sum(int(v['restored']) for v in visits[n])} / {len(visits[n])}" for n in names]
    print("| restored from the stored snapshot | " + " | ".join(restored) + " |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-build", action="store_true", help="measure the existing dist/")
    parser.add_argument("--json", type=Path, help="write every run's numbers here")
    parser.add_argument(
        "--compare",
        nargs="+",
        metavar="NAME=DIST",
        help="instead: repeat visits of these built sites, interleaved, step by step (--visits each)",
    )
    parser.add_argument("--visits", type=int, default=12, help="repeat visits of each build (--compare)")
    parser.add_argument("--mbps", type=float, help="instead: first visits over a link of this many Mbit/s")
    parser.add_argument("--rtt-ms", type=float, default=150.0, help="the link's round trip (--mbps)")
    parser.add_argument(
        "--dist",
        action="append",
        metavar="NAME=DIR",
        help="--mbps: built sites to measure side by side (default: a fresh build, or dist/ with --no-build)",
    )
    parser.add_argument(
        "--engine-as",
        nargs="+",
        choices=build.ENGINE_FORMS,
        help="--mbps: build the site with the engine in each of these forms and measure them side by side "
        "(else: the one form to build)",
    )
    args = parser.parse_args(argv)
    if args.mbps:
        with tempfile.TemporaryDirectory(prefix="gongzhu-bench-") as tmp:
            if args.dist:
                sites = [(n, Path(d)) for n, d in (b.split("=", 1) for b in args.dist)]
            elif args.engine_as:
                sites = [
                    (f"engine as {form}", build.build(Path(tmp) / form, engine=form).dist)
                    for form in args.engine_as
                ]
            else:
                sites = [("game", build.DIST if args.no_build else build.build(Path(tmp) / "dist").dist)]
            found = first_visits(sites, args.mbps, args.rtt_ms, args.runs)
        command = "python3 bench/load.py " + " ".join(sys.argv[1:] if argv is None else argv)
        print(first_visit_report(found, command))
        if args.json:
            args.json.write_text(json.dumps(found, indent=2) + "\n", encoding="utf-8")
        return 0
    if args.compare:
        builds = [tuple(b.split("=", 1)) for b in args.compare]
        if any(len(b) != 2 or not Path(b[1]).is_dir() for b in builds):
            parser.error("--compare takes NAME=DIST, DIST the directory of a built site")
        compare([(name, Path(dist)) for name, dist in builds], args.visits)
        return 0

    if args.engine_as and len(args.engine_as) != 1:
        parser.error("without --mbps, --engine-as takes one form")
    with tempfile.TemporaryDirectory(prefix="gongzhu-bench-") as tmp:
        form = args.engine_as[0] if args.engine_as else build.ENGINE_FORMS[0]
        dist = build.DIST if args.no_build else build.build(Path(tmp) / "dist", engine=form).dist
        bare_dir = Path(tmp) / "bare"
        make_bare_site(bare_dir, dist)
        game_server, bare_server = serve(dist), serve(bare_dir)
        results: dict[str, list[dict[str, float]]] = {
            k: [] for k in ("game_cold", "game_warm", "bare_cold", "bare_warm")
        }
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                for run in range(args.runs):
                    started = time.monotonic()
                    context = _new_context(browser)
                    results["game_cold"].append(
                        game_visit(context, game_server, f"{game_server.url}?seed={run + 1}", True)
                    )
                    results["game_warm"].append(game_visit(context, game_server, game_server.url, False))
                    context.close()
                    context = _new_context(browser)
                    results["bare_cold"].append(bare_visit(context, bare_server))
                    results["bare_warm"].append(bare_visit(context, bare_server))
                    context.close()
                    gc, gw = results["game_cold"][-1], results["game_warm"][-1]
                    bc, bw = results["bare_cold"][-1], results["bare_warm"][-1]
                    print(
                        f"run {run + 1}/{args.runs} ({time.monotonic() - started:.0f} s): "
                        f"cold painted {gc['table_painted']:.0f} interactive {gc['interactive']:.0f} "
                        f"({_size(gc['bytes'])}{', shipped snapshot' if gc['shipped'] else ', boot'}); "
                        f"warm painted {gw['table_painted']:.0f} "
                        f"interactive {gw['interactive']:.0f} ({_size(gw['bytes'])}"
                        f"{', snapshot' if gw['restored'] else ', NO snapshot'}); "
                        f"bare cold {bc['ready']:.0f} warm {bw['ready']:.0f}; "
                        f"longest task {max(gc['longest_task'], gw['longest_task']):.0f} ms",
                        file=sys.stderr,
                        flush=True,
                    )
                browser.close()
        finally:
            for server in (game_server, bare_server):
                server.shutdown()
                server.server_close()
    print(report(results))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
