#!/usr/bin/env python3
"""The paired difference a hand between two players of Hard that differ only in their exposures (by
default the game's Hard and ``hard-expose-normal``, whose exposures' playouts play every opponent as
Normal), at the later hands of a style's table, playing only the seatings where the two expose
differently.

    PYTHONPATH=. python3 bench/expose_paired.py --style spiteful --deals 400 --jobs 2 --log FILE
    PYTHONPATH=. python3 bench/expose_paired.py --from-log FILE

Each deal is the second hand of its match, its first hand played by the table with the challenger's
seat played by Normal (``bench/strength.py --later``, ``gongzhu.tournament.first_hand_played``), the
challenger in each of the four seats.  An exposure is decided from a view that no other seat's
exposure changes, and every later decision of Hard is the same function of the same view whatever its
exposure setting, so where the two expose alike they play the whole hand alike: their difference there
is 0, and only the other seatings are played, both ways (about a third of the work of
``bench/strength.py --later`` with both challengers).  The difference of a deal is the mean over its four
seatings, as in ``bench/strength.py --difference``, which gives the same figure on the deals of two full
logs (``tests/test_tournament.py``; on 8 deals at the `selfish` table, ``bench/results/ABLE.md``).
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from able import register_able
from panel import register_panel
from variants import register_variants

from gongzhu.agent import DEFAULT_TIMEOUT
from gongzhu.ai.search import hand_margin
from gongzhu.game import State, new_match, view_for
from gongzhu.rng import tournament_deal_seed
from gongzhu.simulate import play_hand
from gongzhu.stats import mean_interval95
from gongzhu.tournament import first_hand_played, seating
from gongzhu.workers import batches, local_pool, results


def _register() -> None:
    register_able()
    register_panel()
    register_variants()


def _margin(state: State, players: list[Any], seat: int) -> float:
    """The hand margin of ``seat`` in the hand ``players`` play from ``state`` (its expose phase)."""
    _state, log = play_hand(state, players)
    return hand_margin(log["scores"], seat, 1.0)


def _seating_difference(base: str, variant: str, style: str, seat: int, dseed: int) -> float | None:
    """The variant's margin minus the base's in one seating, or None where they expose alike (both
    play the second hand from the one first hand, which the challenger's seat does not play)."""
    with (
        seating(base, style, seat, dseed, DEFAULT_TIMEOUT) as players,
        seating(variant, style, seat, dseed, DEFAULT_TIMEOUT) as others,
    ):
        state = first_hand_played(new_match(dseed), players, seat, DEFAULT_TIMEOUT)
        if state["phase"] != "expose" or state["expose_choices"][seat] is not None:
            return None
        view = view_for(state, seat)
        if sorted(players[seat].expose(view)) == sorted(others[seat].expose(view)):
            return None
        return _margin(state, others, seat) - _margin(state, players, seat)


def play_deal(base: str, variant: str, style: str, seed: int, deal: int) -> dict[str, Any]:
    """One deal's four seatings: whether the two challengers exposed differently, and the variant's
    margin minus the base's (0 where they exposed alike)."""
    dseed = tournament_deal_seed(seed, deal)
    found = [_seating_difference(base, variant, style, seat, dseed) for seat in range(4)]
    changed = [d is not None for d in found]
    differences = [0.0 if d is None else d for d in found]
    return {"deal": deal, "changed": changed, "differences": differences}


def _play_group(base: str, variant: str, style: str, seed: int, deals: list[int]) -> list[dict[str, Any]]:
    _register()
    return [play_deal(base, variant, style, seed, deal) for deal in deals]


def read_rows(path: str) -> list[dict[str, Any]]:
    """The deals' lines of a ``--log`` file."""
    return [json.loads(line) for line in Path(path).read_text().splitlines()]


def summary(rows: list[dict[str, Any]]) -> str:
    """The mean difference a hand with its 95% interval over the deals, and how many seatings
    exposed differently."""
    by_deal = mean_interval95([sum(row["differences"]) / 4 for row in rows])
    changed = sum(sum(row["changed"]) for row in rows)
    return (
        f"{by_deal.mean:+.1f} [{by_deal.low:+.1f}, {by_deal.high:+.1f}] a hand on {len(rows)} deals "
        f"({changed} of {4 * len(rows)} seatings exposed differently)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--base", default="hard-expose-normal", help="the player spec measured against")
    parser.add_argument(
        "--variant", default="hard", help="a player spec differing from the base only in exposures"
    )
    parser.add_argument("--style", default="selfish", help="the style of the other three seats")
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--log", help="append each deal's line here (a run started again skips its deals)")
    parser.add_argument("--from-log", help="summarise this log and stop")
    args = parser.parse_args()
    if args.from_log:
        print(summary(read_rows(args.from_log)))
        return
    _register()
    done = {row["deal"] for row in read_rows(args.log)} if args.log and Path(args.log).exists() else set()
    todo = [d for d in range(args.deals) if d not in done]
    play = functools.partial(_play_group, args.base, args.variant, args.style, args.seed)
    played: list[dict[str, Any]] = []
    with local_pool(args.jobs) as pool:
        for row in results(pool, play, batches(todo, 4), args.jobs):
            played.append(row)
            if args.log:
                with open(args.log, "a") as out:
                    out.write(json.dumps(row) + "\n")
    if args.log:
        played = read_rows(args.log)
    print(summary(played))


if __name__ == "__main__":
    main()
