// Page side of the engine worker (`window.gongzhuEngine`), used by ui/shell/bridge.py. The worker is a
// plain module worker (web/engine-worker.js) that boots Pyodide or restores its memory snapshot.
// MicroPython 1.27 can neither catch a rejected JavaScript promise's exception reliably nor use
// asyncio.wait_for on one, so every promise here *resolves*:
//   start()            start the worker (idempotent); it starts the engine while the page goes
//                      on. The UI calls it once its first paint is done. The worker is created
//                      when this script runs: without a service worker (a first visit) it restores
//                      the build's snapshot or boots at once; with a stored snapshot (a repeat
//                      visit) it reads it while MicroPython starts, and waits for this call to
//                      restore it, so the restore never delays the saved table's paint
//                      (bench/results/load.md: the player may act 0.38× a bare boot, 964 ms;
//                      restoring at once painted 0.2 s later and was ready no sooner)
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
// It also starts the UI's runtime (PyScript, which runs MicroPython and ui/main.py): at once on a
// repeat visit; on a first visit once the engine's download is in (or the engine is ready, or
// failed), so that a phone's link carries Pyodide first and the UI's bytes arrive while Pyodide
// starts, instead of delaying it (bench/load.py --mbps). Until then the page shows its static
// loading screen, with the download's progress (web/boot.js); there is nothing to tap on it.
"use strict";
(() => {
  const UI_RUNTIME = "./runtime/pyscript/core.js";
  let uiStarted = false;
  function startUI() {
    if (uiStarted) return;
    uiStarted = true;
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
        if (!early && !painted) worker.postMessage({ type: "go" });
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
      worker.postMessage({ type: "start", handoff, early });
      worker.addEventListener("message", (event) => {
        const data = event.data || {};
        if (data.id !== undefined) {
          const resolve = pending.get(data.id);
          pending.delete(data.id);
          if (resolve) resolve(data.answer);
        } else if (data.type === "ready") {
          startUI();
          api.boot = data.boot;
          api.timings = data.timings;
          for (const [step, at] of Object.entries(data.timings || {})) {
            const startTime = at - performance.timeOrigin;
            if (startTime >= 0) performance.mark(`gongzhu:worker-${step}`, { startTime });
          }
          performance.mark("gongzhu:engine-booted");
          ready("");
        } else if (data.type === "failed") {
          startUI();
          // The loading watchdog (web/boot.js) tells the player, with "Try again", at once.
          if (window.gongzhuBoot) window.gongzhuBoot.fail("engine", data.error);
          ready(data.error || "the engine could not start");
        } else if (data.type === "progress") {
          // A boot step, or the bytes of the engine's download so far (the loading screen shows them).
          if (window.gongzhuBoot) window.gongzhuBoot.progress(data.total ? { received: data.received, total: data.total } : undefined);
          if (data.total && data.received >= data.total) startUI();
        } else if (data.type === "paint-first") {
          startUI();
        } else if (data.type === "handoff") {
          api.handedOff = true; // (read by web/pwa.js, which may start listening after this)
          window.dispatchEvent(new CustomEvent("gongzhu:engine-handoff"));
        } else if (data.type === "snapshot") {
          api.snapshot = data.status;
          window.dispatchEvent(new CustomEvent("gongzhu:engine-snapshot", { detail: data.status }));
        }
      });
      worker.addEventListener("error", (event) => {
        startUI();
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
  // A first visit (no service worker controls the page: nothing is cached, the engine is the long
  // pole) starts the worker before the UI's runtime; a repeat visit starts the UI first, then the
  // worker, whose restore waits for the paint.
  const sw = navigator.serviceWorker;
  if (!(sw && sw.controller)) api.start(true);
  else {
    startUI();
    api.start(true);
  }
})();
