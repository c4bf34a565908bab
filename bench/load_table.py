#!/usr/bin/env python3
"""Cold-load time to an interactive table and the longest main-thread task (Playwright + Chromium).

Builds dist/ (unless --no-build), serves it under /gongzhu/ and, for each viewport, opens the game
in a fresh browser context (empty cache, no save), then:

* first paint (``first-contentful-paint``) and ``gongzhu:table-painted`` (the table HTML filled by
  the MicroPython UI), ``gongzhu:table-ready`` (the engine worker has dealt: the table is
  interactive), all in ms since navigation start;
* a reload with the autosave present: the table paints from the save, before the engine is up;
* the longest main-thread task (PerformanceObserver ``longtask``) during start-up and while the
  Hard opponents think through a few tricks at the normal pace.

Usage: python bench/load_table.py [--no-build] [--runs N] [--json results.json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Page, sync_playwright  # noqa: E402

import build  # noqa: E402
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, LONG_TASK_OBSERVER, PHONE  # noqa: E402
from tests.e2e.game import SETTLED_JS, playable  # noqa: E402

VIEWPORTS = {"phone": PHONE, "desktop": {"viewport": {"width": 1280, "height": 800}}}


def marks(page: Page) -> dict[str, float]:
    entries = page.evaluate(
        "performance.getEntriesByType('mark').concat(performance.getEntriesByType('paint'))"
        ".map(m => [m.name, m.startTime])"
    )
    return {str(n).replace("gongzhu:", ""): float(t) for n, t in entries}


def worst_task(page: Page) -> float:
    tasks = page.evaluate("window.__gongzhuLongTasks || []")
    return max((float(t["duration"]) for t in tasks), default=0.0)


def one_run(browser: Any, site: build.SiteServer, options: dict[str, Any]) -> dict[str, float]:
    context = browser.new_context(**options)
    context.add_init_script(LONG_TASK_OBSERVER)
    context.add_init_script("localStorage.setItem('gongzhu.settings.v1', JSON.stringify({level: 'hard'}))")
    page = context.new_page()
    page.goto(site.url + "?seed=2")
    page.wait_for_function(SETTLED_JS, timeout=120_000)
    cold = marks(page)
    startup_worst = worst_task(page)
    # the opponents think (Hard, normal pace) through a few tricks
    page.evaluate("window.__gongzhuLongTasks = []")
    for _ in range(3):
        page.wait_for_function(SETTLED_JS, timeout=120_000)
        if page.evaluate("document.documentElement.dataset.phase") == "expose":
            page.click("[data-testid=expose-none]")
            page.wait_for_selector("[data-testid=expose-none]", state="detached")
            continue
        code = playable(page)[0]
        page.click(f'#hand [data-card="{code}"]')
        page.click("[data-testid=play]")
        page.wait_for_selector(f'#hand [data-card="{code}"]', state="detached")
    page.wait_for_function(SETTLED_JS, timeout=120_000)
    play_worst = worst_task(page)
    page.reload()
    page.wait_for_function(SETTLED_JS, timeout=120_000)
    warm = marks(page)
    context.close()
    return {
        "first_paint_ms": cold.get("first-contentful-paint", 0.0),
        "table_painted_ms": cold["table-painted"],
        "interactive_ms": cold["table-ready"],
        "startup_longest_task_ms": startup_worst,
        "play_longest_task_ms": play_worst,
        "resume_table_painted_ms": warm["table-painted"],
        "resume_interactive_ms": warm["table-ready"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-build", action="store_true")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    if not args.no_build:
        build.build()
    site = build.serve_in_thread(build.DIST, "/gongzhu/")
    report: dict[str, dict[str, float]] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for name, options in VIEWPORTS.items():
            runs = [one_run(browser, site, options) for _ in range(args.runs)]
            summary = {}
            for key in runs[0]:
                values = [r[key] for r in runs]
                summary[key] = statistics.median(values) if not key.endswith("task_ms") else max(values)
            report[name] = summary
            print(f"{name:8s} " + "  ".join(f"{k}={v:.0f}" for k, v in summary.items()), flush=True)
        browser.close()
    site.shutdown()
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
