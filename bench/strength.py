"""The strength ladder: easy vs random, normal vs easy, hard vs normal, as a markdown table.

    python bench/strength.py --deals 400 --jobs 2 [--pairs hard:normal] [--save bench/results/x.json]
    python bench/strength.py --from bench/results/*.json      # table from saved runs

Each row is a duplicate tournament (see gongzhu/tournament.py): mean hand-score margin of the
challenger over the baselines per hand, with its 95% confidence interval.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from gongzhu.tournament import run_tournament

LADDER = "easy:random,normal:easy,hard:normal"


def table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| challenger | baseline | deals | games | mean margin / hand | 95% CI | challenger ms / decision |",
        "|---|---|---:|---:|---:|---|---:|",
    ]
    for r in rows:
        low, high = r["ci95"]
        lines.append(
            f"| {r['challenger']} | {r['baseline']} | {r['deals']} | {r['games']} | {r['mean_margin']:+.1f} "
            f"| [{low:+.1f}, {high:+.1f}] | {r['decision_ms_mean']:.1f} |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--pairs", default=LADDER, help="challenger:baseline,…")
    parser.add_argument("--save", help="also write the summaries as a JSON list to this file")
    parser.add_argument("--from", dest="sources", nargs="*", help="saved JSON files to tabulate instead")
    args = parser.parse_args()
    if args.sources:
        rows: list[dict[str, Any]] = []
        for source in args.sources:
            data = json.loads(Path(source).read_text())
            rows += data if isinstance(data, list) else [data]
    else:
        rows = []
        for pair in args.pairs.split(","):
            challenger, baseline = pair.split(":")
            rows.append(run_tournament(challenger, baseline, args.deals, args.seed, args.jobs))
            if args.save:
                Path(args.save).write_text(json.dumps(rows, indent=1) + "\n")
    print(table(rows))


if __name__ == "__main__":
    main()
