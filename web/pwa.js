// Registration glue for the service worker (./sw.js): the few lines the platform demands in
// JavaScript. The Python UI talks to it through `window.gongzhuPWA`:
//   engineMayStart()  registers the service worker (after the UI's first paint) and resolves at
//                     once: the engine boots in parallel with the first visit's precache.
//   progress          {received, total} bytes of the first download, or null
//   updateReady       true once a new release is installed and waiting
//   applyUpdate()     activate the waiting release and reload (the autosave resumes the hand)
// It adds and fills #load-progress (bytes) and the update notice #update (texts: ui/pwa.py).
"use strict";
(() => {
  const sw = navigator.serviceWorker;
  let mayStartOnce = () => Promise.resolve();
  const state = {
    progress: null,
    updateReady: false,
    version: null,
    registration: null,
    // One function for the page's life (wrappers taken when the glue is published keep working):
    // it calls `mayStart`, which has something to register only in a secure context.
    engineMayStart: () => mayStartOnce(),
    applyUpdate,
  };
  window.gongzhuPWA = state;
  if (!sw || !window.isSecureContext) return;

  // Two small elements of our own, outside the regions the UI redraws (this script is deferred:
  // the body exists). English until ui/pwa.py puts the page's language in.
  const fixed = "position:fixed;left:0;right:0;margin:0 auto;text-align:center;";
  const progressEl = document.createElement("p");
  progressEl.id = "load-progress";
  progressEl.dataset.testid = "load-progress";
  progressEl.hidden = true;
  progressEl.setAttribute("aria-live", "polite");
  progressEl.style.cssText = fixed + "top:calc(50% + 64px);z-index:11;pointer-events:none;font-size:14px;color:#f4f1e8";
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
  document.body.append(progressEl, updateEl);

  const firstVisit = !sw.controller;
  let reloading = false;

  function megabytes(n) {
    return (n / 1e6).toFixed(1);
  }

  function showProgress(received, total) {
    state.progress = { received, total };
    progressEl.hidden = received >= total;
    progressEl.textContent = `${megabytes(received)} / ${megabytes(total)} MB`;
    progressEl.dataset.received = String(received);
    progressEl.dataset.total = String(total);
    window.dispatchEvent(new CustomEvent("gongzhu:load-progress", { detail: state.progress }));
  }

  function markUpdateReady() {
    if (state.updateReady) return;
    state.updateReady = true;
    updateEl.hidden = false;
    window.dispatchEvent(new CustomEvent("gongzhu:update-ready"));
  }

  function watchInstalling(worker) {
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
    if (data.type === "gongzhu:progress" && firstVisit) showProgress(data.received, data.total);
    if (data.type === "gongzhu:version") state.version = data.version;
  });
  sw.addEventListener("controllerchange", () => {
    if (reloading) location.reload();
    else if (sw.controller) sw.controller.postMessage({ type: "version" });
  });
  if (sw.controller) sw.controller.postMessage({ type: "version" });

  // Registered once the UI has painted (engineMayStart is called then), so that the service
  // worker's download and hashing never compete with the MicroPython boot for the CPU; after
  // the page's load event at the latest if the UI never asks.
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
  addEventListener("load", () => setTimeout(register, 3000), { once: true });

  // The engine never waits for the precache: it starts booting at once, in parallel with the
  // first visit's download (the service worker caches the rest of the site meanwhile).
  // Its Pyodide downloads are handed to the installing service worker (web/sw.js: "handoff").
  async function mayStart() {
    const registering = register();
    if (!firstVisit) return;
    let handedOff = false;
    addEventListener("gongzhu:engine-handoff", () => (handedOff = true), { once: true });
    registering.then((registration) => {
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
