#!/usr/bin/env python3
"""The coach's time per hand: CPython (the service op, one small step a call) and, with ``--browser``,
headless Chromium (the page's ``gongzhu:coach`` measures: each step's request from the UI to the
worker and back, run in the background after the hand, and the time from the summary to the complete
verdict). A step is the longest a player's request can wait behind the coach in the worker.

Each hand is hand 1 of a seed, every seat played by Normal (CPython), or in the browser the player
playing the first playable card (``tools.browser.finish_hand``) against the Normal opponents.

Usage: python bench/coach.py [--hands N] [--seed S] [--browser] [--no-build] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gongzhu import service  # noqa: E402
from gongzhu.game import apply_legal, new_match  # noqa: E402


def _call(op: str, **args: Any) -> Any:
    reply = json.loads(service.call(json.dumps({"op": op, "args": args})))
    assert reply["ok"], reply
    return reply["result"]


def cpython(seeds: list[int]) -> dict[str, Any]:
    per_hand, per_step, cpu = [], [], []
    for seed in seeds:
        state = new_match(seed)
        while state["phase"] in ("expose", "play"):
            action = next(a for a in (service.bot_action(state, s, "normal") for s in range(4)) if a)
            state = apply_legal(state, action)
        text = json.dumps(state)
        start, index, count, part = time.perf_counter(), 0, 1, None
        while index < count:
            t, c = time.perf_counter(), time.process_time()
            args: dict[str, Any] = {"state": text, "index": index}
            if part is not None:
                args["part"] = part
            answer = _call("coach", **args)
            per_step.append((time.perf_counter() - t) * 1000)
            cpu.append((time.process_time() - c) * 1000)
            count, part = answer["count"], answer.get("part")
            index += part is None
        per_hand.append((time.perf_counter() - start) * 1000)
    out = _summary(per_hand, per_step)
    ordered = sorted(cpu)  # (this process's own CPU time: what the step costs, whatever the load)
    out.update(step_cpu_ms_median=round(statistics.median(cpu), 1), step_cpu_ms_max=round(max(cpu), 1))
    out["step_cpu_ms_p95"] = round(ordered[round(0.95 * (len(ordered) - 1))], 1)
    return out


def _summary(per_hand: list[float], per_step: list[float]) -> dict[str, Any]:
    ordered = sorted(per_step)
    return {
        "hands": len(per_hand),
        "steps": len(per_step),
        "hand_ms_median": round(statistics.median(per_hand)),
        "hand_ms_max": round(max(per_hand)),
        "step_ms_median": round(statistics.median(per_step)),
        "step_ms_p95": round(ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]),
        "step_ms_max": round(max(per_step)),
    }


def browser(seeds: list[int], no_build: bool) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    import build
    from tools.browser import CHROMIUM, CHROMIUM_ARGS, finish_hand, open_game

    done_js = "() => { const v = document.querySelector('[data-testid=coach-verdict]'); return v && !v.textContent.includes('…'); }"
    per_hand, per_step, walls = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        directory = build.DIST if no_build else Path(tmp) / "dist"
        if not no_build:
            build.build(directory)
        with build.serving(directory, "/gongzhu/") as site, sync_playwright() as p:
            chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for seed in seeds:
                page = chromium.new_page()
                open_game(page, site, seed=seed, coach=True)
                finish_hand(page)
                start = time.perf_counter()
                page.wait_for_function(done_js, timeout=300_000)
                walls.append((time.perf_counter() - start) * 1000)
                times = page.evaluate("performance.getEntriesByName('gongzhu:coach').map(e => e.duration)")
                per_step += [float(t) for t in times]
                per_hand.append(sum(float(t) for t in times))
                page.close()
            chromium.close()
    out = _summary(per_hand, per_step)
    out["summary_to_verdict_ms_median"] = round(statistics.median(walls))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--browser", action="store_true")
    parser.add_argument("--no-build", action="store_true")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    seeds = list(range(args.seed, args.seed + args.hands))
    result: dict[str, Any] = {"load_average": [round(x, 1) for x in os.getloadavg()]}
    result["cpython"] = cpython(seeds)
    if args.browser:
        result["browser"] = browser(seeds, args.no_build)
    text = json.dumps(result, indent=2)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")


if __name__ == "__main__":
    main()
