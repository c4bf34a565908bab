#!/usr/bin/env python3
"""Hard's decision time in headless Chromium (Pyodide worker) and the main thread meanwhile.

Opens the game with the Hard level (``?fast=1``: the opponents decide back to back, the hardest
case for the main thread), plays whole hands by clicking, asks for a Hint on every turn of
yours and plays it, and reads the page's own ``gongzhu:decision`` / ``gongzhu:hint`` performance measures
(from the UI's request to the worker until its answer) and the main-thread long tasks.

``--near-end`` starts from a saved match whose lowest total is within reach of −1000 (a real one:
Normal plays hands of match ``S`` until then), so Hard's decisions use the match objective
(gongzhu/ai/match.py) from the first hand.

Usage: python bench/browser_ai.py [--no-build] [--hands N] [--seed S] [--near-end] [--json FILE]
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
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError  # noqa: E402

import build  # noqa: E402
from tools.browser import CHROMIUM, CHROMIUM_ARGS, LONG_TASK_OBSERVER, expose_none, settle  # noqa: E402


def measures(page: Page, name: str) -> list[float]:
    return [
        float(d)
        for d in page.evaluate(f"performance.getEntriesByName('gongzhu:{name}').map(e => e.duration)")
    ]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def next_hand(page: Page) -> None:
    """Click "Next hand". A redraw may replace the button just as the click lands, and Playwright
    then reports it detached although the click went through: what counts is the phase moving on."""
    try:
        page.click("[data-testid=next-hand]", timeout=10_000)
    except PlaywrightTimeoutError:
        if page.evaluate("document.documentElement.dataset.phase") == "hand-over":
            raise
    page.wait_for_selector("[data-testid=hand-summary]", state="detached")


def play_hands(page: Page, hands: int) -> None:
    done = 0
    while done < hands:
        current = settle(page, timeout_ms=300_000)
        if current == "match-over":
            # (the summary is redrawn at each of the coach's steps: a pointer click may never find it still)
            page.evaluate("document.querySelector('[data-testid=play-again]').click()")
        elif current == "hand-over":
            done += 1
            if done < hands:
                next_hand(page)
        elif current == "expose":
            expose_none(page)
        else:
            count = len(measures(page, "hint"))
            page.click("[data-testid=hint]")
            page.wait_for_function(
                f"performance.getEntriesByName('gongzhu:hint').length > {count}", timeout=120_000
            )
            settle(page, timeout_ms=300_000)
            before = len(page.eval_on_selector_all("#hand [data-card]", "els => els"))
            page.click("[data-testid=play]")  # plays the card the hint selected
            page.wait_for_function(f"document.querySelectorAll('#hand [data-card]').length < {before}")


def near_end_save(seed: int) -> str:
    """A save (as the e2e tests write them) of match ``seed`` at the first hand that may end it."""
    from gongzhu.ai import NormalPlayer
    from gongzhu.ai.match import match_in_reach
    from gongzhu.game import apply_legal, new_match
    from gongzhu.simulate import play_hand
    from tools.replay import op, save_text

    state = new_match(seed)
    players = [NormalPlayer(seed, s) for s in range(4)]
    while not match_in_reach(state["totals"]):
        state, _log = play_hand(state, players)
        if state["phase"] == "match_over":
            state = new_match(seed := seed + 1)
        else:
            state = apply_legal(state, {"type": "next_hand"})
    packed = op("bots_expose", state=json.dumps(state), level="hard")
    return save_text(packed, hand_level="hard")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-build", action="store_true")
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--near-end", action="store_true", help="start from a match that may end soon")
    args = parser.parse_args()
    if not args.no_build:
        build.build()
    site = build.serve_in_thread(build.DIST, "/gongzhu/")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        context.add_init_script(LONG_TASK_OBSERVER)
        context.add_init_script(
            "localStorage.setItem('gongzhu.settings.v1', JSON.stringify({level: 'hard'}))"
        )
        if args.near_end:
            save = json.dumps(near_end_save(args.seed))
            context.add_init_script(
                "if (!sessionStorage.getItem('bench-save')) {"
                f" localStorage.setItem('gongzhu.save.v1', {save}); sessionStorage.setItem('bench-save', '1'); }}"
            )
        page = context.new_page()
        # (a seed in the address would ask whether to leave the saved match)
        page.goto(f"{site.url}?fast=1" if args.near_end else f"{site.url}?seed={args.seed}&fast=1")
        settle(page, timeout_ms=300_000)
        page.evaluate("window.__gongzhuLongTasks = []")  # start-up is bench/load.py's business
        play_hands(page, args.hands)
        decisions, hints = measures(page, "decision"), measures(page, "hint")
        tasks = [float(t["duration"]) for t in page.evaluate("window.__gongzhuLongTasks || []")]
        browser.close()
    site.shutdown()
    report: dict[str, Any] = {"hands": args.hands, "level": "hard", "near_end": args.near_end}
    for name, values in (("decision", decisions), ("hint", hints)):
        report[name] = {
            "count": len(values),
            "p50_ms": round(statistics.median(values), 1),
            "p95_ms": round(percentile(values, 0.95), 1),
            "max_ms": round(max(values), 1),
        }
    report["main_thread_longest_task_ms"] = round(max(tasks, default=0.0), 1)
    report["main_thread_tasks_over_50ms"] = len(tasks)
    print("| measure | count | p50 ms | p95 ms | max ms |\n|---|---:|---:|---:|---:|")
    for name in ("decision", "hint"):
        r = report[name]
        print(
            f"| Hard {name} (worker round trip) | {r['count']} | {r['p50_ms']} | {r['p95_ms']} | {r['max_ms']} |"
        )
    print(f"\nLongest main-thread task while Hard thinks: {report['main_thread_longest_task_ms']} ms "
          f"({report['main_thread_tasks_over_50ms']} tasks over 50 ms)")  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
