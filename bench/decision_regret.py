"""Paired A/B of Hard's decisions on recorded positions, judged in the true deal: a quick, low-noise
check of a change to Hard's search before a tournament.

    python bench/decision_regret.py record --deals 40 --seed 7 --out positions.jsonl   # old version
    python bench/decision_regret.py compare positions.jsonl [--jobs 2] [--budget N]     # new version

(run ``record`` with the version to compare against checked out, ``compare`` with the new one).

``record`` plays hand 1 of each deal with Hard in each seat against three Normals and writes, for
every play decision Hard made that was not forced, its view, the true hands, the open-hand search's
value of every legal card in the true deal (bench/open_hand.py) and Hard's card.  ``compare``
lets the current Hard decide again from each recorded view and prints its mean *regret* (the best
card's true value minus its card's) beside the recorded Hard's, their paired difference with a 95%
interval (mean ± 1.96·sd/√n over positions, :mod:`gongzhu.stats`), by trick, and Hard's CPU time
per decision.  A regret is clairvoyant (some of it no player can avoid); the difference between two
versions is what this measures.  Decisions differ between versions only where the change acts, so
a tournament's per-deal noise (whole hands diverging) is absent: 1,677 positions (40 deals) resolve
about ±3.6 points of mean regret, where 400 tournament deals resolve about ±13 points of margin.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
import time
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from open_hand import JudgedHard

from gongzhu.ai import NormalPlayer
from gongzhu.ai.config import HARD_MARGIN
from gongzhu.ai.hard import choose_play
from gongzhu.ai.search import Evaluation
from gongzhu.cards import DECK
from gongzhu.game import View, new_match
from gongzhu.rng import tournament_deal_seed
from gongzhu.simulate import play_hand
from gongzhu.stats import mean_interval95

Position = dict[str, Any]  # view, seed, true (card -> value in the true deal), chosen (recorded Hard's card)


class Recorder(JudgedHard):
    """Records each of Hard's play decisions with the true deal's values."""

    def __init__(self, seed: int, seat: int) -> None:
        super().__init__(seed, seat)
        self.positions: list[Position] = []  # one per play decision that was not forced

    def judge_play(self, view: View, card: str, true: Evaluation) -> None:
        values = {DECK[c]: v for c, v in true.values.items()}
        self.positions.append({"view": view, "seed": self.seed, "true": values, "chosen": card})


def record_deal(task: tuple[int, int]) -> list[Position]:
    seed, deal = task
    dseed = tournament_deal_seed(seed, deal)
    positions: list[Position] = []
    for seat in range(4):
        recorder = Recorder(dseed, seat)
        players = [recorder if s == seat else NormalPlayer(dseed, s) for s in range(4)]
        play_hand(new_match(dseed), players)
        positions += recorder.positions
    return positions


def decide(position: Position, budget: int = HARD_MARGIN.budget) -> tuple[int, float, float, float]:
    """(tricks done, current Hard's regret, recorded Hard's regret, CPU seconds)."""
    start = time.process_time()
    card, _ = choose_play(position["view"], position["seed"], replace(HARD_MARGIN, budget=budget))
    cpu = time.process_time() - start
    true: dict[str, float] = position["true"]
    best = max(true.values())
    return len(position["view"]["tricks"]), best - true[card], best - true[position["chosen"]], cpu


def report(results: list[tuple[int, float, float, float]]) -> str:
    n = len(results)
    difference = mean_interval95([new - old for _, new, old, _ in results])
    cpu = sorted(r[3] for r in results)
    lines = [
        f"{n} positions: mean regret {statistics.mean(r[1] for r in results):.2f} (recorded Hard "
        f"{statistics.mean(r[2] for r in results):.2f}), paired difference {difference.mean:+.2f} "
        f"± {difference.half_width:.2f}",
        f"CPU per decision: mean {1000 * statistics.mean(cpu):.0f} ms, p95 {1000 * cpu[int(0.95 * n)]:.0f} ms",
    ]
    for first in range(0, 13, 3):
        part = [r for r in results if first <= r[0] < first + 3]
        if part:
            lines.append(
                f"  tricks {first + 1}–{first + 3}: {len(part)} positions, regret "
                f"{statistics.mean(r[1] for r in part):.2f} (recorded {statistics.mean(r[2] for r in part):.2f})"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    rec = commands.add_parser("record")
    rec.add_argument("--deals", type=int, default=40)
    rec.add_argument("--seed", type=int, default=7)
    rec.add_argument("--out", required=True)
    rec.add_argument("--jobs", type=int, default=2)
    cmp = commands.add_parser("compare")
    cmp.add_argument("positions")
    cmp.add_argument("--jobs", type=int, default=2)
    cmp.add_argument("--budget", type=int, default=HARD_MARGIN.budget, help="the current Hard's budget")
    args = parser.parse_args()
    with multiprocessing.Pool(args.jobs) as pool:
        if args.command == "record":
            with Path(args.out).open("w") as out:
                for positions in pool.imap(record_deal, [(args.seed, d) for d in range(args.deals)]):
                    out.writelines(json.dumps(p) + "\n" for p in positions)
        else:
            lines = Path(args.positions).read_text().splitlines()
            positions = [json.loads(line) for line in lines]
            print(report(pool.map(partial(decide, budget=args.budget), positions, chunksize=8)))


if __name__ == "__main__":
    main()
