// Registration glue for the service worker (./sw.js): the few lines the platform demands in
// JavaScript. The Python UI talks to it through `window.gongzhuPWA`:
//   engineMayStart()  called after the UI's first paint; resolves at once. A repeat visit registers
//                     the service worker then (update checks). A first visit registers it only once
//                     the engine is ready (<html data-engine="ready">: the player may act), so its
//                     precache of the rest of the site (rules page, icons, other languages, the
//                     build's engine snapshot) never competes with what the first move needs.
//   progress          {received, total} bytes of the engine's first download (web/boot.js tells
//                     them: gongzhu:load-progress), or null: the UI's loading bar follows it
//   precache          {received, total} bytes of the service worker's precache, or null
//   updateReady       true once a new release is installed and waiting
//   applyUpdate()     activate the waiting release and reload (the autosave resumes the hand)
// The installing service worker is told whether the link is one to spare (web/link.js): then it
// does not download the build's engine snapshot. It adds the update notice #update (texts: ui/shell/pwa.py).
"use strict";
(() => {
  const sw = navigator.serviceWorker;
  let mayStartOnce = () => Promise.resolve();
  const state = {
    progress: null,
    precache: null,
    updateReady: false,
    version: null,
    registration: null,
    // One function for the page's life (wrappers taken when the glue is published keep working):
    // it calls `mayStart`, which has something to register only in a secure context.
    engineMayStart: () => mayStartOnce(),
    applyUpdate,
  };
  window.gongzhuPWA = state;
  addEventListener("gongzhu:load-progress", (event) => (state.progress = event.detail));
  if (!sw || !window.isSecureContext) return;

  // An element of our own, outside the regions the UI redraws (this script is deferred: the body
  // exists). English until ui/shell/pwa.py puts the page's language in.
  const fixed = "position:fixed;left:0;right:0;margin:0 auto;text-align:center;";
  const updateEl = document.createElement("div");
  updateEl.id = "update";
  updateEl.dataset.testid = "update-ready";
  updateEl.hidden = true;
  updateEl.setAttribute("role", "status");
  updateEl.style.cssText = fixed + "bottom:12px;width:max-content;max-width:92vw;z-index:30;padding:8px 12px;" +
    "border-radius:12px;background:#f4f1e8;color:#123;box-shadow:0 2px 10px rgba(0,0,0,.4);font-size:15px";
  const updateText = document.createElement("span");
  updateText.id = "update-text";
  updateText.textContent = "A new version is ready";
  const updateButton = document.createElement("button");
  updateButton.type = "button";
  updateButton.id = "update-reload";
  updateButton.dataset.testid = "update-reload";
  updateButton.textContent = "Reload";
  updateButton.style.cssText = "margin-left:10px;min-height:44px;padding:0 14px;font:inherit;font-weight:600";
  updateButton.addEventListener("click", applyUpdate);
  updateEl.append(updateText, updateButton);
  document.body.append(updateEl);

  const firstVisit = !sw.controller;
  let reloading = false;

  function markUpdateReady() {
    if (state.updateReady) return;
    state.updateReady = true;
    updateEl.hidden = false;
    window.dispatchEvent(new CustomEvent("gongzhu:update-ready"));
  }

  // The installing service worker waits for this word before the files a spared link skips.
  function tellLink(worker) {
    if (worker) worker.postMessage({ type: "link", lean: window.gongzhuLink.lean(navigator) });
  }

  function watchInstalling(worker) {
    tellLink(worker);
    worker.addEventListener("statechange", () => {
      // Installed while another release controls the page: an update is waiting.
      if (worker.state === "installed" && sw.controller) markUpdateReady();
    });
  }

  function applyUpdate() {
    const waiting = state.registration && state.registration.waiting;
    if (!waiting) {
      location.reload();
      return;
    }
    reloading = true;
    waiting.postMessage({ type: "skipWaiting" });
  }

  sw.addEventListener("message", (event) => {
    const data = event.data || {};
    if (data.type === "gongzhu:progress") state.precache = { received: data.received, total: data.total };
    if (data.type === "gongzhu:version") state.version = data.version;
  });
  sw.addEventListener("controllerchange", () => {
    if (reloading) location.reload();
    else if (sw.controller) sw.controller.postMessage({ type: "version" });
  });
  if (sw.controller) sw.controller.postMessage({ type: "version" });

  // A repeat visit registers once the UI has painted (engineMayStart is called then), so that the
  // service worker's update check never competes with the MicroPython boot for the CPU; after the
  // page's load event at the latest if the UI never asks. A first visit registers once the engine
  // is ready: until then the link carries only what the first move needs.
  let registered = null;
  function register() {
    if (registered) return registered;
    registered = sw.register("./sw.js").then((registration) => {
      state.registration = registration;
      if (registration.waiting && sw.controller) markUpdateReady();
      if (registration.installing) watchInstalling(registration.installing);
      registration.addEventListener("updatefound", () => watchInstalling(registration.installing));
      // A page left open for hours still learns about a release.
      setInterval(() => registration.update().catch(() => {}), 30 * 60 * 1000);
      return registration;
    });
    registered.catch((error) => console.warn("gongzhu: no service worker:", error));
    return registered;
  }
  if (!firstVisit) addEventListener("load", () => setTimeout(register, 3000), { once: true });

  function engineReady() {
    const root = document.documentElement;
    if (root.dataset.engine === "ready") return Promise.resolve();
    return new Promise((resolve) => {
      const watch = new MutationObserver(() => {
        if (root.dataset.engine !== "ready") return;
        watch.disconnect();
        resolve();
      });
      watch.observe(root, { attributes: true, attributeFilter: ["data-engine"] });
    });
  }

  // The engine never waits for the precache: it boots at once; the first visit's precache starts
  // once it is ready. Its Pyodide downloads are handed to the installing service worker (web/sw.js:
  // "handoff"), so the runtime is downloaded once.
  async function mayStart() {
    if (!firstVisit) {
      register();
      return;
    }
    // The engine may have handed its downloads off before the UI called this (a quick boot): the
    // flag says so; the event covers a handoff still to come. Missing it left the installing
    // service worker waiting for a handoff that had already happened, and the site never cached.
    let handedOff = Boolean(window.gongzhuEngine && window.gongzhuEngine.handedOff);
    if (!handedOff) addEventListener("gongzhu:engine-handoff", () => (handedOff = true), { once: true });
    engineReady().then(register).then((registration) => {
      const installing = registration.installing;
      if (!installing) return;
      installing.postMessage({ type: handedOff ? "engine-handoff-done" : "engine-downloading" });
      if (!handedOff) {
        addEventListener("gongzhu:engine-handoff", () => installing.postMessage({ type: "engine-handoff-done" }), {
          once: true,
        });
      }
    }, () => {});
  }
  let starting = null;
  mayStartOnce = () => (starting = starting || mayStart());
})();
