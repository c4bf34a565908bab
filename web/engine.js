// Page side of the engine worker (`window.gongzhuEngine`), used by ui/shell/bridge.py. The worker is a
// plain module worker (web/engine-worker.js) that boots Pyodide or restores its memory snapshot.
// MicroPython 1.27 can neither catch a rejected JavaScript promise's exception reliably nor use
// asyncio.wait_for on one, so every promise here *resolves*:
//   start()            start the worker (idempotent); it starts the engine while the page goes
//                      on. The UI calls it once its first paint is done. The worker is created when
//                      this script runs, and waits for this call ("go") before its heavy part. On a
//                      repeat visit it reads the stored snapshot while MicroPython starts, and
//                      restores it after the paint, so the restore never delays the saved table
//                      (bench/results/load.md). On a first visit only its own small files and its
//                      configuration are fetched early (their round trips are off the engine's
//                      path): the bytes and the CPU the first paint needs (MicroPython, the UI, the
//                      prepared table) come first, and nothing large (Pyodide, the snapshot, the
//                      precache) competes with them. With "go" it is told what the page measured of
//                      the link by then (`measuredLink`): where the build's snapshot pays, the
//                      worker fetches and restores it instead of booting.
//   ready()            "" once the engine has booted, else why it could not (no time limit: a first
//                      visit downloads the runtime, which takes minutes on a slow network)
//   call(request, ms)  the worker's JSON answer, or null when it died or took longer than ms
//   restart()          terminate the worker and start a new one under a new name
//   name, boot         the current worker's name ("engine", "engine-1", ...) and how it started
//                      ("snapshot", "snapshot (shipped)", "boot", "boot (<why no snapshot>)")
//   timings            when each step of the worker's boot ended (epoch ms); also marked on the
//                      page's timeline as gongzhu:worker-<step> (bench/load.py)
//   snapshot           "stored" once this boot's snapshot is in storage, "not stored: <why>", or ""
//
// It also starts the UI's runtime (PyScript, which runs MicroPython and ui/main.py) at once, and on
// a first visit fetches the build's prepared first tables (`window.gongzhuFirstTables()`: their
// JSON text, "" when they cannot be had), which the UI draws like a save (ui/features/boot.py).
"use strict";
(() => {
  const UI_RUNTIME = "./runtime/pyscript/core.js";
  function startUI() {
    const script = document.createElement("script");
    script.type = "module";
    script.src = UI_RUNTIME;
    document.head.append(script);
  }

  let worker = null;
  let booted = null; // promise of "" or the failure
  let restarts = 0;
  let painted = false; // start() was called by the UI (not only the early start)
  let nextId = 1;
  const pending = new Map(); // id -> resolve

  // What the page has measured of the link so far, for the worker's choice between the build's
  // snapshot and a boot (web/link.js snapshotPays): bytes per second over the bodies of its larger
  // downloads from the network (resource timing; the time to first byte left out, parallel
  // downloads counted one after the other: an underestimate), the browser's own estimate (Mbit/s)
  // its effective type, and whether the player asked to save data.
  const SAMPLE_MIN_BYTES = 32 * 1024;
  function measuredLink() {
    const link = navigator.connection || {};
    let bytes = 0;
    let ms = 0;
    for (const entry of performance.getEntriesByType("resource")) {
      const spent = entry.responseEnd - entry.responseStart;
      if (entry.transferSize > 0 && entry.encodedBodySize >= SAMPLE_MIN_BYTES && spent >= 0) {
        bytes += entry.encodedBodySize;
        ms += Math.max(spent, 1);
      }
    }
    return {
      rate: ms > 0 ? (bytes * 1000) / ms : 0,
      bytes,
      downlink: Number(link.downlink) || 0,
      effectiveType: String(link.effectiveType || ""),
      saveData: Boolean(link.saveData),
    };
  }

  function settleAll() {
    for (const resolve of pending.values()) resolve(null);
    pending.clear();
  }

  const api = {
    name: "engine",
    boot: "",
    timings: null,
    snapshot: "",
    start(early = false) {
      if (worker) {
        if (!early && !painted) worker.postMessage({ type: "go", link: measuredLink() });
        painted = painted || !early;
        return;
      }
      painted = !early;
      const name = api.name;
      let ready;
      booted = new Promise((resolve) => (ready = resolve));
      worker = new Worker("./engine-worker.js", { type: "module", name });
      // First visit: the worker hands its Pyodide downloads to the installing service worker.
      const sw = navigator.serviceWorker;
      const handoff = Boolean(sw && window.isSecureContext && !sw.controller);
      worker.postMessage({ type: "start", handoff, early, link: measuredLink() });
      worker.addEventListener("message", (event) => {
        const data = event.data || {};
        if (data.id !== undefined) {
          const resolve = pending.get(data.id);
          pending.delete(data.id);
          if (resolve) resolve(data.answer);
        } else if (data.type === "ready") {
          api.boot = data.boot;
          api.timings = data.timings;
          for (const [step, at] of Object.entries(data.timings || {})) {
            const startTime = at - performance.timeOrigin;
            if (startTime >= 0) performance.mark(`gongzhu:worker-${step}`, { startTime });
          }
          performance.mark("gongzhu:engine-booted");
          ready("");
        } else if (data.type === "failed") {
          // The loading watchdog (web/boot.js) tells the player, with "Try again", at once.
          if (window.gongzhuBoot) window.gongzhuBoot.fail("engine", data.error);
          ready(data.error || "the engine could not start");
        } else if (data.type === "progress") {
          // A boot step, or the bytes of the engine's download so far (the loading screen shows them).
          if (window.gongzhuBoot) window.gongzhuBoot.progress(data.total ? { received: data.received, total: data.total } : undefined);
        } else if (data.type === "handoff") {
          api.handedOff = true; // (read by web/pwa.js, which may start listening after this)
          window.dispatchEvent(new CustomEvent("gongzhu:engine-handoff"));
        } else if (data.type === "snapshot") {
          api.snapshot = data.status;
          window.dispatchEvent(new CustomEvent("gongzhu:engine-snapshot", { detail: data.status }));
        }
      });
      worker.addEventListener("error", (event) => {
        ready(String(event.message || "the engine worker failed"));
        settleAll();
      });
    },
    ready() {
      api.start();
      return booted;
    },
    call(request, ms) {
      api.start();
      const id = nextId++;
      const answered = new Promise((resolve) => pending.set(id, resolve));
      const timer = new Promise((resolve) => setTimeout(() => resolve(null), ms));
      worker.postMessage({ id, request: String(request) });
      return Promise.race([answered, timer]).then((value) => {
        pending.delete(id);
        return value === undefined ? null : value;
      });
    },
    restart() {
      if (worker) worker.terminate();
      worker = null;
      settleAll();
      restarts += 1;
      api.name = `engine-${restarts}`;
      api.boot = "";
      api.snapshot = "";
      api.start();
      return booted;
    },
    // Tests (the dead-worker fault): stop the worker as a crash would; returns its name.
    kill() {
      if (worker) worker.terminate();
      return api.name;
    },
  };
  window.gongzhuEngine = api;

  let firstTables = null;
  window.gongzhuFirstTables = () => {
    firstTables ||= fetch("./first-tables.json")
      .then((response) => (response.ok ? response.text() : ""))
      .catch(() => "");
    return firstTables;
  };
  // Every visit starts the UI, then the worker, whose heavy part waits for the UI's first paint (its
  // start()); a first visit (no service worker controls the page) also fetches the prepared tables.
  // PyScript reads the page's <script type="mpy"> (its config) when it runs: it starts once the page
  // is parsed (this script runs in <head>), else it could run first and load its default plugins.
  const sw = navigator.serviceWorker;
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", startUI, { once: true });
  else startUI();
  if (!(sw && sw.controller)) window.gongzhuFirstTables();
  api.start(true);
})();
