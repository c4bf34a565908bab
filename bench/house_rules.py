"""The level ladder under each house rule: Hard ahead of Normal, Normal ahead of Easy, per variant.

    nice -n 19 python bench/house_rules.py --deals 8 --easy-deals 60 --matches 2 --easy-matches 20

For each rule set of ``HAND_RULES`` (rules that change a single hand) a duplicate tournament of
``--deals`` deals plays Hard against three Normals and ``--easy-deals`` deals Normal against three
Easys (:func:`gongzhu.tournament.run_tournament`: margin per hand, 95% interval over deals). The
match-end rules of ``MATCH_RULES`` change only whole matches, so for them duplicate matches are
played instead (``--matches`` Hard vs Normal, ``--easy-matches`` Normal vs Easy): the challenger's
win rate (chance is 25%) with its bootstrap interval, and its margin per hand over the hands of
those matches is not measured. Prints one JSON object per run, then a markdown table.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from gongzhu.house_rules import DEFAULT_RULES, Rules
from gongzhu.tournament import run_tournament

HAND_RULES = [DEFAULT_RULES, Rules(exposing="off"), Rules(first_lead="2C"), Rules(all_hearts="flip")]
MATCH_RULES = [Rules(match_end="-500"), Rules(match_end="hands:4"), Rules(match_end="hands:8")]
PAIRS = [("hard", "normal"), ("normal", "easy")]


def name(rules: Rules) -> str:
    return ",".join(f"{k}={v}" for k, v in rules.changed().items()) or "default"


def row(summary: dict[str, Any], rules: Rules) -> str:
    pair = f"{summary['challenger']} vs {summary['baseline']}"
    if summary["deals"]:
        low, high = summary["ci95"]
        return (
            f"| {name(rules)} | {pair} | {summary['deals']} deals | {summary['mean_margin']:+.1f} per hand "
            f"| [{low:+.1f}, {high:+.1f}] |"
        )
    low, high = summary["match_win_ci95"]
    return (
        f"| {name(rules)} | {pair} | {summary['matches']} matches x 4 | won {100 * summary['match_win_rate']:.0f}% "
        f"(chance 25%), {summary['match_mean_hands']:.1f} hands | [{100 * low:.0f}%, {100 * high:.0f}%] |"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=8, help="Hard vs Normal deals per hand rule")
    parser.add_argument("--easy-deals", type=int, default=60, help="Normal vs Easy deals per hand rule")
    parser.add_argument("--matches", type=int, default=2, help="Hard vs Normal matches per match rule")
    parser.add_argument("--easy-matches", type=int, default=20, help="Normal vs Easy matches per match rule")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--match-ends", default=",".join(r.match_end for r in MATCH_RULES), help="match_end values to play"
    )
    args = parser.parse_args()
    match_rules = [r for r in MATCH_RULES if r.match_end in args.match_ends.split(",")]
    rows: list[str] = []
    plan: list[tuple[Rules, str, str, int, int]] = []
    for rules in HAND_RULES:
        plan += [(rules, "normal", "easy", args.easy_deals, 0), (rules, "hard", "normal", args.deals, 0)]
    for rules in match_rules:
        plan += [(rules, "normal", "easy", 0, args.easy_matches), (rules, "hard", "normal", 0, args.matches)]
    for rules, challenger, baseline, deals, matches in plan:
        if deals + matches == 0:
            continue
        summary = run_tournament(challenger, baseline, deals, args.seed, matches=matches, rules=rules)
        print(json.dumps(summary), flush=True)
        rows.append(row(summary, rules))
    print("| rules | challenger vs baseline | sample | result | 95% CI |")
    print("|---|---|---|---|---|")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
