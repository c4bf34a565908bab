"""Simulator speed and Hard's decision time.

    python bench/playouts.py [--seconds 3] [--positions 120] [--budget N]

Prints random full-hand playouts per second (fresh deal, random legal play through 13 tricks,
scoring), the same with Normal's strategy as the playout policy (Hard's inner loop), and the
distribution of Hard's decision times over positions taken from Normal-vs-Normal hands.  Times are
CPU seconds of this process (the machine is shared); wall-clock figures are shown beside them.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import replace
from typing import Any

from gongzhu.ai.config import HARD_MARGIN
from gongzhu.ai.hard import choose_expose, choose_play
from gongzhu.ai.heuristic import normal_play
from gongzhu.ai.levels import NormalPlayer
from gongzhu.ai.sim import Policy, deal_table, random_hands, random_policy, run
from gongzhu.game import apply_legal, new_match, view_for

PYODIDE_SLOWDOWN = 2.5


def playouts_per_second(policy: Policy, rng: random.Random, seconds: float) -> float:
    count = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        table = deal_table(random_hands(rng))
        run(table, policy)
        table.scores()
        count += 1
    return count / (time.process_time() - start)


def positions(count: int, seed: int) -> list[dict[str, Any]]:
    """Views where a decision is due, from Normal-vs-Normal hands (every expose and play decision)."""
    out: list[dict[str, Any]] = []
    deal = 0
    while len(out) < count:
        state = new_match(seed * 1000 + deal)
        players = [NormalPlayer(deal, s) for s in range(4)]
        for seat in range(4):
            if state["expose_choices"][seat] is None:
                view = view_for(state, seat)
                out.append(view)
                state = apply_legal(
                    state, {"type": "expose", "seat": seat, "cards": players[seat].expose(view)}
                )
        while state["phase"] == "play":
            seat = state["turn"]
            view = view_for(state, seat)
            if len(view["legal"]) > 1:
                out.append(view)
            state = apply_legal(state, {"type": "play", "seat": seat, "card": players[seat].play(view)})
        deal += 1
    random.Random(seed).shuffle(out)
    return out[:count]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--positions", type=int, default=120)
    parser.add_argument("--budget", type=int, default=HARD_MARGIN.budget)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    rand = playouts_per_second(random_policy(rng), rng, args.seconds)
    heur = playouts_per_second(normal_play, rng, args.seconds)
    print(f"random playouts/s (CPU):          {rand:10.0f}")
    print(f"Normal-policy playouts/s (CPU):   {heur:10.0f}  ({heur / rand:.2f}x random)")

    cpu: list[float] = []
    wall: list[float] = []
    for view in positions(args.positions, args.seed):
        c0, w0 = time.process_time(), time.perf_counter()
        if view["phase"] == "expose":
            choose_expose(view, 1, replace(HARD_MARGIN, budget=args.budget))
        else:
            choose_play(view, 1, replace(HARD_MARGIN, budget=args.budget))
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    print(f"Hard decisions: {len(cpu)} positions, budget {args.budget} simulated plays")
    for name, values in (("CPU", cpu), ("wall", wall)):
        p50, p95, top = percentile(values, 0.5), percentile(values, 0.95), max(values)
        print(f"  {name:4s} p50 {p50 * 1000:7.1f} ms   p95 {p95 * 1000:7.1f} ms   max {top * 1000:7.1f} ms")
    p95 = percentile(cpu, 0.95)
    print(
        f"  Pyodide estimate (x{PYODIDE_SLOWDOWN}): p95 {p95 * PYODIDE_SLOWDOWN * 1000:.0f} ms "
        f"({p95 * PYODIDE_SLOWDOWN:.2f} of the 1 s limit)"
    )


if __name__ == "__main__":
    main()
