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

The tasks (a deal, or a match) are played in batches on a ``concurrent.futures`` executor
(:mod:`gongzhu.workers`): in this process, a local process pool (``--jobs N``) or a Dask cluster
(``--cluster ADDRESS``).  A task's result depends only on the task, and results are summed as they
come (:class:`Tally`, exact in any order), so every way gives the same summary, and memory does not
grow with ``--deals`` or ``--matches``.  Players added with :func:`gongzhu.players.register_player`
(the benchmarks') travel with the tasks and are registered again in each worker.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Generator, Iterable, Iterator, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from .agent import (
    DEFAULT_TIMEOUT,
    check_player_spec,
    close_player,
    finish_player,
    make_any_player,
)
from .cli import UsageError, add_bot_timeout, add_rules_argument, bot_timeout, rules_argument
from .game import State, apply_legal, new_match
from .house_rules import DEFAULT_RULES, Rules
from .players import Player, PlayerFactory, added_players, register_players
from .rng import DEAL_NUMBER_BITS, tournament_deal_seed
from .simulate import DecisionClock, OpenPlayer, play_hand
from .stats import mean_interval95_of_sums
from .workers import ClusterUnavailable, Progress, batches, cluster, local_pool, results, worker_count

MAX_DEALS = 1 << DEAL_NUMBER_BITS
MAX_MATCH_HANDS = 100  # a match still running after this many hands counts as not won
BOOTSTRAP_SAMPLES = 2000  # resamples of the duplicate groups for the match win rate's interval
MAX_BATCH = 10  # tasks played in one go on a worker (fewer round trips to a cluster's scheduler)


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


@contextlib.contextmanager
def seating(
    challenger: str, baseline: str, seat: int, seed: int, bot_timeout: float
) -> Generator[list[Player], None, None]:
    """The four players with the challenger in ``seat``; bots finished on a clean exit, always closed."""
    players: list[Player] = []
    try:
        for s in range(4):
            players.append(make_any_player(challenger if s == seat else baseline, seed, s, bot_timeout))
        yield players
        for player in players:
            finish_player(player)
    finally:
        for player in players:
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
        with seating(challenger, baseline, seat, dseed, bot_timeout) as players:
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
    state: State, players: Sequence[Player | OpenPlayer], seat: int, bot_timeout: float
) -> State:
    """The match after its first hand, played by ``players`` but for ``seat``, played by
    ``FIRST_HAND_BY``, and dealt its second hand; a first hand that ends the match is kept as it is."""
    first: list[Player | OpenPlayer] = list(players)
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
        with seating(challenger, baseline, seat, mseed, bot_timeout) as players:
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


@dataclass(frozen=True)
class Job:
    """What every task of one tournament shares: plain data, sent with each batch to its worker."""

    challenger: str  # the challenger's player spec
    baseline: str  # the three baselines' player spec
    seed: int  # the run's seed (deal ``i`` is ``new_match(tournament_deal_seed(seed, i))``)
    bot_timeout: float  # seconds an outside bot may take to answer
    rules: Rules = DEFAULT_RULES  # the house rules of every deal and match
    players: tuple[tuple[str, PlayerFactory], ...] = ()  # registered players the specs name


def job_of(
    challenger: str,
    baseline: str,
    seed: int,
    bot_timeout: float = DEFAULT_TIMEOUT,
    rules: Rules = DEFAULT_RULES,
) -> Job:
    """The job of a tournament, with the registered players its two specs name."""
    players = tuple(added_players([challenger, baseline]).items())
    return Job(challenger, baseline, seed, bot_timeout, rules, players)


Work = tuple[Job, Task]  # one task of one tournament


def play_batch(batch: list[Work]) -> list[tuple[Job, DealResult | MatchResult]]:
    """Play each task of ``batch`` in turn (in a worker: the jobs' registered players made known
    first), each result with its job."""
    out: list[tuple[Job, DealResult | MatchResult]] = []
    for job, task in batch:
        register_players({name: factory for name, factory in job.players if not added_players([name])})
        out.append((job, play_task(job.challenger, job.baseline, job.seed, task, job.bot_timeout, job.rules)))
    return out


def batch_size(count: int, workers: int) -> int:
    """Tasks per batch: up to ``MAX_BATCH``, and at least eight batches per worker."""
    return max(1, min(MAX_BATCH, count // (8 * workers)))


@contextlib.contextmanager
def executor_for(jobs: int = 1, address: str | None = None) -> Generator[Executor | None, None, None]:
    """The executor a run plays on: a Dask cluster at ``address``, a pool of ``jobs`` processes, or
    None (this process) for one job."""
    if address is not None:
        with cluster(address) as executor:
            yield executor
    elif jobs > 1:
        with local_pool(jobs) as executor:
            yield executor
    else:
        yield None


def play_tasks(
    work: Iterable[Work], count: int, executor: Executor | None = None
) -> Iterator[tuple[Job, DealResult | MatchResult]]:
    """The results of ``work`` (``count`` tasks, of one tournament or several), each with its job,
    played on ``executor`` (None: in this process, in order; else in batches, in the order they end)."""
    if executor is None:
        for item in work:
            yield from play_batch([item])
        return
    workers = worker_count(executor)
    yield from results(executor, play_batch, batches(work, batch_size(count, workers)), workers)


def run_tournament(
    challenger: str,
    baseline: str,
    deals: int,
    seed: int,
    jobs: int = 1,
    bot_timeout: float = DEFAULT_TIMEOUT,
    matches: int = 0,
    rules: Rules = DEFAULT_RULES,
    cluster_address: str | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """Play ``deals`` duplicate deals and ``matches`` duplicate matches under ``rules`` and summarise
    the challenger's margin per hand and match win rate (see the module doc); ``progress``: a
    progress line on standard error when it is a terminal."""
    start = time.perf_counter()
    tally = Tally()
    count = deals + matches
    job = job_of(challenger, baseline, seed, bot_timeout, rules)
    shown = Progress(count) if progress else None
    try:
        with executor_for(min(jobs, count), cluster_address) as executor:
            work = ((job, task) for task in tasks_of(deals, matches))
            for _job, result in play_tasks(work, count, executor):
                tally.add(result)
                if shown is not None:
                    shown.add()
    finally:
        if shown is not None:
            shown.close()
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
    parser.add_argument("--baseline", required=True, help="random, easy, normal, hard or cmd:<command>")
    parser.add_argument("--deals", type=int, default=100, help="number of deals (each played 4 times)")
    parser.add_argument(
        "--matches", type=int, default=0, help="number of whole matches (each played 4 times; default 0)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes on this machine (over deals)")
    parser.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="play on the Dask cluster whose scheduler is at ADDRESS (tcp://host:8786), or local:N for "
        "N worker processes here; needs pip install 'gongzhu[cluster]'",
    )
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
    if args.challenger is None:
        raise UsageError("give --challenger")
    if args.cluster is not None and args.jobs != 1:
        raise UsageError("give --jobs or --cluster, not both")
    timeout = bot_timeout(args)
    rules = rules_argument(args)
    for spec in (args.challenger, args.baseline):
        check_player_spec(spec)
    try:
        summary = run_tournament(
            args.challenger,
            args.baseline,
            args.deals,
            args.seed,
            args.jobs,
            timeout,
            matches=args.matches,
            rules=rules,
            cluster_address=args.cluster,
            progress=True,
        )
    except ClusterUnavailable as error:
        raise UsageError(str(error)) from None
    except KeyboardInterrupt:
        print("error: tournament stopped (Ctrl-C); no summary", file=sys.stderr)
        return 130
    print(json.dumps(summary) if args.json else format_report(summary))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m gongzhu tournament`` (errors reported as one line)."""
    from .cli import main as cli_main

    return cli_main(["tournament", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
