"""Duplicate tournaments: how much better one player is than another, with a confidence interval.

Each deal is one hand (hand 1 of ``new_match(deal_seed, rules)``, so the holder of the rules' first-lead
card, 2S by default, leads) played four
times with the same cards: the challenger in each seat in turn against three copies of the baseline.
A seating's margin is the challenger's hand score minus the mean of the three baselines'; a deal's
margin is the mean over its four seatings, and the deals are the independent units of the interval
(mean ± 1.96·sd/√n, :mod:`gongzhu.stats`).  Deal ``i`` of a run with seed ``S`` is
``new_match(tournament_deal_seed(S, i))`` (see :mod:`gongzhu.rng`: runs with different seeds never
share a deal).

Matches (``--matches N``): match ``i`` is the whole match ``new_match(tournament_deal_seed(S, i))``
(the same sequence of deals, hand after hand) played four times, the challenger in each seat against
three baselines.  The challenger *wins* a match when it is the single leader at the end: the match
ends only when someone is at −1000 or less (or the house rules' end: ``--rules``) and exactly one
player has the highest total
(docs/rules.md), so a tie at the top is never a result and every finished match has one winner.  A
match still running after ``MAX_MATCH_HANDS`` hands counts as not won (``match_unfinished``).  The
win rate is wins / (4·N); its 95% interval is a percentile bootstrap over the N duplicate groups
(the four seatings of a match share their deals, so they are resampled together), with
``BOOTSTRAP_SAMPLES`` resamples from a fixed seed, so a run's interval is reproducible.

With ``--jobs N``, worker ``k`` plays tasks ``k, k + N, …`` (the deals, then the matches); results
are summed as they come (:class:`Tally`), so memory does not grow with ``--deals`` or ``--matches``.

``--open-hand`` seats the benchmarks' open-hand reference player (:mod:`gongzhu.open_hand`, which
reads every hand) as the challenger; nothing else can seat it.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import multiprocessing
import os
import pickle
import random
import signal
import sys
import time
from collections import Counter
from collections.abc import Generator, Iterable, Iterator, Sequence
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
from .cli import UsageError, add_bot_timeout, add_rules_argument, bot_timeout, rules_argument
from .game import State, apply_legal, new_match
from .house_rules import DEFAULT_RULES, Rules
from .open_hand import OPEN_HAND, OpenHandPlayer
from .players import Player
from .rng import DEAL_NUMBER_BITS, tournament_deal_seed
from .simulate import DecisionClock, play_hand
from .stats import mean_interval95_of_sums

MAX_DEALS = 1 << DEAL_NUMBER_BITS
MAX_MATCH_HANDS = 100  # a match still running after this many hands counts as not won
BOOTSTRAP_SAMPLES = 2000  # resamples of the duplicate groups for the match win rate's interval
_WORKER_GRACE = 5.0  # seconds a stopped worker gets to end before it is killed


def interval95(resampled: list[float]) -> tuple[float, float]:
    """The 95% percentile interval of a bootstrap's resampled values."""
    values = sorted(resampled)
    return values[int(0.025 * len(values))], values[int(0.975 * len(values)) - 1]


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


@dataclass
class MatchResult:
    match: int  # the match number (its seed is ``tournament_deal_seed(seed, match)``)
    wins: list[bool]  # per seating (challenger in seat 0, 1, 2, 3): the challenger won the match
    hands: list[int]  # per seating: hands played
    finished: list[bool]  # per seating: the match ended within MAX_MATCH_HANDS
    decision_times: list[float] = field(default_factory=list)  # the challenger's, in seconds


def _make_player(spec: str, seed: int, seat: int, bot_timeout: float) -> Player | OpenHandPlayer:
    """A player for a spec, or the open-hand reference player for ``OPEN_HAND`` (``--open-hand``)."""
    if spec == OPEN_HAND:
        return OpenHandPlayer(seed, seat)
    return make_any_player(spec, seed, seat, bot_timeout)


@contextlib.contextmanager
def _seating(
    challenger: str, baseline: str, seat: int, seed: int, bot_timeout: float
) -> Generator[list[Player | OpenHandPlayer], None, None]:
    """The four players with the challenger in ``seat``; bots finished on a clean exit, always closed."""
    players: list[Player | OpenHandPlayer] = []
    try:
        for s in range(4):
            players.append(_make_player(challenger if s == seat else baseline, seed, s, bot_timeout))
        yield players
        for player in players:
            if not isinstance(player, OpenHandPlayer):
                finish_player(player)
    finally:
        for player in players:
            if not isinstance(player, OpenHandPlayer):
                close_player(player)


def _clock(times: list[float], seat: int) -> DecisionClock:
    """A decision clock that keeps the times of the challenger (in ``seat``) in ``times``."""

    def clock(decider: int, seconds: float) -> None:
        if decider == seat:
            times.append(seconds)

    return clock


def play_deal(
    challenger: str,
    baseline: str,
    seed: int,
    deal: int,
    bot_timeout: float = DEFAULT_TIMEOUT,
    rules: Rules = DEFAULT_RULES,
    later: bool = False,
) -> DealResult:
    """The four seatings of one deal; ``later``: the deal is the second hand of its match (see
    :func:`first_hand_played`)."""
    dseed = tournament_deal_seed(seed, deal)
    result = DealResult(deal, [], [], [])
    for seat in range(4):
        with _seating(challenger, baseline, seat, dseed, bot_timeout) as players:
            clock = _clock(result.decision_times, seat)
            state = new_match(dseed, rules)
            if later:
                state = first_hand_played(state, players, seat, bot_timeout)
            _state, log = play_hand(state, players, clock)
        scores: list[int] = log["scores"]
        others = (sum(scores) - scores[seat]) / 3
        result.margins.append(scores[seat] - others)
        result.challenger_scores.append(scores[seat])
        result.baseline_scores.append(others)
    return result


#: Who plays the challenger's seat in the first hand of a ``later`` deal (the hand only shows the
#: challenger how the others play; Normal is quicker than the challengers measured this way)
FIRST_HAND_BY = "normal"


def first_hand_played(
    state: State, players: Sequence[Player | OpenHandPlayer], seat: int, bot_timeout: float
) -> State:
    """The match after its first hand, played by ``players`` but for ``seat``, played by
    ``FIRST_HAND_BY``, and dealt its second hand; a first hand that ends the match is kept as it is."""
    first = list(players)
    first[seat] = make_any_player(FIRST_HAND_BY, state["seed"], seat, bot_timeout)
    state, _log = play_hand(state, first)
    return state if state["phase"] == "match_over" else apply_legal(state, {"type": "next_hand"})


def play_match(
    challenger: str,
    baseline: str,
    seed: int,
    match: int,
    bot_timeout: float = DEFAULT_TIMEOUT,
    rules: Rules = DEFAULT_RULES,
) -> MatchResult:
    """The four seatings of one whole match (the same deals, hand after hand)."""
    mseed = tournament_deal_seed(seed, match)
    result = MatchResult(match, [], [], [])
    for seat in range(4):
        with _seating(challenger, baseline, seat, mseed, bot_timeout) as players:
            clock = _clock(result.decision_times, seat)
            state = new_match(mseed, rules)
            hands = 0
            while True:
                state, _log = play_hand(state, players, clock)
                hands += 1
                if state["phase"] == "match_over" or hands >= MAX_MATCH_HANDS:
                    break
                state = apply_legal(state, {"type": "next_hand"})
        outcome = state["result"]
        result.wins.append(outcome is not None and outcome["winner"] == seat)
        result.hands.append(hands)
        result.finished.append(outcome is not None)
    return result


Task = tuple[str, int]  # ("deal", number), ("later", number): the deal as a second hand, or ("match", number)


def tasks_of(deals: int, matches: int, first: int = 0, step: int = 1) -> Iterator[Task]:
    """Tasks ``first, first + step, …`` of the deals then the matches, made as they are needed."""
    every = itertools.chain((("deal", d) for d in range(deals)), (("match", m) for m in range(matches)))
    return itertools.islice(every, first, None, step)


def play_task(
    challenger: str, baseline: str, seed: int, task: Task, bot_timeout: float, rules: Rules = DEFAULT_RULES
) -> DealResult | MatchResult:
    kind, number = task
    if kind == "later":
        return play_deal(challenger, baseline, seed, number, bot_timeout, rules, later=True)
    play = play_deal if kind == "deal" else play_match
    return play(challenger, baseline, seed, number, bot_timeout, rules)


def _stop_now(_signum: int, _frame: FrameType | None) -> None:
    """A worker told to stop (SIGTERM) kills its bots' process groups and exits on the spot."""
    kill_running_bots()
    os._exit(1)


def _worker(
    out: Connection,
    challenger: str,
    baseline: str,
    seed: int,
    tasks: Iterable[Task],
    bot_timeout: float,
    rules: Rules = DEFAULT_RULES,
) -> None:
    """Play ``tasks`` in a worker process, sending each result (or the error that stopped it)."""
    signal.signal(signal.SIGTERM, _stop_now)
    try:
        for task in tasks:
            out.send(play_task(challenger, baseline, seed, task, bot_timeout, rules))
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
    challenger: str,
    baseline: str,
    deals: int,
    matches: int,
    seed: int,
    jobs: int,
    bot_timeout: float,
    rules: Rules = DEFAULT_RULES,
) -> Generator[DealResult | MatchResult, None, None]:
    """Results from ``jobs`` worker processes, worker ``k`` playing tasks ``k, k + jobs, …``.

    Each worker has its own pipe and no lock is shared, so stopping them (after an error, or when
    the caller stops early) cannot deadlock; their bots are killed with them.
    """
    context = multiprocessing.get_context("fork")
    workers: dict[Connection, BaseProcess] = {}
    try:
        for first in range(jobs):
            reader, writer = context.Pipe(duplex=False)
            tasks = tasks_of(deals, matches, first, jobs)
            args = (writer, challenger, baseline, seed, tasks, bot_timeout, rules)
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
    matches: int = 0,
    rules: Rules = DEFAULT_RULES,
) -> dict[str, Any]:
    """Play ``deals`` duplicate deals and ``matches`` duplicate matches under ``rules`` and summarise
    the challenger's margin per hand and match win rate (see the module doc)."""
    start = time.perf_counter()
    tally = Tally()
    count = deals + matches
    results: Generator[DealResult | MatchResult, None, None]
    if jobs > 1 and count > 1:
        results = _play_in_workers(
            challenger, baseline, deals, matches, seed, min(jobs, count), bot_timeout, rules
        )
    else:
        tasks = tasks_of(deals, matches)
        results = (play_task(challenger, baseline, seed, task, bot_timeout, rules) for task in tasks)
    with contextlib.closing(results):  # workers stop even if summing fails
        for result in results:
            tally.add(result)
    summary = tally.summary(challenger, baseline, seed, time.perf_counter() - start)
    summary["rules"] = rules.to_json()
    return summary


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
        self.group_wins: Counter[int] = Counter()  # matches by how many of their 4 seatings were won
        self.match_hands = 0  # hands played in all matches' seatings
        self.match_unfinished = 0  # match seatings stopped at MAX_MATCH_HANDS

    def add(self, result: DealResult | MatchResult) -> None:
        self.decision_us.update(round(1_000_000 * t) for t in result.decision_times)
        if isinstance(result, MatchResult):
            self.group_wins[sum(result.wins)] += 1
            self.match_hands += sum(result.hands)
            self.match_unfinished += result.finished.count(False)
            return
        twelfths = round(12 * result.margin)
        self.deals += 1
        self.margin_sum += twelfths
        self.margin_squares += twelfths * twelfths
        self.seatings += len(result.challenger_scores)
        self.challenger_sum += sum(result.challenger_scores)
        self.baseline_sum += sum(round(3 * b) for b in result.baseline_scores)

    def match_interval(self) -> tuple[float, float]:
        """95% percentile bootstrap of the win rate over the duplicate groups (see the module doc)."""
        groups = self.group_wins.total()
        won = sorted(self.group_wins)
        weights = [self.group_wins[w] for w in won]
        rng = random.Random(0)
        return interval95(
            [sum(rng.choices(won, weights, k=groups)) / (4 * groups) for _ in range(BOOTSTRAP_SAMPLES)]
        )

    def _decision_ms_p95(self) -> float:
        rank = int(0.95 * (self.decision_us.total() - 1))
        for micros in sorted(self.decision_us):
            rank -= self.decision_us[micros]
            if rank < 0:
                return micros / 1000
        return 0.0

    def summary(self, challenger: str, baseline: str, seed: int, seconds: float) -> dict[str, Any]:
        n = self.deals
        twelfths = mean_interval95_of_sums(n, self.margin_sum, self.margin_squares)
        mean, sd, half = twelfths.mean / 12, twelfths.sd / 12, twelfths.half_width / 12
        decisions = self.decision_us.total()
        micros = sum(us * count for us, count in self.decision_us.items())
        summary = {
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
        groups = self.group_wins.total()
        if groups:
            wins = sum(w * count for w, count in self.group_wins.items())
            low, high = self.match_interval()
            summary.update(
                matches=groups,
                match_games=4 * groups,
                match_win_rate=round(wins / (4 * groups), 4),
                match_win_ci95=[round(low, 4), round(high, 4)],
                match_mean_hands=round(self.match_hands / (4 * groups), 2),
                match_unfinished=self.match_unfinished,
            )
        return summary


def summarise(
    challenger: str, baseline: str, seed: int, results: Iterable[DealResult | MatchResult], seconds: float
) -> dict[str, Any]:
    tally = Tally()
    for result in results:
        tally.add(result)
    return tally.summary(challenger, baseline, seed, seconds)


def format_report(summary: dict[str, Any]) -> str:
    low, high = summary["ci95"]
    lines = [
        f"{summary['challenger']} vs {summary['baseline']}: {summary['deals']} deals, "
        f"{summary['games']} games (duplicate, seed {summary['seed']})",
    ]
    if summary["deals"]:
        lines += [
            f"mean margin per hand: {summary['mean_margin']:+.1f}  (95% CI {low:+.1f} .. {high:+.1f}, "
            f"sd {summary['sd']:.1f})",
            f"mean hand score: challenger {summary['challenger_mean_score']:+.1f}, "
            f"baseline {summary['baseline_mean_score']:+.1f}",
        ]
    if "matches" in summary:
        win_low, win_high = summary["match_win_ci95"]
        lines.append(
            f"matches: {summary['matches']} x 4 seatings, challenger won {100 * summary['match_win_rate']:.1f}% "
            f"(95% CI {100 * win_low:.1f} .. {100 * win_high:.1f}%, bootstrap over matches; chance 25%), "
            f"{summary['match_mean_hands']:.1f} hands a match, {summary['match_unfinished']} unfinished"
        )
    lines.append(
        f"time: {summary['seconds']:.1f} s; challenger decisions {summary['decisions']}, "
        f"mean {summary['decision_ms_mean']:.1f} ms, p95 {summary['decision_ms_p95']:.1f} ms"
    )
    return "\n".join(lines)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--challenger", help="random, easy, normal, hard or cmd:<command>")
    parser.add_argument(
        "--open-hand",
        action="store_true",
        help="the challenger is the open-hand reference player, which sees every hand (benchmarks only)",
    )
    parser.add_argument("--baseline", required=True, help="random, easy, normal, hard or cmd:<command>")
    parser.add_argument("--deals", type=int, default=100, help="number of deals (each played 4 times)")
    parser.add_argument(
        "--matches", type=int, default=0, help="number of whole matches (each played 4 times; default 0)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (over deals)")
    add_bot_timeout(parser)
    add_rules_argument(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def command(args: argparse.Namespace) -> int:
    if not 0 <= args.deals <= MAX_DEALS:
        raise UsageError(f"--deals must be between 0 and {MAX_DEALS}")
    if not 0 <= args.matches <= MAX_DEALS:
        raise UsageError(f"--matches must be between 0 and {MAX_DEALS}")
    if args.deals + args.matches == 0:
        raise UsageError("nothing to play: --deals and --matches are both 0")
    if args.jobs < 1:
        raise UsageError("--jobs must be at least 1")
    if args.open_hand == (args.challenger is not None):
        raise UsageError("give either --challenger or --open-hand")
    timeout = bot_timeout(args)
    rules = rules_argument(args)
    challenger = OPEN_HAND if args.open_hand else args.challenger
    for spec in ([] if args.open_hand else [challenger]) + [args.baseline]:
        check_player_spec(spec)
    summary = run_tournament(
        challenger,
        args.baseline,
        args.deals,
        args.seed,
        args.jobs,
        timeout,
        matches=args.matches,
        rules=rules,
    )
    print(json.dumps(summary) if args.json else format_report(summary))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m gongzhu tournament`` (errors reported as one line)."""
    from .cli import main as cli_main

    return cli_main(["tournament", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
