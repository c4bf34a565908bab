"""How often an all-hearts run succeeds against each level, in self-play.

    python bench/all_hearts.py --hands 2000 --levels random,easy,normal [--save bench/results/x.json]

Each hand is hand 1 of ``new_match(tournament_deal_seed(seed, i))`` played by four copies of the
level; a run succeeds when one player captures all 13 hearts.  The rate's 95% interval is Wilson's.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path
from typing import Any

from gongzhu.cards import HEARTS_MASK, to_mask
from gongzhu.game import new_match
from gongzhu.players import make_player
from gongzhu.rng import tournament_deal_seed
from gongzhu.simulate import play_hand


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def self_play(level: str, hands: int, seed: int) -> dict[str, Any]:
    start = time.perf_counter()
    runs = 0
    for number in range(hands):
        dseed = tournament_deal_seed(seed, number)
        players = [make_player(level, dseed, seat) for seat in range(4)]
        state, _log = play_hand(new_match(dseed), players)
        runs += any(to_mask(c) & HEARTS_MASK == HEARTS_MASK for c in state["captured"])
    low, high = wilson(runs, hands)
    return {
        "level": level,
        "hands": hands,
        "all_hearts": runs,
        "rate": round(runs / hands, 4),
        "ci95": [round(low, 4), round(high, 4)],
        "seconds": round(time.perf_counter() - start, 1),
    }


def table(rows: list[dict[str, Any]]) -> str:
    lines = [
        "| self-play level | hands | all-hearts runs | rate | 95% CI (Wilson) |",
        "|---|---:|---:|---:|---|",
    ]
    for r in rows:
        low, high = r["ci95"]
        lines.append(
            f"| {r['level']} | {r['hands']} | {r['all_hearts']} | {100 * r['rate']:.2f}% "
            f"| [{100 * low:.2f}%, {100 * high:.2f}%] |"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--levels", default="random,easy,normal,hard")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--save", help="also write the rows as a JSON list to this file")
    args = parser.parse_args()
    rows = []
    for level in args.levels.split(","):
        rows.append(self_play(level, args.hands, args.seed))
        if args.save:
            Path(args.save).write_text(json.dumps(rows, indent=1) + "\n")
    print(table(rows))


if __name__ == "__main__":
    main()
