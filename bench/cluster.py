"""The tournament on a local process pool against a Dask LocalCluster: deals per second, and how busy
a cluster worker is.

    python bench/cluster.py [--deals 200] [--rounds 3] [--long 2000] [--save bench/results/cluster.md]

Each round plays the same ``--deals`` deals (normal against easy: about 70 ms a deal in one process)
with ``--jobs 2`` and with ``--cluster local:2``, in turn and each first in every other round (the
machine may be shared: interleaving spreads its other load over both), and reports each one's
deals per second with the load average (``os.getloadavg``, as ``uptime`` shows it) beside it.  The
rate counts from the first task sent to the last result, the executor already started and its
workers warm; its start is reported apart.  Then ``--long`` deals on the cluster: the share of the run's wall time each
worker spent computing tasks (Dask's task stream), summed over the workers.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

from gongzhu.tournament import executor_for, job_of, play_tasks, tasks_of

CHALLENGER, BASELINE = "normal", "easy"
WORKERS = 2


def load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def play(executor: Executor, deals: int) -> float:
    """Seconds to play ``deals`` deals on ``executor``, from the first task sent to the last result
    (after a warm-up task per worker: both executors start their processes when first used)."""
    job = job_of(CHALLENGER, BASELINE, 1)
    warm = [executor.submit(sum, [w]) for w in range(4 * WORKERS)]
    assert [f.result() for f in warm] == list(range(4 * WORKERS))
    start = time.perf_counter()
    count = sum(1 for _ in play_tasks(((job, t) for t in tasks_of(deals, 0)), deals, executor))
    assert count == deals
    return time.perf_counter() - start


def rates(deals: int, rounds: int) -> list[dict[str, Any]]:
    """Each round's runs, the pool and the cluster in turn (who goes first alternates)."""
    rows: list[dict[str, Any]] = []
    where: dict[str, dict[str, Any]] = {
        "jobs 2": {"jobs": WORKERS},
        "cluster local:2": {"address": f"local:{WORKERS}"},
    }
    for r in range(rounds):
        names = list(where) if r % 2 == 0 else list(reversed(where))
        for name in names:
            started = time.perf_counter()
            with executor_for(**where[name]) as executor:
                assert executor is not None
                ready = time.perf_counter() - started
                before = load()
                seconds = play(executor, deals)
            rows.append(
                {"round": r, "run": name, "start_s": ready, "seconds": seconds, "rate": deals / seconds,
                 "load_before": before, "load_after": load()}
            )  # fmt: skip
            print(rows[-1], flush=True)
    return rows


def busy(deals: int) -> dict[str, Any]:
    """The cluster workers' computing time over ``deals`` deals, as a share of wall time × workers."""
    import distributed

    with executor_for(address=f"local:{WORKERS}") as executor:
        client: Any = getattr(executor, "_client")  # noqa: B009 - the executor's Dask client
        before = load()
        with distributed.get_task_stream(client) as stream:
            assert executor is not None
            seconds = play(executor, deals)
        computing = sum(
            part["stop"] - part["start"]
            for task in stream.data
            for part in task["startstops"]
            if part["action"] == "compute"
        )
        return {"deals": deals, "seconds": seconds, "tasks": len(stream.data), "computing_s": computing,
                "busy": computing / (WORKERS * seconds), "load_before": before, "load_after": load()}  # fmt: skip


def report(rows: list[dict[str, Any]], long: dict[str, Any] | None, deals: int, command: str) -> str:
    lines = [
        "# The tournament on a process pool and on a Dask LocalCluster",
        "",
        f"Measured {time.strftime('%Y-%m-%d', time.gmtime())} on a shared 2-core machine (other "
        "engineers' tests ran at the same time: the load averages say how busy it was), "
        f"{CHALLENGER} against {BASELINE}, seed 1. Regenerate: `{command}`",
        "",
        f"## Deals per second, the same {deals} deals, interleaved",
        "",
        "| round | run | executor start (s) | deals/s | load average before → after (1/5/15 min) |",
        "|---:|---|---:|---:|---|",
    ]
    for row in rows:
        lines.append(
            f"| {row['round']} | {row['run']} | {row['start_s']:.1f} | {row['rate']:.2f} "
            f"| {row['load_before']} → {row['load_after']} |"
        )
    ratios = []
    for r in sorted({row["round"] for row in rows}):
        by = {row["run"]: row["rate"] for row in rows if row["round"] == r}
        ratios.append(by["cluster local:2"] / by["jobs 2"])
    lines += [
        "",
        "Cluster rate / pool rate, per round: "
        + ", ".join(f"{x:.3f}" for x in ratios)
        + f"; median {statistics.median(ratios):.3f} (goal: at least 0.85).",
    ]
    if long is None:
        return "\n".join(lines) + "\n"
    lines += [
        "",
        f"## A cluster worker's busy share, {long['deals']} deals",
        "",
        f"{long['tasks']} tasks (batches of deals) in {long['seconds']:.1f} s on {WORKERS} workers; "
        f"computing {long['computing_s']:.1f} s in all: busy **{100 * long['busy']:.1f}%** of the time "
        f"(goal: at least 90%); load average {long['load_before']} → {long['load_after']}.",
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--long", type=int, default=2000, help="deals of the busy-share run (0: none)")
    parser.add_argument("--save", help="write the markdown summary to this file")
    args = parser.parse_args()
    command = f"python3 bench/cluster.py --deals {args.deals} --rounds {args.rounds} --long {args.long}"
    rows = rates(args.deals, args.rounds)
    long = busy(args.long) if args.long else None
    text = report(rows, long, args.deals, command + (f" --save {args.save}" if args.save else ""))
    print(text)
    if args.save:
        Path(args.save).write_text(text)


if __name__ == "__main__":
    main()
