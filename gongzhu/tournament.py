"""Duplicate tournaments: how much better one player is than another, with a confidence interval.

Each deal is one hand (hand 1 of ``new_match(deal_seed)``, so the 2S holder leads) played four
times with the same cards: the challenger in each seat in turn against three copies of the baseline.
A seating's margin is the challenger's hand score minus the mean of the three baselines'; a deal's
margin is the mean over its four seatings, and the deals are the independent units of the interval
(mean ± 1.96·sd/√n).  Deal ``i`` of a run with seed ``S`` is ``new_match(tournament_deal_seed(S, i))``
(see :mod:`gongzhu.rng`: runs with different seeds never share a deal).

With ``--jobs N``, worker ``k`` plays deals ``k, k + N, …``; results are summed as they come
(:class:`Tally`), so memory does not grow with ``--deals``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import multiprocessing
import os
import pickle
import signal
import sys
import time
from collections import Counter
from collections.abc import Generator, Iterable, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from types import FrameType
from typing import Any

from .agent import (
    DEFAULT_TIMEOUT,
    check_player_spec,
    close_player,
    finish_player,
    kill_running_bots,
    make_any_player,
)
from .cli import UsageError, add_bot_timeout, bot_timeout
from .game import new_match
from .rng import DEAL_NUMBER_BITS, tournament_deal_seed
from .simulate import play_hand

MAX_DEALS = 1 << DEAL_NUMBER_BITS
_WORKER_GRACE = 5.0  # seconds a stopped worker gets to end before it is killed


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


def play_deal(
    challenger: str, baseline: str, seed: int, deal: int, bot_timeout: float = DEFAULT_TIMEOUT
) -> DealResult:
    """The four seatings of one deal."""
    dseed = tournament_deal_seed(seed, deal)
    result = DealResult(deal, [], [], [])
    for seat in range(4):
        specs = [challenger if s == seat else baseline for s in range(4)]
        players = []
        try:
            for s, spec in enumerate(specs):
                players.append(make_any_player(spec, dseed, s, bot_timeout))

            def clock(decider: int, seconds: float, timed: int = seat) -> None:
                if decider == timed:
                    result.decision_times.append(seconds)

            _state, log = play_hand(new_match(dseed), players, clock)
            for player in players:
                finish_player(player)
        finally:
            for player in players:
                close_player(player)
        scores: list[int] = log["scores"]
        others = (sum(scores) - scores[seat]) / 3
        result.margins.append(scores[seat] - others)
        result.challenger_scores.append(scores[seat])
        result.baseline_scores.append(others)
    return result


def _stop_now(_signum: int, _frame: FrameType | None) -> None:
    """A worker told to stop (SIGTERM) kills its bots' process groups and exits on the spot."""
    kill_running_bots()
    os._exit(1)


def _worker(
    out: Connection, challenger: str, baseline: str, seed: int, deals: range, bot_timeout: float
) -> None:
    """Play ``deals`` in a worker process, sending each result (or the error that stopped it)."""
    signal.signal(signal.SIGTERM, _stop_now)
    try:
        for deal in deals:
            out.send(play_deal(challenger, baseline, seed, deal, bot_timeout))
    except Exception as error:
        try:
            message = pickle.dumps(error)
        except Exception:  # an error that cannot be pickled is sent as its text
            message = pickle.dumps(RuntimeError(f"{type(error).__name__}: {error}"))
        with contextlib.suppress(OSError):  # the parent may have gone
            out.send_bytes(message)
    finally:
        out.close()


def _play_in_workers(
    challenger: str, baseline: str, deals: int, seed: int, jobs: int, bot_timeout: float
) -> Generator[DealResult, None, None]:
    """Results from ``jobs`` worker processes, worker ``k`` playing deals ``k, k + jobs, …``.

    Each worker has its own pipe and no lock is shared, so stopping them (after an error, or when
    the caller stops early) cannot deadlock; their bots are killed with them.
    """
    context = multiprocessing.get_context("fork")
    workers: dict[Connection, BaseProcess] = {}
    try:
        for first in range(jobs):
            reader, writer = context.Pipe(duplex=False)
            deal_numbers = range(first, deals, jobs)
            args = (writer, challenger, baseline, seed, deal_numbers, bot_timeout)
            process = context.Process(target=_worker, args=args, daemon=True)
            process.start()
            writer.close()
            workers[reader] = process
        while workers:
            for ready in wait(list(workers)):
                assert isinstance(ready, Connection)
                try:
                    item = ready.recv()
                except EOFError:
                    ended = workers.pop(ready)
                    ended.join(timeout=_WORKER_GRACE)
                    if ended.exitcode != 0:
                        raise RuntimeError(
                            f"tournament worker stopped (exit code {ended.exitcode})"
                        ) from None
                    continue
                if isinstance(item, BaseException):
                    raise item
                yield item
    finally:
        _stop_workers(list(workers.values()))
        for reader in workers:
            reader.close()


def _stop_workers(processes: list[BaseProcess]) -> None:
    for process in processes:
        if process.exitcode is None:
            process.terminate()
    for process in processes:
        process.join(timeout=_WORKER_GRACE)
        if process.exitcode is None:
            process.kill()
            process.join(timeout=_WORKER_GRACE)


def run_tournament(
    challenger: str,
    baseline: str,
    deals: int,
    seed: int,
    jobs: int = 1,
    bot_timeout: float = DEFAULT_TIMEOUT,
) -> dict[str, Any]:
    """Play ``deals`` duplicate deals and summarise the challenger's margin (see the module doc)."""
    start = time.perf_counter()
    tally = Tally()
    results: Generator[DealResult, None, None]
    if jobs > 1 and deals > 1:
        results = _play_in_workers(challenger, baseline, deals, seed, min(jobs, deals), bot_timeout)
    else:
        results = (play_deal(challenger, baseline, seed, d, bot_timeout) for d in range(deals))
    with contextlib.closing(results):  # workers stop even if summing fails
        for result in results:
            tally.add(result)
    return tally.summary(challenger, baseline, seed, time.perf_counter() - start)


class Tally:
    """A tournament's results summed deal by deal: exact, and the same in any order of arrival.

    A deal's margin is a whole number of twelfths (hand scores are whole; a seating's margin
    subtracts a mean of three, and a deal's margin is a mean of four), so sums are kept in integers.
    """

    def __init__(self) -> None:
        self.deals = 0  # deals added
        self.margin_sum = 0  # sum of the deal margins, in twelfths
        self.margin_squares = 0  # sum of the squared deal margins, in twelfths squared
        self.seatings = 0  # seatings added (four per deal)
        self.challenger_sum = 0  # the challenger's hand scores, summed over seatings
        self.baseline_sum = 0  # the baselines' hand scores, summed over seatings (three each)
        self.decision_us: Counter[int] = Counter()  # challenger decision times: microseconds -> count

    def add(self, result: DealResult) -> None:
        twelfths = round(12 * result.margin)
        self.deals += 1
        self.margin_sum += twelfths
        self.margin_squares += twelfths * twelfths
        self.seatings += len(result.challenger_scores)
        self.challenger_sum += sum(result.challenger_scores)
        self.baseline_sum += sum(round(3 * b) for b in result.baseline_scores)
        self.decision_us.update(round(1_000_000 * t) for t in result.decision_times)

    def _decision_ms_p95(self) -> float:
        rank = int(0.95 * (self.decision_us.total() - 1))
        for micros in sorted(self.decision_us):
            rank -= self.decision_us[micros]
            if rank < 0:
                return micros / 1000
        return 0.0

    def summary(self, challenger: str, baseline: str, seed: int, seconds: float) -> dict[str, Any]:
        n = self.deals
        mean = self.margin_sum / n / 12 if n else 0.0
        variance = (n * self.margin_squares - self.margin_sum**2) / (n * (n - 1)) if n > 1 else 0.0
        sd = math.sqrt(variance) / 12
        half = 1.96 * sd / math.sqrt(n) if n > 1 else 0.0
        decisions = self.decision_us.total()
        micros = sum(us * count for us, count in self.decision_us.items())
        return {
            "challenger": challenger,
            "baseline": baseline,
            "seed": seed,
            "deals": n,
            "games": 4 * n,
            "mean_margin": round(mean, 2),
            "ci95": [round(mean - half, 2), round(mean + half, 2)],
            "sd": round(sd, 2),
            "challenger_mean_score": round(self.challenger_sum / self.seatings, 2) if n else 0.0,
            "baseline_mean_score": round(self.baseline_sum / (3 * self.seatings), 2) if n else 0.0,
            "seconds": round(seconds, 2),
            "decisions": decisions,
            "decision_ms_mean": round(micros / decisions / 1000, 3) if decisions else 0.0,
            "decision_ms_p95": round(self._decision_ms_p95(), 3) if decisions else 0.0,
        }


def summarise(
    challenger: str, baseline: str, seed: int, results: Iterable[DealResult], seconds: float
) -> dict[str, Any]:
    tally = Tally()
    for result in results:
        tally.add(result)
    return tally.summary(challenger, baseline, seed, seconds)


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
    add_bot_timeout(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def command(args: argparse.Namespace) -> int:
    if not 1 <= args.deals <= MAX_DEALS:
        raise UsageError(f"--deals must be between 1 and {MAX_DEALS}")
    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    timeout = bot_timeout(args)
    for spec in (args.challenger, args.baseline):
        check_player_spec(spec)
    summary = run_tournament(args.challenger, args.baseline, args.deals, args.seed, args.jobs, timeout)
    print(json.dumps(summary) if args.json else format_report(summary))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m gongzhu tournament`` (errors reported as one line)."""
    from .cli import main as cli_main

    return cli_main(["tournament", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
