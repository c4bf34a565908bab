// Engine watchdog for the Python UI (`window.gongzhuEngine`). MicroPython 1.27 can neither catch a
// rejected JavaScript promise's exception reliably nor use asyncio.wait_for on one, so the race
// happens here and always *resolves*:
//   answer(promise, ms)  the worker's answer, or null when it failed or took longer than ms
"use strict";
window.gongzhuEngine = {
  answer(promise, ms) {
    const timer = new Promise((resolve) => setTimeout(() => resolve(null), ms));
    return Promise.race([Promise.resolve(promise).then((value) => value, () => null), timer]);
  },
};
