// The engine's web worker: boots Pyodide (CPython) with the rules engine imported and answers the
// page's JSON requests with the Python entry's `call(request) -> answer` (ui/engine_worker.py or
// whatever engine-worker.json's "entry" names). JavaScript only because the platform demands it:
// no rule lives here.
//
// Instant start: a booted engine is kept as a Pyodide memory snapshot (the wasm heap with the
// engine already imported) in Cache Storage, under the engine release written by build.py into
// engine-worker.json. A visit that finds this release's snapshot restores it (~7x faster than a
// boot). Without one, the build's snapshot of this release (engine-worker.json "snapshot": shipped
// gzipped beside Pyodide's files) is restored when it is already on the device (the service worker
// precaches it in the background where the link is fast), or, on a first visit, fetched where it
// pays: where the page's measure of the link (web/engine.js measuredLink) says its extra bytes
// arrive sooner than a boot would end (web/link.js snapshotPays: on loopback and fast links, not on a
// phone's 2 Mbit/s, where its 6 MB cost more than the boot they save). A visit with neither boots
// normally and makes the snapshot itself (~20 ms, the same state as the build's: both run
// web/engine-boot.mjs). Either way, the restored or freshly made snapshot is then stored in the
// background, as it is. The build's snapshot is restored only when its bytes have the SHA-256 the
// build wrote beside it (engine-worker.json "snapshot": url, bytes, gzipped, sha256).
// Every snapshot fault falls back: a stored one missing or from another release (never looked up,
// and deleted) to the build's; one truncated (shorter than stored or shipped), whose bytes do not
// have the SHA-256 stored with them, or rejected by Pyodide (magic number, build id), and a shipped
// one unreadable, to a normal boot, which stores its own in its place; storage full or disabled just
// stores none.
//
// A first visit's loading screen shows real progress: the bytes of the files this worker fetches
// (Pyodide's wasm, standard library and lock file, the engine's wheels or modules), against their total
// (engine-worker.json "download", written by build.py), as {type: "progress", received, total}.
//
// Messages: page -> worker {id, request}; worker -> page {id, answer} | {type: "ready", boot}
// | {type: "failed", error} | {type: "snapshot", status} | {type: "progress", step | received, total}
// (a stored snapshot's restore waits for the page's "go": its paint first). `boot` says how the engine started:
// "snapshot" (stored), "snapshot (shipped)" (the build's), "boot" or "boot (<why not a snapshot>)".
import { loadPyodide } from "./runtime/pyodide/pyodide.mjs";
import {
  DIGEST_HEADER,
  LENGTH_HEADER,
  UNREADABLE,
  bootEngine,
  readShippedSnapshot,
  readStoredSnapshot,
  restoreEngine,
  snapshotDigest,
} from "./engine-boot.mjs";
import "./link.js"; // self.gongzhuLink: whether the build's snapshot pays on this link

const SNAPSHOTS = "engine-snapshot"; // not "gongzhu-*": the service worker drops those per release
const STORE_DELAY_MS = 1500; // after the boot, before the snapshot is stored
const INDEX_URL = new URL("./runtime/pyodide/", location.href).href;

let engineCall = null; // the Python entry's call(), once booted
const queue = []; // requests that arrived during the boot
let go; // the page has painted: the restore or boot may start (with the page's measure of the link then)
const painted = new Promise((resolve) => (go = resolve));

function send(message) {
  postMessage(message);
}

function answer({ id, request }) {
  let reply;
  try {
    reply = engineCall(String(request));
  } catch (error) {
    reply = JSON.stringify({ ok: false, error: `WorkerError: ${error}` });
  }
  send({ id, answer: reply });
}

addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "start") start(data).catch(failed);
  else if (data.type === "go") go(data.link);
  else if (engineCall) answer(data);
  else queue.push(data);
});

// Pyodide's wasm that cannot be fetched leaves loadPyodide pending for ever (its failure is only
// logged: pyodide/pyodide#6296), so the page would wait for its loading watchdog (40 s) before
// telling the player. Reported at once instead. Only this fetch is watched: a missing shipped
// snapshot falls back to a boot, and the watchdog still covers anything else that stalls.
const WASM_URL = new URL("pyodide.asm.wasm", INDEX_URL).href;
// A fetch's input (a Request, a URL or a string) as an absolute URL.
function urlOf(input) {
  return String(input instanceof Request ? input.url : new URL(input, location.href));
}
const plainFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  const url = urlOf(input);
  if (url !== WASM_URL) return counted(await plainFetch(input, init));
  let response;
  try {
    response = await plainFetch(input, init);
  } catch (error) {
    failed(`pyodide.asm.wasm: ${error}`);
    throw error;
  }
  if (!response.ok) failed(`pyodide.asm.wasm: HTTP ${response.status}`);
  wasmArrived();
  return counted(response);
};
// The wasm's response has arrived (or Pyodide is loaded): its download has its connection.
let wasmArrived;
const wasmStarted = new Promise((resolve) => (wasmArrived = resolve));

// The download's progress: every body this worker reads, counted as it arrives (decoded bytes, as
// the build counts the total), told to the page at most every PROGRESS_MS.
const PROGRESS_MS = 100;
const download = { received: 0, total: 0, told: 0 };
function tellDownload(force) {
  const now = Date.now();
  if (!download.total || (!force && now - download.told < PROGRESS_MS)) return;
  download.told = now;
  send({ type: "progress", received: Math.min(download.received, download.total), total: download.total });
}
// The counter reads ahead of its consumer (up to READ_AHEAD bytes queued): it counts what the
// network delivered, not what Pyodide has compiled or read so far.
const READ_AHEAD = { highWaterMark: 64 * 1024 * 1024, size: (chunk) => chunk.byteLength };
function counted(response) {
  if (!response.ok || !response.body) return response;
  const counter = new TransformStream({
    transform(chunk, controller) {
      download.received += chunk.byteLength;
      tellDownload(false);
      controller.enqueue(chunk);
    },
    flush() {
      tellDownload(true);
    },
  }, undefined, READ_AHEAD);
  const { status, statusText, headers } = response;
  return new Response(response.body.pipeThrough(counter), { status, statusText, headers });
}

// First visit (the page has no service worker yet): every Pyodide file fetched from the network
// is also put in the service worker's handoff cache, so its install does not download it again
// (web/sw.js). Resolves once every copy is stored (or failed).
const HANDOFF = "gongzhu-handoff";
const handoffs = [];
function handOffRuntime() {
  const networkFetch = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const response = await networkFetch(input, init);
    const url = urlOf(input);
    if (!url.startsWith(INDEX_URL) || !response.ok || !response.body) return response;
    const [mine, theirs] = response.body.tee();
    const headers = new Headers();
    const type = response.headers.get("Content-Type");
    if (type) headers.set("Content-Type", type);
    handoffs.push(
      caches
        .open(HANDOFF)
        .then((cache) => cache.put(url, new Response(theirs, { headers })))
        .catch(() => {})
    );
    return new Response(mine, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return () => {
    globalThis.fetch = networkFetch;
    return Promise.all(handoffs);
  };
}

function snapshotKey(release) {
  return new URL(`./engine-snapshot/${release}`, location.href).href;
}

async function openSnapshots() {
  if (typeof caches === "undefined") throw new Error("Cache Storage unavailable");
  return caches.open(SNAPSHOTS);
}

// This release's stored snapshot (a response of its raw bytes), or null; other releases' are deleted.
async function findSnapshot(release) {
  let cache;
  try {
    cache = await openSnapshots();
  } catch {
    return null;
  }
  const key = snapshotKey(release);
  for (const request of await cache.keys()) {
    if (request.url !== key) await cache.delete(request);
  }
  return (await cache.match(key)) || null;
}

// The stored snapshot's bytes, stored as they are: reading 31 MB back is several times faster than
// gunzipping 6 MB (measured in Chromium: 0.1-0.3 s against 0.9-1.5 s on a busy machine), and the
// restore waits for them (engine-boot.mjs readStoredSnapshot: its faults make the visit boot).
function readSnapshot(hit) {
  return readStoredSnapshot(hit, lap);
}

// The build's snapshot of this release ({url, bytes, gzipped, sha256}) when the service worker has it
// on the device, or null.
async function findShipped(shipped) {
  try {
    return (await caches.match(new URL(shipped.url, location.href).href)) || null;
  } catch {
    return null;
  }
}

// Fetched from the network: a first visit where it pays (web/link.js snapshotPays).
async function fetchShipped(shipped) {
  let response;
  try {
    response = await fetch(shipped.url);
  } catch (error) {
    throw new Error(`${UNREADABLE}: ${error}`);
  }
  if (!response.ok) throw new Error(`${UNREADABLE}: HTTP ${response.status}`);
  return response;
}

// Its bytes, unzipped as they are read, refused unless they have the build's SHA-256
// (engine-boot.mjs readShippedSnapshot).
function readShipped(response, shipped) {
  return readShippedSnapshot(response, shipped, lap);
}

// Stored with its length and its SHA-256, which readSnapshot() checks before any restore.
async function storeSnapshot(release, bytes) {
  const cache = await openSnapshots();
  const headers = {
    "Content-Type": "application/octet-stream",
    [LENGTH_HEADER]: String(bytes.length),
    [DIGEST_HEADER]: await snapshotDigest(bytes),
  };
  try {
    await cache.put(snapshotKey(release), new Response(bytes, { headers }));
  } catch (error) {
    await cache.delete(snapshotKey(release)).catch(() => {});
    throw error;
  }
  return bytes.length;
}

// The entry's module name: dotted inside a package shipped to the worker ("gongzhu/worker.py" ->
// "gongzhu.worker"), else its file name, imported from its own directory ("ui/engine_worker.py").
function entryModule(config) {
  const parts = config.entry.replace(/^\.\//, "").replace(/\.py$/, "").split("/");
  const dir = parts.slice(0, -1).join("/");
  if (dir && `./${dir}/__init__.py` in config.files) return { name: parts.join("."), dir: "" };
  return { name: parts[parts.length - 1], dir };
}

// A shipped wheel ({url, name, sha256} in engine-worker.json) as engine-boot.mjs takes it: its
// bytes fetched (checked against the sha256 there, before anything is installed).
function fetchWheel({ url, name, sha256 }) {
  const bytes = fetch(url).then((response) => {
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    return response.arrayBuffer();
  });
  bytes.catch(() => {}); // rejected before it is awaited: not an unhandled rejection
  return { name, sha256, bytes };
}

// A normal boot (web/engine-boot.mjs, as the build's snapshot is made): Pyodide, the engine
// installed from its wheel by micropip (config.wheels) or its files written into its file system,
// the entry and the engine modules it imports (config.modules, listed by build.py) imported.
async function boot(config, makeSnapshot) {
  // The engine's wheels or files download while Pyodide's wasm does (on a phone's link, their round
  // trips are not added to its download), asked for once the wasm's response has arrived: asked for
  // sooner, the engine's 26 small files hold the browser's connections while Pyodide's own files wait
  // (HTTP/1.1).
  const wheels = config.wheels
    ? wasmStarted.then(() => ({
        micropip: fetchWheel(config.wheels.micropip),
        packages: config.wheels.packages.map(fetchWheel),
      }))
    : null;
  const urls = [...new Set([...Object.keys(config.files), config.entry])];
  const files = wasmStarted.then(() =>
    Promise.all(
      urls.map(async (url) => {
        const response = await fetch(url);
        if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
        return [(config.files[url] || url).replace(/^\.\//, ""), await response.text()];
      })
    )
  );
  files.catch(() => {}); // rejected before it is awaited: not an unhandled rejection
  const entry = entryModule(config);
  const pyodide = await bootEngine(
    loadPyodide,
    { indexURL: INDEX_URL, _makeSnapshot: makeSnapshot },
    { files, wheels, path: entry.dir, modules: [entry.name, ...(config.modules || [])], loaded: () => (lap("pyodide"), wasmArrived()) }
  );
  lap("imported");
  return pyodide;
}

// `snapshot` is a promise of its bytes: Pyodide fetches its runtime while they are read.
async function restore(snapshot) {
  const pyodide = await restoreEngine(loadPyodide, { indexURL: INDEX_URL }, snapshot);
  lap("pyodide");
  return pyodide;
}

// When each boot step ended, as epoch ms (performance.timeOrigin + now: the page converts them to
// its own timeline as gongzhu:worker-<step> marks, for bench/load.py); reported with "ready".
const timings = {};
function lap(name) {
  timings[name] = performance.timeOrigin + performance.now();
  send({ type: "progress", step: name }); // the page's loading watchdog (web/boot.js) sees a step
}

async function start({ handoff, early, link }) {
  lap("start");
  const handedOff = handoff && typeof caches !== "undefined" ? handOffRuntime() : null;
  // A service worker controls the page: copies a first visit handed off too late are litter.
  if (!handoff && typeof caches !== "undefined") caches.delete(HANDOFF).catch(() => {});
  const response = await fetch("./engine-worker.json");
  if (!response.ok) throw new Error(`engine-worker.json: HTTP ${response.status}`);
  const config = await response.json();
  download.total = Number(config.download) || 0;
  lap("config");
  const release = String(config.release || "");
  let pyodide = null;
  let how = "boot";
  const hit = release ? await findSnapshot(release) : null;
  lap("snapshot-found");
  const canStore = Boolean(release) && typeof caches !== "undefined";
  // A stored snapshot, else the build's when the service worker has it; either is read at once (its
  // bytes cost no CPU to speak of). A stored one's restore, like a boot, waits until the page has
  // painted: both keep the cores busy, and the saved table must be drawn first. Measured on a busy
  // 2-core machine: restoring at once made the table appear 100-400 ms later and the engine no sooner.
  const shipped = !hit && release && config.snapshot && canStore ? config.snapshot : null;
  const cached = shipped ? await findShipped(shipped) : null;
  // Nothing on the device (a first visit): this worker started with the page, so that its own small
  // files and its configuration are in when the page has painted, but it fetches nothing large
  // before then: the first paint's bytes go first. The page's measure of the link comes with "go".
  if (early && !hit && !cached) link = (await painted) || link;
  // Not on the device: fetched on a first visit (no service worker yet: its download is handed over
  // to it) where its extra bytes arrive sooner than a boot ends.
  const pays = handoff && shipped && !cached && self.gongzhuLink.snapshotPays(link, shipped, config.download);
  const fetched = pays ? fetchShipped(shipped) : null;
  if (fetched) download.total = Number(shipped.download) || download.total; // (the engine's files are not fetched)
  lap(fetched ? "snapshot-fetch" : "snapshot-choice");
  const bytes = hit
    ? readSnapshot(hit)
    : cached
      ? readShipped(cached, shipped)
      : fetched
        ? fetched.then((response) => readShipped(response, shipped))
        : null;
  if (bytes) bytes.catch(() => {}); // rejected before Pyodide awaits it: not an unhandled rejection
  // A stored snapshot is read while the UI starts; its restore waits for the page's paint ("go").
  if (early && hit) await painted;
  lap("go");
  let made = null;
  if (bytes) {
    try {
      pyodide = await restore(bytes);
      how = hit ? "snapshot" : "snapshot (shipped)";
      if (!hit) made = await bytes; // stored as it is: later visits skip the gunzip
    } catch (error) {
      const reason = error.message.split("\n")[0];
      const which = hit ? "snapshot" : "shipped snapshot"; // "<which> unreadable: ..." or "<which> rejected: ..."
      const why = reason.startsWith(UNREADABLE) ? reason.replace("snapshot", which) : `${which} rejected: ${reason}`;
      how = `boot (${why})`;
      if (hit) await (await openSnapshots()).delete(snapshotKey(release)).catch(() => {});
      pyodide = null;
    }
  }
  if (!pyodide) {
    pyodide = await boot(config, canStore);
    // The snapshot is taken before any request runs: every restore starts from the same state.
    if (canStore) made = pyodide.makeMemorySnapshot();
  }
  lap("python");
  engineCall = pyodide.pyimport(entryModule(config).name).call;
  send({ type: "ready", boot: how, timings });
  if (handedOff) handedOff().then(() => send({ type: "handoff" }));
  while (queue.length) answer(queue.shift());
  if (made) {
    // Stored once the first requests are answered: writing 31 MB must not delay them.
    await new Promise((resolve) => setTimeout(resolve, STORE_DELAY_MS));
    storeSnapshot(release, made).then(
      (size) => send({ type: "snapshot", status: "stored", bytes: size }),
      (error) => send({ type: "snapshot", status: `not stored: ${error}` })
    );
  }
}

let hasFailed = false; // said once: a wasm fetch's failure, then maybe start()'s own
function failed(error) {
  if (hasFailed) return;
  hasFailed = true;
  console.error("gongzhu engine worker:", error);
  send({ type: "failed", error: String(error) });
}
