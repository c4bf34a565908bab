"""Where Hard loses to the open-hand player: the value of each of Hard's decisions seen with every hand.

    python bench/open_hand_regret.py --deals 12 [--seed 5] [--save bench/results/x.json]

Hard plays hand 1 of each deal against three Normals, once in each seat.  At every decision Hard
makes from its view, the open-hand search (bench/open_hand.py: the same search in the true deal)
values each legal choice; the *regret* is the best choice's value minus the value of Hard's choice.
The table splits it by decision kind (expose, lead, follow suit, discard) and by trick.  One
playout in the true deal judges a choice, so a regret is clairvoyant and noisy: the totals say where
hidden cards cost Hard most, not how many points it loses per hand (the tournament measures that).
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from open_hand import JudgedHard

from gongzhu.ai import NormalPlayer
from gongzhu.ai.search import Evaluation
from gongzhu.cards import INDEX, to_mask
from gongzhu.game import View, new_match
from gongzhu.rng import tournament_deal_seed
from gongzhu.simulate import play_hand

Decision = tuple[str, int, float]  # (kind, tricks done, regret)


class Auditor(JudgedHard):
    """Records the regret of each of Hard's choices against the true deal."""

    def __init__(self, seed: int, seat: int) -> None:
        super().__init__(seed, seat)
        self.decisions: list[Decision] = []  # one per decision that was not forced

    def _regret(self, evaluation: Evaluation, chosen: int) -> float:
        return max(evaluation.values.values()) - evaluation.values[chosen]

    def judge_expose(self, view: View, cards: list[str], true: Evaluation) -> None:
        self.decisions.append(("expose", 0, self._regret(true, to_mask(cards))))

    def judge_play(self, view: View, card: str, true: Evaluation) -> None:
        plays = view["trick"]["plays"]
        kind = "lead" if not plays else "follow" if card[-1] == plays[0]["card"][-1] else "discard"
        self.decisions.append((kind, len(view["tricks"]), self._regret(true, INDEX[card])))


def audit(deals: int, seed: int) -> list[Decision]:
    decisions: list[Decision] = []
    for deal in range(deals):
        dseed = tournament_deal_seed(seed, deal)
        for seat in range(4):
            auditor = Auditor(dseed, seat)
            players = [auditor if s == seat else NormalPlayer(dseed, s) for s in range(4)]
            play_hand(new_match(dseed), players)
            decisions += auditor.decisions
    return decisions


def table(decisions: list[Decision], seatings: int) -> str:
    groups: dict[str, list[float]] = defaultdict(list)
    for kind, tricks, regret in decisions:
        groups[kind].append(regret)
        first = tricks // 3 * 3
        groups[f"tricks {first + 1}–{min(first + 3, 13)}"].append(regret)
    lines = [
        "| decisions | count | regret per hand | mean regret | share with regret > 0 |",
        "|---|---:|---:|---:|---:|",
    ]
    by_trick = sorted(
        (k for k in groups if k.startswith("tricks")), key=lambda k: int(k.split()[1].split("–")[0])
    )
    order = ["expose", "lead", "follow", "discard", *by_trick]
    for key in order:
        values = groups.get(key, [])
        if values:
            share = sum(1 for v in values if v > 0) / len(values)
            lines.append(
                f"| {key} | {len(values)} | {sum(values) / seatings:.1f} | "
                f"{sum(values) / len(values):.1f} | {share:.2f} |"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--save", help="also write the decisions as JSON to this file")
    args = parser.parse_args()
    decisions = audit(args.deals, args.seed)
    if args.save:
        rows: list[Any] = [list(d) for d in decisions]
        Path(args.save).write_text(json.dumps(rows) + "\n")
    print(f"Hard vs 3 Normal, {args.deals} deals x 4 seatings, seed {args.seed}\n")
    print(table(decisions, 4 * args.deals))


if __name__ == "__main__":
    main()
