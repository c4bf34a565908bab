// localStorage that never throws, for the Python UI (`window.gongzhuStorage`). MicroPython 1.27
// cannot catch an exception thrown by a JavaScript call (it aborts the whole Python task), and
// localStorage throws in private mode (SecurityError on access) or when full (QuotaExceededError on
// setItem). Here every call is guarded: a refused write returns false, so the game plays on unsaved
// and says so. A refused write is never read back: when the browser has a storage that can be read,
// reads are always its own (a write it refused, e.g. when full, leaves the stored text as it was).
// Only a browser without storage (private mode, disabled: it cannot even be read) keeps the game's
// data in memory for the visit.
//   usable           true when a test write succeeded at load
//   getItem(key)     the text, or null
//   setItem(k, v)    true when stored, false when the browser refused (without storage, the text is
//                    kept in memory for this visit and read back from there)
//   removeItem(key)
//   watch(key, fn)   fn(newText) when another tab of this site writes `key` (the `storage` event;
//                    newText is null when it was removed)
"use strict";
(() => {
  const memory = new Map();
  function local() {
    try {
      return window.localStorage;
    } catch (e) {
      return null;
    }
  }
  let usable = false;
  try {
    local().setItem("gongzhu.probe", "1");
    local().removeItem("gongzhu.probe");
    usable = true;
  } catch (e) {
    usable = false;
  }
  // A storage that can be read (it may refuse writes: full): the only place data is read from.
  let present = false;
  try {
    local().getItem("gongzhu.probe");
    present = true;
  } catch (e) {
    present = false;
  }
  window.gongzhuStorage = {
    usable,
    getItem(key) {
      if (!present) return memory.has(key) ? memory.get(key) : null;
      try {
        const value = local().getItem(key);
        return value === undefined ? null : value;
      } catch (e) {
        return null;
      }
    },
    setItem(key, value) {
      try {
        local().setItem(key, String(value));
        return true;
      } catch (e) {
        if (!present) memory.set(key, String(value));
        return false;
      }
    },
    watch(key, fn) {
      window.addEventListener("storage", (event) => {
        if (event.key === key) fn(event.newValue);
      });
    },
    removeItem(key) {
      memory.delete(key);
      try {
        local().removeItem(key);
      } catch (e) {
        // nothing to remove
      }
    },
  };
})();
