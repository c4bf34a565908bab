// Service worker of the Gong Zhu site: the whole site (Python runtimes included) in one
// versioned cache, so every visit after the first starts from the cache, with or without a
// network. JavaScript because the platform demands it; kept small and dependency-free.
//
// build.py rewrites the BUILD line below: the release's content hash and every shipped file
// (path relative to this script, size in bytes, content hash). Any change to any file changes
// these bytes, so the browser installs the new worker, which fills a new cache:
//   install   fetch every file (reusing unchanged ones from the previous cache), reporting
//             real bytes to the pages and checking each file's hash; the files BUILD.lean names
//             (the build's engine snapshot) last, and not at all where the link is one to spare
//             (web/link.js, in this worker or on the registering page, which says so: "link");
//             the first install activates at once, an update waits
//             until the page asks ("skipWaiting"), so a hand in progress is never disturbed;
//   activate  delete every other gongzhu cache and take control of the open pages;
//   fetch     a shipped file comes from the cache (any query string ignored), else network.
"use strict";

const BUILD = {"version": "dev", "files": [], "lean": []}; // replaced by build.py
importScripts("./link.js");

const PREFIX = "gongzhu-";
const CACHE = PREFIX + BUILD.version;
const HASH_HEADER = "X-Gongzhu-Hash";
const CONCURRENCY = 4;
const SCOPE = new URL(self.registration.scope);
const FILES = new Map(BUILD.files.map(([path, size, hash]) => [path, { size, hash }]));
const LEAN = new Set(BUILD.lean);
// The registering page's word on the link (pwa.js), awaited at most LINK_WORD_MS before the LEAN files.
const LINK_WORD_MS = 3000;
let heard;
const linkWord = new Promise((resolve) => (heard = resolve));

function keyOf(path) {
  return new URL(path, SCOPE).href;
}

async function broadcast(message) {
  const pages = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  for (const page of pages) page.postMessage({ ...message, version: BUILD.version });
}

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

// This release's copy of a file: its content hash must match (a CDN may still serve the previous
// release for a while: then the install fails and is retried at the next visit, instead of
// caching a mix of releases).
async function checked(path, hash, blob, type) {
  const digest = hex(await crypto.subtle.digest("SHA-256", await blob.arrayBuffer())).slice(0, 16);
  if (digest !== hash) throw new Error(`precache ${path}: not the content of release ${BUILD.version}`);
  // Clean headers: the body is already decoded (no Content-Encoding, its own length).
  const headers = new Headers({ [HASH_HEADER]: hash, "Content-Length": String(blob.size) });
  if (type) headers.set("Content-Type", type);
  return new Response(blob, { status: 200, statusText: "OK", headers });
}

// Download one file, reporting each chunk to `onBytes`.
async function download(path, hash, onBytes) {
  // "no-cache": revalidate with the server, never a stale HTTP-cache copy of an old release.
  const response = await fetch(keyOf(path), { cache: "no-cache" });
  if (!response.ok) throw new Error(`precache ${path}: HTTP ${response.status}`);
  const reader = response.body.getReader();
  const chunks = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    onBytes(value.byteLength);
  }
  return checked(path, hash, new Blob(chunks), response.headers.get("Content-Type"));
}

// First visit: the engine worker starts from the network, in parallel with this install, and puts
// a copy of each Pyodide file it fetched (the build's snapshot too, where it fetched it) in the
// HANDOFF cache (web/engine-worker.js). Those files are precached last, from that copy when it
// comes (hash-checked like a download), so the runtime is downloaded once. The page says when the engine is downloading and when it
// is done (or failed); without that word, or after HANDOFF_WAIT_MS, the file is downloaded.
const HANDOFF = PREFIX + "handoff"; // a gongzhu-* cache: activate deletes it
const HANDOFF_WAIT_MS = 120000;
const ENGINE_FILES = "runtime/pyodide/";
let handoff = "none"; // "none" | "expected" | "done"

async function handedOff(path, hash) {
  const started = Date.now();
  for (;;) {
    const hit = await (await caches.open(HANDOFF)).match(keyOf(path));
    if (hit) {
      try {
        return await checked(path, hash, await hit.blob(), hit.headers.get("Content-Type"));
      } catch {
        return undefined; // incomplete or another release: download it
      }
    }
    if (handoff !== "expected" || Date.now() - started > HANDOFF_WAIT_MS) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

// The unchanged file from an older gongzhu cache, or undefined.
async function reuse(key, hash) {
  for (const name of await caches.keys()) {
    if (!name.startsWith(PREFIX) || name === CACHE) continue;
    const old = await (await caches.open(name)).match(key);
    if (old && old.headers.get(HASH_HEADER) === hash) return old;
  }
  return undefined;
}

async function precache() {
  const cache = await caches.open(CACHE);
  const total = BUILD.files.reduce((sum, [, size]) => sum + size, 0);
  let received = 0;
  let reported = 0;
  const report = (force) => {
    const now = Date.now();
    if (!force && now - reported < 100) return;
    reported = now;
    broadcast({ type: "gongzhu:progress", received, total, done: received >= total });
  };
  // Biggest first, the engine's runtime last (its copy may come from the engine worker).
  const engine = ([path]) => path.startsWith(ENGINE_FILES) && !LEAN.has(path);
  const queue = BUILD.files.filter(([path]) => !LEAN.has(path)).sort((a, b) => engine(a) - engine(b) || b[1] - a[1]);
  const worker = async () => {
    for (let item = queue.shift(); item; item = queue.shift()) {
      const [path, size, hash] = item;
      const key = keyOf(path);
      const have = await cache.match(key);
      if (have && have.headers.get(HASH_HEADER) === hash) {
        received += size;
        continue;
      }
      const old = await reuse(key, hash);
      if (old) {
        await cache.put(key, old);
        received += size;
        report(false);
        continue;
      }
      const given = path.startsWith(ENGINE_FILES) ? await handedOff(path, hash) : undefined; // (the snapshot too)
      if (given) {
        await cache.put(key, given);
        received += size;
        report(false);
        continue;
      }
      const fresh = await download(path, hash, (n) => {
        received += n;
        report(false);
      });
      await cache.put(key, fresh);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const pageSaysLean = await Promise.race([linkWord, new Promise((r) => setTimeout(() => r(false), LINK_WORD_MS))]);
  if (pageSaysLean || self.gongzhuLink.lean(self.navigator)) {
    skipped = BUILD.files.filter(([path]) => LEAN.has(path)).map(([path]) => path);
  } else {
    queue.push(...BUILD.files.filter(([path]) => LEAN.has(path)));
    await worker();
  }
  received = total;
  report(true);
}
let skipped = []; // the LEAN files this install left out (a link to spare)

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      await precache();
      // First install: nothing to disturb, take the page at once (its engine is waiting).
      if (!self.registration.active) await self.skipWaiting();
    })()
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
      await broadcast({ type: "gongzhu:activated" });
    })()
  );
});

self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "skipWaiting") self.skipWaiting();
  if (data.type === "link") heard(Boolean(data.lean));
  if (data.type === "engine-downloading" && handoff === "none") handoff = "expected";
  if (data.type === "engine-handoff-done") handoff = "done";
  if (data.type === "version" && event.source) {
    event.source.postMessage({ type: "gongzhu:version", version: BUILD.version, skipped });
  }
});

async function fromCache(path, request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(keyOf(path));
  if (hit) return hit;
  return fetch(request);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) return;
  let path = decodeURIComponent(url.pathname.slice(SCOPE.pathname.length));
  if (path === "" || path.endsWith("/")) path += "index.html";
  if (!FILES.has(path)) return;
  event.respondWith(fromCache(path, request));
});
