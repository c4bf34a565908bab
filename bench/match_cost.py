"""What playing for the match costs Hard per decision, in CPython (the browser budget's share).

    python bench/match_cost.py [--positions 60] [--seed 1]

The same decision views (from bench/playouts.py: Normal-vs-Normal hands) are decided twice by Hard
at its browser budget: with totals far from the end (the hand margin) and with the deciding seat's
right-hand neighbour at −900 (the match objective, :mod:`gongzhu.ai.match`).  The work is a fixed
number of simulated plays either way, so the ratio of the two times is what match awareness adds;
the browser decision time (bench/browser_ai.py) scales with it.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playouts import percentile, positions

from gongzhu.ai.config import HARD
from gongzhu.ai.hard import choose_expose, choose_play
from gongzhu.ai.match import match_in_reach


def decide(view: dict[str, object]) -> float:
    start = time.process_time()
    if view["phase"] == "expose":
        choose_expose(view, 1, HARD)
    else:
        choose_play(view, 1, HARD)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    margin: list[float] = []
    match: list[float] = []
    for view in positions(args.positions, args.seed):
        near_end = [0, 0, 0, 0]
        near_end[(view["seat"] + 1) % 4] = -900
        assert match_in_reach(near_end)
        margin.append(decide(view))
        match.append(decide(dict(view, totals=near_end)))
    print(f"Hard decisions, {len(margin)} positions, CPU time (ms):")
    for name, values in (("hand margin", margin), ("match objective", match)):
        print(
            f"  {name:15s} p50 {1000 * percentile(values, 0.5):7.1f}   p95 {1000 * percentile(values, 0.95):7.1f}"
        )
    print(f"  total match / margin: {sum(match) / sum(margin):.3f}")


if __name__ == "__main__":
    main()
