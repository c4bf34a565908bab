"""The strength ladder: per-hand margins and match win rates of duplicate tournaments, as a markdown table.

    python bench/strength.py --deals 400 --jobs 2 [--pairs hard:normal] [--matches 50] [--save x.json]
    python bench/strength.py --from bench/results/*.json      # table from saved runs

Each row is a duplicate tournament (see gongzhu/tournament.py): the challenger's mean hand-score
margin over the baselines per hand with its 95% confidence interval, and, with ``--matches``, its
match win rate (whole matches, each played four times; 95% interval: bootstrap over the matches).
The challenger ``open-hand`` is the open-hand reference player (bench/open_hand.py, benchmarks
only); Hard's variants (``hard-margin``, ``hard-no-lookahead``, one per world model) are in
bench/variants.py (``--pairs hard:hard-no-lookahead`` measures the lookahead against Hards).

Long runs on a busy machine can log one JSON line per deal or match as it ends, in parts that run
side by side, and be tabulated from those lines at any time (a partial run still counts):

    python bench/strength.py --pairs hard:normal --deals 400 --log x.jsonl --part 0/2 &
    python bench/strength.py --pairs hard:normal --deals 400 --log x.jsonl --part 1/2 &
    python bench/strength.py --from-log x.jsonl --pairs hard:normal

A part started again with the same ``--log`` skips the deals and matches the log holds already.

The distance to the open-hand player: Hard's mean margin as a fraction of the open-hand player's,
on the deals both logs hold (95% interval: paired bootstrap over those deals):

    python bench/strength.py --fraction hard.jsonl open-hand.jsonl

Two versions of one player on the same deals (its new log and an old one): the paired difference.

    python bench/strength.py --difference new.jsonl old.jsonl

The opponent panel (``bench/panel.py``): each challenger against each style, duplicate, on the same
deals, one log per challenger and style in a folder (``CHALLENGER-vs-STYLE.jsonl``).  Deals are
played in turn (deal 0 for every style and challenger, then deal 1, …), so a run stopped for time
covers every pair alike; started again it skips what its logs hold.  ``--from-log`` with ``--panel``
tabulates the folder: each style's margin, the panel mean (the mean of the styles' means; 95%
interval: bootstrap over the deals, resampled together for every style), and each challenger's paired
difference to the first one, style by style.

    python bench/strength.py --panel --challengers hard,hard-uniform-worlds --deals 400 --log DIR
    python bench/strength.py --panel --challengers hard,hard-uniform-worlds --from-log DIR

A match is more than its first hand: from the second hand on a player has seen how the others play
(``hard-fitted``, the game's Hard, judges each opponent on the previous hand's plays).  ``--later``
plays each deal as the second hand of its match, after a first hand the same table played (the
challenger's seat by Normal, ``gongzhu.tournament.FIRST_HAND_BY``); its logs need a folder of their own.

    python bench/strength.py --panel --later --challengers hard-fitted,hard-normal-worlds --deals 400 --log DIR2

The tournaments and the panel run on the tournament's executor (gongzhu/workers.py): ``--jobs N``
local processes, or ``--cluster ADDRESS`` (a Dask scheduler, or ``local:N``); a worker of a remote
cluster needs this folder on its ``PYTHONPATH`` for the benchmarks' players (docs/cluster.md).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import operator
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from able import register_able
from open_hand import register_open_hand
from panel import PANEL, register_panel
from variants import register_variants

from gongzhu.stats import mean_interval95
from gongzhu.tournament import (
    BOOTSTRAP_SAMPLES,
    DealResult,
    MatchResult,
    executor_for,
    interval95,
    job_of,
    play_task,
    play_tasks,
    run_tournament,
    summarise,
    tasks_of,
)

LADDER = "easy:random,normal:easy,hard:normal"


def _fmt_pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| challenger | baseline | deals | mean margin / hand | 95% CI | matches (x4 seatings) "
        "| match win rate | 95% CI | challenger ms / decision |",
        "|---|---|---:|---:|---|---:|---:|---|---:|",
    ]
    for r in rows:
        low, high = r["ci95"]
        hand = (
            f"{r['deals']} | {r['mean_margin']:+.1f} | [{low:+.1f}, {high:+.1f}]"
            if r["deals"]
            else "0 | – | –"
        )
        if r.get("matches"):
            win_low, win_high = r["match_win_ci95"]
            match = (
                f"{r['matches']} | {_fmt_pct(r['match_win_rate'])} "
                f"| [{_fmt_pct(win_low)}, {_fmt_pct(win_high)}]"
            )
        else:
            match = "0 | – | –"
        lines.append(
            f"| {r['challenger']} | {r['baseline']} | {hand} | {match} | {r['decision_ms_mean']:.1f} |"
        )
    return "\n".join(lines)


def read_log(path: str) -> list[DealResult | MatchResult]:
    """The deal and match results of a ``--log`` file (a deal has margins, a match has wins)."""
    results: list[DealResult | MatchResult] = []
    for line in Path(path).read_text().splitlines():
        item = json.loads(line)
        results.append(MatchResult(**item) if "wins" in item else DealResult(**item))
    return results


def paired(
    first: dict[int, float],
    second: dict[int, float],
    statistic: Callable[[float, float], float],
    seed: int = 1,
) -> dict[str, Any]:
    """``statistic(mean of first, mean of second)`` (margins by deal) on the two logs' shared deals,
    with a paired bootstrap 95% interval (the same deals resampled for both)."""
    deals = sorted(first.keys() & second.keys())
    if not deals:
        raise SystemExit("the two logs share no deal")

    def value(sample: list[int]) -> float:
        n = len(sample)
        return statistic(sum(first[d] for d in sample) / n, sum(second[d] for d in sample) / n)

    rng = random.Random(seed)
    resampled = [value([rng.choice(deals) for _ in deals]) for _ in range(BOOTSTRAP_SAMPLES)]
    n = len(deals)
    return {
        "deals": n,
        "first_margin": sum(first[d] for d in deals) / n,
        "second_margin": sum(second[d] for d in deals) / n,
        "value": value(deals),
        "ci95": list(interval95(resampled)),
    }


#: The comparisons of two logs: option → (statistic of the two mean margins, its format, its sign).
COMPARISONS: dict[str, tuple[Callable[[float, float], float], str, str]] = {
    "fraction": (operator.truediv, "{:.2f}", "/"),  # PART's margin as a fraction of WHOLE's
    "difference": (operator.sub, "{:+.1f}", "−"),  # NEW's margin minus OLD's
}


def deal_margins(path: str) -> dict[int, float]:
    """Mean margin per deal of a ``--log`` file's deals."""
    return {r.deal: r.margin for r in read_log(path) if isinstance(r, DealResult)}


def logged_tasks(path: str) -> set[tuple[str, int]]:
    """The tasks (``("deal", n)`` or ``("match", n)``) a ``--log`` file already holds."""
    return {("deal", r.deal) if isinstance(r, DealResult) else ("match", r.match) for r in read_log(path)}


def play_part(challenger: str, baseline: str, args: argparse.Namespace) -> None:
    """Play part ``k`` of ``n`` (tasks k, k + n, …), one JSON line per deal or match; a task the
    log already holds is skipped, so a stopped run resumes where it was."""
    k, n = (int(x) for x in args.part.split("/"))
    logged = logged_tasks(args.log) if Path(args.log).exists() else set()
    with open(args.log, "a") as out:
        for task in tasks_of(args.deals, args.matches, k, n):
            if task in logged:
                continue
            result = play_task(challenger, baseline, args.seed, task, 10.0)
            out.write(json.dumps(dataclasses.asdict(result)) + "\n")
            out.flush()


def panel_log(folder: str, challenger: str, style: str) -> Path:
    """The log of one challenger against one panel style."""
    return Path(folder) / f"{challenger}-vs-{style}.jsonl"


def play_panel(challengers: list[str], styles: list[str], args: argparse.Namespace) -> None:
    """Play part ``k`` of ``n`` of the panel's deals (deals k, k + n, …), each deal for every style
    and challenger before the next deal, on the tournament's executor (``--jobs``, ``--cluster``);
    a deal a log holds already is skipped, and each result is appended to its log as it ends."""
    k, n = (int(x) for x in args.part.split("/"))
    Path(args.log).mkdir(parents=True, exist_ok=True)
    logged = {
        (c, s): {d for kind, d in logged_tasks(str(panel_log(args.log, c, s))) if kind == "deal"}
        if panel_log(args.log, c, s).exists()
        else set()
        for c in challengers
        for s in styles
    }
    jobs = {(c, s): job_of(c, s, args.seed, 10.0) for c in challengers for s in styles}
    kind = "later" if args.later else "deal"
    work = [
        (jobs[challenger, style], (kind, deal))
        for deal in range(k, args.deals, n)
        for style in styles
        for challenger in challengers
        if deal not in logged[challenger, style]
    ]
    with executor_for(args.jobs, args.cluster) as executor:
        for job, result in play_tasks(work, len(work), executor):
            with panel_log(args.log, job.challenger, job.baseline).open("a") as out:
                out.write(json.dumps(dataclasses.asdict(result)) + "\n")


def panel_mean(by_style: dict[str, dict[int, float]], seed: int = 1) -> dict[str, Any]:
    """The mean of the styles' mean margins, with a 95% bootstrap interval over the deal numbers
    (one resample of the deals serves every style, so styles played on the same deals stay paired)."""
    deals = sorted(set().union(*(m.keys() for m in by_style.values())))

    def value(sample: list[int]) -> float:
        means = []
        for margins in by_style.values():
            held = [margins[d] for d in sample if d in margins]
            means.append(sum(held) / len(held) if held else 0.0)
        return sum(means) / len(means)

    rng = random.Random(seed)
    resampled = [value([rng.choice(deals) for _ in deals]) for _ in range(BOOTSTRAP_SAMPLES)]
    return {"value": value(deals), "ci95": list(interval95(resampled))}


def panel_table(challengers: list[str], styles: list[str], folder: str) -> str:
    """Each challenger's margin against each style and the panel mean, and each challenger's paired
    difference to the first challenger (the same deals), as markdown."""
    margins = {
        (c, s): deal_margins(str(panel_log(folder, c, s))) if panel_log(folder, c, s).exists() else {}
        for c in challengers
        for s in styles
    }
    head = "| style | " + " | ".join(f"{c}: deals, margin / hand [95% CI]" for c in challengers)
    head += "".join(f" | {c} − {challengers[0]} (paired) [95% CI]" for c in challengers[1:]) + " |"
    lines = [head, "|---" * (2 * len(challengers)) + "|"]
    for style in styles:
        cells = []
        for c in challengers:
            m = margins[c, style]
            if m:
                ci = mean_interval95(list(m.values()))
                cells.append(f"{len(m)}, {ci.mean:+.1f} [{ci.low:+.1f}, {ci.high:+.1f}]")
            else:
                cells.append("–")
        for c in challengers[1:]:
            first, other = margins[challengers[0], style], margins[c, style]
            if first.keys() & other.keys():
                d = paired(other, first, operator.sub)
                cells.append(f"{d['value']:+.1f} [{d['ci95'][0]:+.1f}, {d['ci95'][1]:+.1f}] ({d['deals']})")
            else:
                cells.append("–")
        lines.append(f"| {style} | " + " | ".join(cells) + " |")
    means = []
    for c in challengers:
        by_style = {s: margins[c, s] for s in styles if margins[c, s]}
        if len(by_style) == len(styles):
            mean = panel_mean(by_style)
            means.append(f"{mean['value']:+.1f} [{mean['ci95'][0]:+.1f}, {mean['ci95'][1]:+.1f}]")
        else:
            means.append("–")
    lines.append("| **panel mean** | " + " | ".join(means) + " |" + " |" * (len(challengers) - 1))
    times = []
    for c in challengers:
        seconds = sorted(
            t
            for s in styles
            if panel_log(folder, c, s).exists()
            for r in read_log(str(panel_log(folder, c, s)))
            for t in r.decision_times
        )
        p95 = seconds[int(0.95 * (len(seconds) - 1))] if seconds else 0.0
        times.append(f"{1000 * sum(seconds) / max(1, len(seconds)):.0f}; p95 {1000 * p95:.0f}")
    lines.append("| ms / decision (mean; p95) | " + " | ".join(times) + " |" + " |" * (len(challengers) - 1))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--matches", type=int, default=0, help="whole matches per pair (each played 4 times)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cluster", help="a Dask scheduler's address, or local:N (instead of --jobs)")
    parser.add_argument("--pairs", default=LADDER, help="challenger:baseline,…")
    parser.add_argument("--panel", action="store_true", help="the challengers against the opponent panel")
    parser.add_argument("--challengers", default="hard", help="with --panel: challengers, comma-separated")
    parser.add_argument(
        "--later",
        action="store_true",
        help="with --panel: each deal is the second hand of its match (a log folder of its own)",
    )
    parser.add_argument("--styles", default=",".join(PANEL), help="with --panel: the styles played")
    parser.add_argument("--save", help="also write the summaries as a JSON list to this file")
    parser.add_argument("--from", dest="sources", nargs="*", help="saved JSON files to tabulate instead")
    parser.add_argument("--log", help="play one part of one pair, appending a JSON line per deal or match")
    parser.add_argument("--part", default="0/1", help="with --log: k/n plays tasks k, k + n, …")
    parser.add_argument("--from-log", dest="logs", nargs="*", help="--log files of the one pair to tabulate")
    parser.add_argument(
        "--fraction",
        nargs=2,
        metavar=("PART", "WHOLE"),
        help="--log files: PART's margin as a fraction of WHOLE's",
    )
    parser.add_argument(
        "--difference",
        nargs=2,
        metavar=("NEW", "OLD"),
        help="--log files of two versions of one pair: NEW's margin minus OLD's, deal by deal",
    )
    args = parser.parse_args()
    for option, (statistic, fmt, sep) in COMPARISONS.items():
        logs = getattr(args, option)
        if not logs:
            continue
        f = paired(deal_margins(logs[0]), deal_margins(logs[1]), statistic)
        low, high = (fmt.format(x) for x in f["ci95"])
        print(
            f"{fmt.format(f['value'])} [{low}, {high}] on {f['deals']} shared deals "
            f"({f['first_margin']:+.1f} {sep} {f['second_margin']:+.1f} per hand)"
        )
        return
    register_variants()
    register_open_hand()
    register_panel()
    register_able()
    if args.panel:
        challengers, styles = args.challengers.split(","), args.styles.split(",")
        if args.logs:
            print(panel_table(challengers, styles, args.logs[0]))
        elif args.log:
            play_panel(challengers, styles, args)
        else:
            raise SystemExit("--panel needs --log DIR (to play) or --from-log DIR (to tabulate)")
        return
    pairs = [(pair.split(":")[0], pair.split(":")[1]) for pair in args.pairs.split(",")]
    rows: list[dict[str, Any]] = []
    if args.sources:
        for source in args.sources:
            data = json.loads(Path(source).read_text())
            rows += data if isinstance(data, list) else [data]
    elif args.logs:
        challenger, baseline = pairs[0]
        results = [result for log in args.logs for result in read_log(log)]
        rows.append(summarise(challenger, baseline, args.seed, results, 0.0))
    elif args.log:
        challenger, baseline = pairs[0]
        play_part(challenger, baseline, args)
        return
    else:
        for challenger, baseline in pairs:
            rows.append(
                run_tournament(
                    challenger,
                    baseline,
                    args.deals,
                    args.seed,
                    1 if args.cluster else args.jobs,
                    matches=args.matches,
                    cluster_address=args.cluster,
                    progress=True,
                )
            )
    if args.save:
        Path(args.save).write_text(json.dumps(rows, indent=1) + "\n")
    print(table(rows))


if __name__ == "__main__":
    main()
