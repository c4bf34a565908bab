// Whether the link is one to spare: the player asked to save data (navigator.connection.saveData),
// or the browser says the link is slow (effectiveType, downlink), where it tells. One definition for
// the page (web/pwa.js) and the service worker (web/sw.js, importScripts): on such a link the
// service worker does not download the build's engine snapshot (6 MB, 24 s at 2 Mbit/s); the engine
// makes its own snapshot after its boot instead (web/engine-worker.js), so the next visit is fast
// either way.
"use strict";
self.gongzhuLink = {
  SLOW_TYPES: ["slow-2g", "2g", "3g"],
  // Below this many Mbit/s (the browser's estimate) the snapshot would take over a minute. Not higher:
  // Chromium says 1.4 until it has measured the link (effectiveType stays "4g" meanwhile).
  SLOW_MBPS: 1,
  lean(nav) {
    const link = nav && nav.connection;
    if (!link) return false;
    const downlink = Number(link.downlink);
    return Boolean(link.saveData) || this.SLOW_TYPES.includes(link.effectiveType) ||
      (downlink > 0 && downlink < this.SLOW_MBPS);
  },
};
