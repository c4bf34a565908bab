"""The loading watchdog (web/boot.js, run by Node in a stand-in page with a clock of its own): its
limits are the ones a test injects (``window.gongzhuBootLimits``), and when the stall timer and a
report both apply, the report is told whatever the order: the engine's own report over what the page
saw fail, both over the stall timer's "no progress". The browser shows the same texts end to end
(tests/e2e/test_loading_failures.py)."""

from __future__ import annotations

import itertools
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
BOOT_JS = ROOT / "web" / "boot.js"
TEXTS = {"en": {"failed": "check your connection", "engine": "the engine did not start",
                "offline": "needs one online visit", "retry": "Try again"}}  # fmt: skip

#: Runs web/boot.js once per case: {limits, steps}; a step is "tick:MS" (the clock moves on),
#: "progress", "progress:engine", "failed", "engine" (a report) or "ready" (the engine answered).
RUN_CASES = r"""
const vm = require("node:vm");
const fs = require("node:fs");
const [source, textsJson, casesJson] = process.argv.slice(1);
const code = fs.readFileSync(source, "utf-8").replace(/const TEXTS = .*;.*$/m, `const TEXTS = ${textsJson};`);
const out = [];
for (const c of JSON.parse(casesJson)) {
  let now = 0, nextId = 1;
  const timers = new Map();
  class El {
    constructor(tag) { Object.assign(this, { tagName: tag, dataset: {}, style: {}, children: [], parent: null, textContent: "" }); }
    setAttribute() {}
    addEventListener() {}
    focus() {}
    append(...kids) { for (const k of kids) { k.parent = this; this.children.push(k); } }
    replaceChildren(...kids) { for (const k of this.children) k.parent = null; this.children = []; this.append(...kids); }
    replaceWith(other) { const i = this.parent.children.indexOf(this); this.parent.children[i] = other; other.parent = this.parent; this.parent = null; }
    get isConnected() { let e = this; while (e.parent) e = e.parent; return e === body; }
  }
  const root = new El("html"), body = new El("body"), overlay = new El("div");
  body.append(overlay);
  const observers = [];
  const page = {
    console: { warn() {} },
    navigator: { onLine: true },
    location: { reload() {} },
    document: { documentElement: root, body, createElement: (t) => new El(t),
                getElementById: (id) => (id === "overlay" ? overlay : null), querySelector: () => null },
    setTimeout: (f, ms) => { timers.set(nextId, { at: now + ms, f }); return nextId++; },
    clearTimeout: (id) => timers.delete(id),
    addEventListener() {}, dispatchEvent() {},
    CustomEvent: class {}, HTMLScriptElement: class {}, HTMLLinkElement: class {}, ErrorEvent: class {},
    MutationObserver: class { constructor(cb) { this.cb = cb; observers.push(this); } observe() {} disconnect() { this.off = true; } },
  };
  page.window = page;
  if (c.limits) page.gongzhuBootLimits = c.limits;
  vm.runInNewContext(code, page);
  const boot = page.gongzhuBoot;
  const told = [];
  const shown = () => {
    const boxes = [];
    const walk = (e) => { if (e.dataset.testid === "loading") boxes.push(e.children[0].textContent); e.children.forEach(walk); };
    walk(body);
    return boxes;
  };
  for (const step of c.steps) {
    if (step.startsWith("tick:")) {
      const until = now + Number(step.slice(5));
      for (;;) {
        const due = [...timers].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].f();
      }
      now = until;
    } else if (step === "progress") boot.progress();
    else if (step === "progress:engine") boot.progress("engine");
    else if (step === "ready") { root.dataset.engine = "ready"; observers.filter((o) => !o.off).forEach((o) => o.cb()); }
    else boot.fail(step, "a test's report");
    told.push(shown());
  }
  out.push({ told, phase: root.dataset.phase || null, failed: boot.failed });
}
console.log(JSON.stringify(out));
"""

LIMITS = {"stallMs": 5000, "engineStartMs": 7000}


def run_boot(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    answer = subprocess.run(
        [node, "-e", RUN_CASES, str(BOOT_JS), json.dumps(TEXTS), json.dumps(cases)],
        capture_output=True,
        text=True,
        check=True,
    )
    result: list[dict[str, Any]] = json.loads(answer.stdout)
    return result


def test_the_stall_limits_are_the_injected_ones() -> None:
    injected, engine_start, defaults = run_boot(
        [
            {"limits": LIMITS, "steps": ["tick:4999", "progress", "tick:4999", "tick:1"]},
            {"limits": LIMITS, "steps": ["progress:engine", "tick:6999", "tick:1"]},
            {"steps": ["tick:11999", "tick:1"]},
        ]
    )
    assert injected["told"] == [[], [], [], [TEXTS["en"]["failed"]]]
    assert engine_start["told"] == [[], [], [TEXTS["en"]["failed"]]]
    assert defaults["told"] == [[], [TEXTS["en"]["failed"]]]
    assert injected["phase"] == engine_start["phase"] == defaults["phase"] == "error"


def test_a_report_is_told_over_the_stall_timer_in_any_order() -> None:
    """The stall timer's guess, what the page saw fail, the engine's report: every order ends on the
    strongest of them, in one loading box, and a weaker one never replaces a stronger one."""
    steps = ["tick:5000", "failed", "engine"]
    orders = [
        list(p)
        for n in (2, 3)
        for chosen in itertools.combinations(steps, n)
        for p in itertools.permutations(chosen)
    ]
    results = run_boot([{"limits": LIMITS, "steps": order} for order in orders])
    for order, result in zip(orders, results, strict=True):
        strongest = "engine" if "engine" in order else "failed"
        assert result["told"][-1] == [TEXTS["en"][strongest]], (order, result)
        assert result["failed"] == strongest and result["phase"] == "error", (order, result)
        once_engine = [
            told
            for step, told in zip(order, result["told"], strict=True)
            if "engine" in order[: order.index(step) + 1]
        ]
        assert all(told == [TEXTS["en"]["engine"]] for told in once_engine), (order, result)


def test_a_ready_engine_ends_the_watch() -> None:
    (result,) = run_boot([{"limits": LIMITS, "steps": ["ready", "tick:60000", "engine", "failed"]}])
    assert result["told"] == [[], [], [], []]
    assert result["phase"] is None and result["failed"] is None
