// What the game makes of the link. One definition for the page (web/pwa.js), the service worker
// (web/sw.js, importScripts) and the engine worker (web/engine-worker.js, import).
//   lean(navigator)    the link is one to spare: the player asked to save data
//                      (navigator.connection.saveData), or the browser says the link is slow
//                      (effectiveType, downlink), where it tells. On such a link the service worker
//                      does not download the build's engine snapshot (6 MB, 24 s at 2 Mbit/s); the
//                      engine makes its own snapshot after its boot instead, so the next visit is
//                      fast either way.
//   snapshotPays(link, snapshot, bootBytes)  a first visit fetches the build's snapshot rather than
//                      boot: the bytes it adds (its download, engine-worker.json "snapshot", less a
//                      boot's, "download") arrive, at the rate the page measured (web/engine.js
//                      measuredLink: bytes per second received, else the browser's estimate),
//                      before a boot's CPU time (BOOT_MS) is over. Never on a link to spare (lean).
"use strict";
self.gongzhuLink = {
  SLOW_TYPES: ["slow-2g", "2g", "3g"],
  // Below this many Mbit/s (the browser's estimate) the snapshot would take over a minute. Not higher:
  // Chromium says 1.4 until it has measured the link (effectiveType stays "4g" meanwhile).
  SLOW_MBPS: 1,
  // A cold Pyodide boot of the engine on a 2-core machine (measured: ~3 s), which a restore skips.
  BOOT_MS: 3000,
  lean(nav) {
    const link = nav && nav.connection;
    if (!link) return false;
    const downlink = Number(link.downlink);
    return Boolean(link.saveData) || this.SLOW_TYPES.includes(link.effectiveType) ||
      (downlink > 0 && downlink < this.SLOW_MBPS);
  },
  snapshotPays(link, snapshot, bootBytes) {
    if (!link || !snapshot || this.lean({ connection: link })) return false;
    const rate = Number(link.rate) > 0 ? Number(link.rate) : (Number(link.downlink) * 1e6) / 8;
    if (!(rate > 0)) return false;
    const extra = Math.max(0, (Number(snapshot.download) || 0) - (Number(bootBytes) || 0));
    return (extra * 1000) / rate < this.BOOT_MS;
  },
};
