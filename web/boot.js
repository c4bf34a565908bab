// Loading watchdog: the page never spins forever. The first script of index.html, so it works even
// when PyScript, MicroPython or Pyodide never load. Until the engine has answered (<html
// data-engine="ready">; a resumed match shows its table before that), any of
//   - a script or stylesheet of the page that fails to load,
//   - an uncaught error or rejected promise (PyScript's failed fetches and imports end there),
//   - an error PyScript reports on the page (.py-error),
//   - no progress for STALL_MS (nothing downloaded, nothing reported by the UI; ENGINE_START_MS once
//     the UI has started the engine worker, whose downloads the page cannot see),
//   - window.gongzhuBoot.fail(reason, detail) from the UI (ui/main.py: the engine worker did not start)
// turns the loading box into a message in the player's language with "Try again" (a reload), and
// sets <html data-phase="error">. Offline on a first visit (no service worker yet), the message says
// the game needs one online visit. Once the engine is ready, the watchdog stops.
// A report outranks a guess, whatever comes first: the engine's own report ("engine": a file it
// needs is missing or refused) over what the page saw fail ("failed"), both over the stall timer's
// "no progress" (told as "failed" too). A weaker report never replaces the message; a stronger one
// replaces it even after the stall timer has shown its text (state.reason is the strongest so far).
// The limits are window.gongzhuBootLimits = {stallMs, engineStartMs} when set before this script
// (the tests that race the watchdog set them; the page itself never does).
// While a first visit downloads the engine, the loading screen says how much has arrived
// (progress({received, total}) from web/engine.js: "Downloading the game: 1.2 of 5.0 MB", then
// "Starting the game engine…"), as #load-progress, and each step is a gongzhu:load-progress event
// (detail {received, total}: the UI's loading bar follows it; window.gongzhuBoot.download).
// The texts come from the translation catalogs: build.py writes them into the TEXTS line.
"use strict";
(() => {
  const TEXTS = {"en": {}}; // replaced by build.py
  // No download, no service-worker bytes and no step of the UI for this long: a failure that raised
  // nothing is told within 15 s. Starting Pyodide in the worker shows no progress to the page (its
  // downloads are the worker's) and takes up to ~20 s on a slow, busy machine: a longer wait then.
  const limits = window.gongzhuBootLimits || {};
  const STALL_MS = limits.stallMs || 12000;
  const ENGINE_START_MS = limits.engineStartMs || 40000;
  // What a failure is told as, weakest first (see above); the stall timer reports "stall".
  const RANK = { stall: 0, failed: 1, engine: 2 };
  const root = document.documentElement;
  const state = { failed: null, reason: null, fail, progress, download: null };
  window.gongzhuBoot = state;

  const watching = () => root.dataset.engine !== "ready" && root.dataset.phase !== "error";

  // The player's language, as the UI chooses it (language.js; English if that file did not load).
  function language() {
    const choose = window.gongzhuLanguage;
    return typeof choose === "function" ? choose(Object.keys(TEXTS)) : "en";
  }

  function firstVisitOffline() {
    const sw = navigator.serviceWorker;
    return navigator.onLine === false && !(sw && sw.controller);
  }

  let told = null; // the loading box that tells the failure
  function fail(reason, detail) {
    const rank = RANK[reason] === undefined ? RANK.failed : RANK[reason];
    if (state.failed ? rank <= RANK[state.reason] : !watching()) return;
    state.reason = reason in RANK ? reason : "failed";
    state.failed = firstVisitOffline() ? "offline" : reason === "engine" ? "engine" : "failed";
    console.warn("gongzhu: the game did not load:", detail || reason);
    clearTimeout(stallTimer);
    // A file of the page can fail before its body is parsed (the UI's runtime is asked for from
    // <head>): told once the page's loading box exists, in its place.
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", tell, { once: true });
    else tell();
  }

  function tell() {
    const lang = language();
    const texts = TEXTS[lang] || TEXTS.en;
    const box = document.createElement("div");
    box.className = "loading";
    box.dataset.testid = "loading";
    box.setAttribute("role", "alert");
    const message = document.createElement("p");
    message.id = "status";
    message.textContent = texts[state.failed];
    const retry = document.createElement("button");
    retry.type = "button";
    retry.className = "btn primary";
    retry.dataset.testid = "retry";
    retry.textContent = texts.retry;
    retry.addEventListener("click", () => location.reload());
    box.append(message, retry);
    const overlay = document.getElementById("overlay");
    if (told && told.isConnected) told.replaceWith(box); // a stronger report: the same place
    else if (overlay) overlay.replaceChildren(box);
    else document.body.append(box);
    told = box;
    root.lang = (window.gongzhuLanguage && window.gongzhuLanguage.HTML_LANG[lang]) || lang;
    root.dataset.phase = "error";
    if (downloadEl) downloadEl.hidden = true;
    retry.focus();
  }

  // The engine's download, in the player's language, under the spinner (outside the regions the UI
  // redraws); hidden once the engine is ready or the load failed.
  let downloadEl = null;
  function showDownload(received, total) {
    state.download = { received, total };
    if (document.body && watching() && !state.failed) {
      if (!downloadEl) {
        downloadEl = document.createElement("p");
        downloadEl.id = "load-progress";
        downloadEl.dataset.testid = "load-progress";
        downloadEl.setAttribute("aria-live", "polite");
        downloadEl.style.cssText = "position:fixed;left:0;right:0;margin:0 auto;text-align:center;" +
          "top:calc(50% + 64px);z-index:11;pointer-events:none;font-size:14px;color:#f4f1e8";
        document.body.append(downloadEl);
      }
      const lang = language();
      const texts = TEXTS[lang] || TEXTS.en;
      const mb = (n) => (n / 1e6).toLocaleString(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
      downloadEl.textContent = received >= total ? texts.starting
        : texts.downloading.replace("{received}", mb(received)).replace("{total}", mb(total));
      downloadEl.dataset.received = String(received);
      downloadEl.dataset.total = String(total);
    }
    dispatchEvent(new CustomEvent("gongzhu:load-progress", { detail: state.download }));
  }

  // Progress: something arrived (a download, a step of the UI or of the engine's boot).
  // progress("engine") from the UI: the engine worker is starting (the longer wait from now on);
  // progress({received, total}): bytes of the engine's download (web/engine.js).
  let stallTimer = 0;
  let stallMs = STALL_MS;
  function progress(step) {
    if (step === "engine") stallMs = ENGINE_START_MS;
    if (step && typeof step === "object") showDownload(Number(step.received), Number(step.total));
    clearTimeout(stallTimer);
    if (watching() && !state.failed) stallTimer = setTimeout(() => fail("stall", "no progress"), stallMs);
  }
  progress();

  addEventListener(
    "error",
    (event) => {
      const target = event.target;
      if (target instanceof HTMLScriptElement || target instanceof HTMLLinkElement) {
        fail("failed", `${target.src || target.href} did not load`);
      } else if (event instanceof ErrorEvent) {
        fail("failed", event.message);
      }
    },
    true,
  );
  addEventListener("unhandledrejection", (event) => fail("failed", String(event.reason)));

  let resources = null;
  try {
    resources = new PerformanceObserver(() => progress());
    resources.observe({ type: "resource" });
  } catch {
    // no PerformanceObserver: the UI's own signals still count as progress
  }
  // PyScript shows its errors as .py-error elements appended to <body>; a ready engine ends the watch.
  const watch = new MutationObserver(() => {
    if (!watching()) {
      clearTimeout(stallTimer);
      if (downloadEl) downloadEl.hidden = true;
      watch.disconnect();
      if (resources) resources.disconnect();
      return;
    }
    const error = document.querySelector("body > .py-error");
    if (error) fail("failed", error.textContent);
  });
  watch.observe(root, { attributes: true, attributeFilter: ["data-phase", "data-engine"] });
  addEventListener("DOMContentLoaded", () => watch.observe(document.body, { childList: true }), { once: true });
})();
