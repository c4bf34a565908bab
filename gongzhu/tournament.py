"""Duplicate tournaments: how much better one player is than another, with a confidence interval.

Each deal is one hand (hand 1 of ``new_match(deal_seed)``, so the 2S holder leads) played four
times with the same cards: the challenger in each seat in turn against three copies of the baseline.
A seating's margin is the challenger's hand score minus the mean of the three baselines'; a deal's
margin is the mean over its four seatings, and the deals are the independent units of the interval
(mean ± 1.96·sd/√n).  Deal ``i`` of a run with seed ``S`` uses deal seed ``S * 100000 + i``.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .agent import close_player, make_any_player
from .game import new_match
from .simulate import play_hand

DEAL_SEED_STRIDE = 100_000


def deal_seed(seed: int, deal: int) -> int:
    return seed * DEAL_SEED_STRIDE + deal


@dataclass
class DealResult:
    deal: int
    margins: list[float]  # one per seating (challenger in seat 0, 1, 2, 3)
    challenger_scores: list[int]
    baseline_scores: list[float]  # mean of the three baselines, per seating
    decision_times: list[float] = field(default_factory=list)  # the challenger's, in seconds

    @property
    def margin(self) -> float:
        return sum(self.margins) / len(self.margins)


def play_deal(challenger: str, baseline: str, seed: int, deal: int) -> DealResult:
    """The four seatings of one deal."""
    dseed = deal_seed(seed, deal)
    result = DealResult(deal, [], [], [])
    for seat in range(4):
        specs = [challenger if s == seat else baseline for s in range(4)]
        players = [make_any_player(spec, dseed, s) for s, spec in enumerate(specs)]

        def clock(decider: int, seconds: float, timed: int = seat) -> None:
            if decider == timed:
                result.decision_times.append(seconds)

        try:
            _state, log = play_hand(new_match(dseed), players, clock)
        finally:
            for player in players:
                close_player(player)
        scores: list[int] = log["scores"]
        others = (sum(scores) - scores[seat]) / 3
        result.margins.append(scores[seat] - others)
        result.challenger_scores.append(scores[seat])
        result.baseline_scores.append(others)
    return result


def _play_deal_args(args: tuple[str, str, int, int]) -> DealResult:
    return play_deal(*args)


def run_tournament(challenger: str, baseline: str, deals: int, seed: int, jobs: int = 1) -> dict[str, Any]:
    """Play ``deals`` duplicate deals and summarise the challenger's margin (see the module doc)."""
    start = time.perf_counter()
    tasks = [(challenger, baseline, seed, d) for d in range(deals)]
    if jobs > 1 and deals > 1:
        with multiprocessing.get_context("fork").Pool(min(jobs, deals)) as pool:
            results = list(pool.imap_unordered(_play_deal_args, tasks, chunksize=1))
    else:
        results = [_play_deal_args(t) for t in tasks]
    results.sort(key=lambda r: r.deal)
    seconds = time.perf_counter() - start
    return summarise(challenger, baseline, seed, results, seconds)


def summarise(
    challenger: str, baseline: str, seed: int, results: list[DealResult], seconds: float
) -> dict[str, Any]:
    margins = [r.margin for r in results]
    n = len(margins)
    mean = statistics.fmean(margins) if n else 0.0
    sd = statistics.stdev(margins) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n) if n > 1 else 0.0
    times = sorted(t for r in results for t in r.decision_times)
    return {
        "challenger": challenger,
        "baseline": baseline,
        "seed": seed,
        "deals": n,
        "games": 4 * n,
        "mean_margin": round(mean, 2),
        "ci95": [round(mean - half, 2), round(mean + half, 2)],
        "sd": round(sd, 2),
        "challenger_mean_score": round(statistics.fmean(s for r in results for s in r.challenger_scores), 2)
        if n
        else 0.0,
        "baseline_mean_score": round(statistics.fmean(s for r in results for s in r.baseline_scores), 2)
        if n
        else 0.0,
        "seconds": round(seconds, 2),
        "decisions": len(times),
        "decision_ms_mean": round(1000 * statistics.fmean(times), 3) if times else 0.0,
        "decision_ms_p95": round(1000 * times[int(0.95 * (len(times) - 1))], 3) if times else 0.0,
    }


def format_report(summary: dict[str, Any]) -> str:
    low, high = summary["ci95"]
    return "\n".join(
        [
            f"{summary['challenger']} vs {summary['baseline']}: {summary['deals']} deals, "
            f"{summary['games']} games (duplicate, seed {summary['seed']})",
            f"mean margin per hand: {summary['mean_margin']:+.1f}  (95% CI {low:+.1f} .. {high:+.1f}, "
            f"sd {summary['sd']:.1f})",
            f"mean hand score: challenger {summary['challenger_mean_score']:+.1f}, "
            f"baseline {summary['baseline_mean_score']:+.1f}",
            f"time: {summary['seconds']:.1f} s; challenger decisions {summary['decisions']}, "
            f"mean {summary['decision_ms_mean']:.1f} ms, p95 {summary['decision_ms_p95']:.1f} ms",
        ]
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--challenger", required=True, help="random, easy, normal, hard or cmd:<command>")
    parser.add_argument("--baseline", required=True, help="random, easy, normal, hard or cmd:<command>")
    parser.add_argument("--deals", type=int, default=100, help="number of deals (each played 4 times)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (over deals)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def command(args: argparse.Namespace) -> int:
    if args.deals < 1 or args.jobs < 1:
        raise SystemExit("--deals and --jobs must be at least 1")
    summary = run_tournament(args.challenger, args.baseline, args.deals, args.seed, args.jobs)
    print(json.dumps(summary) if args.json else format_report(summary))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="gongzhu tournament", description=__doc__.splitlines()[0])
    add_arguments(parser)
    return command(parser.parse_args(argv))


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
