"""Easy and Normal near the end of a match: each level with its match plan against itself without it.

    nice -n 19 env PYTHONPATH=. python3 bench/match_end.py --positions 200 --seed 1

For each rule set of ``RULES`` and each level of ``LEVELS``, position ``i`` is the match
``new_match(tournament_deal_seed(seed, i), rules)`` played by four copies of the level without its
match plan (``match_aware=False``, the level until 2026-12-02) until a hand starts with the match in
reach (:func:`gongzhu.ai.match.match_in_reach`, where a plan can start): the near-end position. From
it the match is played to its end five times with the same later deals: four plain players (the
reference), then the match-aware player in each seat in turn against three plain ones. Reported:

* ``win``: the match-aware player's match win rate. In the reference exactly one of the four seats
  wins, so chance is 25% and the rate minus 25% is the change the plan makes. 95% percentile
  bootstrap over the positions (the four seatings of a position resampled together).
* ``margin``: the change of its margin per hand: its final total minus the mean of the other three,
  less the same seat's figure in the reference, over the hands played from the position; the mean
  over the four seatings is one sample per position (95% interval over positions).
* ``changed``: the share of the match-aware player's decisions that differ from the plain player's
  in the same view (how often the plan acts at all).

Prints one JSON object per (rules, level), then a markdown table.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import sys
from typing import Any, TypeVar

from gongzhu.ai import EasyPlayer, NormalPlayer
from gongzhu.ai.match import match_in_reach
from gongzhu.game import State, View, apply_legal, new_match
from gongzhu.house_rules import DEFAULT_RULES, Rules
from gongzhu.rng import tournament_deal_seed
from gongzhu.simulate import play_hand
from gongzhu.stats import mean_interval95
from gongzhu.tournament import BOOTSTRAP_SAMPLES, MAX_MATCH_HANDS, interval95

T = TypeVar("T")

RULES = [Rules(match_end="-500"), Rules(match_end="hands:4"), Rules(match_end="hands:8"), DEFAULT_RULES]
LEVELS = {"normal": NormalPlayer, "easy": EasyPlayer}


class Counted:
    """The match-aware player, counting its decisions that differ from the plain player's."""

    def __init__(self, aware: Any, plain: Any) -> None:
        self.aware = aware  # the player measured
        self.plain = plain  # the same level without its plan, asked the same views
        self.decisions = 0  # decisions taken
        self.changed = 0  # decisions unlike the plain player's

    def expose(self, view: View) -> list[str]:
        mine: list[str] = self.aware.expose(view)
        plain: list[str] = self.plain.expose(view)
        return self._count(mine, plain)

    def play(self, view: View) -> str:
        mine: str = self.aware.play(view)
        plain: str = self.plain.play(view)
        return self._count(mine, plain)

    def _count(self, mine: T, plain: T) -> T:
        self.decisions += 1
        self.changed += mine != plain
        return mine


def play_out(state: State, players: list[Any]) -> tuple[State, int]:
    """``state`` (a hand about to start) played to the match's end; the hands it took."""
    hands = 0
    while True:
        state, _log = play_hand(state, players)
        hands += 1
        if state["phase"] == "match_over" or hands >= MAX_MATCH_HANDS:
            return state, hands
        state = apply_legal(state, {"type": "next_hand"})


def near_end(seed: int, rules: Rules, plain: list[Any]) -> State | None:
    """The first hand start of the match at which it is in reach (None if it ends before)."""
    state = new_match(seed, rules)
    while not match_in_reach(state["totals"], rules, state["hand_number"]):
        state, _log = play_hand(state, plain)
        if state["phase"] == "match_over":
            return None
        state = apply_legal(state, {"type": "next_hand"})
    return state


def margin(totals: list[int], seat: int) -> float:
    return totals[seat] - (sum(totals) - totals[seat]) / 3


def measure(level: str, rules: Rules, positions: int, seed: int) -> dict[str, Any]:
    factory = LEVELS[level]
    plain_of = functools.partial(factory, match_aware=False)
    wins: list[int] = []  # per position: seatings won by the match-aware player (0-4)
    margins: list[float] = []  # per position: mean over seatings of the margin-per-hand change
    counted = Counted(None, None)
    skipped = 0
    for i in range(positions):
        mseed = tournament_deal_seed(seed, i)
        plain = [plain_of(mseed, s) for s in range(4)]
        start = near_end(mseed, rules, plain)
        if start is None:
            skipped += 1
            continue
        reference, _hands = play_out(start, plain)
        ref_totals = reference["totals"]
        won, changes = 0, []
        for seat in range(4):
            counted.aware, counted.plain = factory(mseed, seat), plain_of(mseed, seat)
            players = [counted if s == seat else plain_of(mseed, s) for s in range(4)]
            final, hands = play_out(start, players)
            result = final["result"]
            won += result is not None and result["winner"] == seat
            changes.append((margin(final["totals"], seat) - margin(ref_totals, seat)) / hands)
        wins.append(won)
        margins.append(sum(changes) / 4)
    n = len(wins)
    rng = random.Random(0)
    low, high = interval95(
        [sum(rng.choices(wins, k=n)) / (4 * n) for _ in range(BOOTSTRAP_SAMPLES)] if n else [0.0]
    )
    change = mean_interval95(margins)
    return {
        "level": level,
        "rules": rules.to_json(),
        "seed": seed,
        "positions": n,
        "ended_before_reach": skipped,
        "win_rate": round(sum(wins) / (4 * n), 4) if n else 0.0,
        "win_ci95": [round(low, 4), round(high, 4)],
        "margin_change_per_hand": round(change.mean, 2),
        "margin_ci95": [round(change.mean - change.half_width, 2), round(change.mean + change.half_width, 2)],
        "decisions": counted.decisions,
        "changed": counted.changed,
    }


def name(rules: Rules) -> str:
    return ",".join(f"{k}={v}" for k, v in rules.changed().items()) or "default"


def row(summary: dict[str, Any]) -> str:
    low, high = summary["win_ci95"]
    mlow, mhigh = summary["margin_ci95"]
    share = summary["changed"] / summary["decisions"] if summary["decisions"] else 0.0
    rules = name(Rules(**summary["rules"]))
    return (
        f"| {rules} | {summary['level']} | {summary['positions']} | {100 * summary['win_rate']:.1f}% "
        f"[{100 * low:.1f}%, {100 * high:.1f}%] | {summary['margin_change_per_hand']:+.1f} "
        f"[{mlow:+.1f}, {mhigh:+.1f}] | {100 * share:.1f}% |"
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--positions", type=int, default=200, help="near-end positions per rule set and level"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--levels", default="normal,easy", help="comma-separated levels of LEVELS")
    parser.add_argument(
        "--match-ends", default=",".join(r.match_end for r in RULES), help="match_end values of RULES to play"
    )
    args = parser.parse_args()
    rows: list[str] = []
    for rules in (r for r in RULES if r.match_end in args.match_ends.split(",")):
        for level in args.levels.split(","):
            summary = measure(level, rules, args.positions, args.seed)
            print(json.dumps(summary), flush=True)
            rows.append(row(summary))
    print("| rules | level | positions | match-aware win rate (chance 25%) [95% CI] "
          "| margin change per hand [95% CI] | decisions changed |")  # fmt: skip
    print("|---|---|---|---|---|---|")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
