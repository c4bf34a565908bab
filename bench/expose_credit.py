"""Crediting Hard's exposures: would Hard gain by exposing more often?  Duplicate hands.

    python bench/expose_credit.py --seed 1 --deals 400 --jobs 2 --credits=-5,25,50,100
    python bench/expose_credit.py --seed 1 --deals 60 --jobs 2 --credits=-5,100 --opponents hard
    python bench/expose_credit.py --from-log x.jsonl          # the table from a saved run

Hard values an exposure by playouts in which every seat, its own included, plays Normal's
strategy, and exposes only when the best exposure beats exposing nothing by ``EXPOSE_MARGIN``
points.  A credit ``c`` is the rule "add ``c`` points to every exposure's value, then take the
best": Hard's own rule is the credit ``-EXPOSE_MARGIN`` (-5; up to exact ties).  A positive
credit would stand for what Hard's own later play makes of an exposed card beyond Normal's.

For every seat of every deal (the tournament's deals for ``--seed``, as ``bench/strength.py`` plays
them) Hard's exposure values are computed once.  Each credit picks an exposure from them; where
the picks differ, the hand is played to the end once per pick, Hard in that seat with its exposure
forced and the ``--opponents`` in the other seats.  Every other hand would be played exactly as
with the first credit (the baseline; Hard is deterministic), so the gain of a credit over the
baseline is the sum of the changed hands' margin differences: per hand, divided by 4 seatings as
in ``bench/strength.py``'s margin, with a 95% interval over the deals.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
from collections.abc import Iterator, Sequence
from typing import Any

from gongzhu.ai import HardPlayer
from gongzhu.ai.config import HARD
from gongzhu.ai.hard import choose_expose
from gongzhu.ai.search import Evaluation, hand_margin
from gongzhu.cards import to_codes
from gongzhu.game import View, new_match, view_for
from gongzhu.players import make_player
from gongzhu.rng import tournament_deal_seed
from gongzhu.simulate import play_hand
from gongzhu.stats import mean_interval95


class ForcedExposure(HardPlayer):
    """Hard, except that its exposure is given."""

    def __init__(self, seed: int, seat: int, exposure: list[str]) -> None:
        super().__init__(seed, seat)
        self.exposure = exposure  # the cards this Hard exposes, whatever its search says

    def expose(self, view: View) -> list[str]:
        return list(self.exposure)


def margin_with(dseed: int, seat: int, exposure: list[str], opponents: str) -> float:
    """Hard's hand margin in ``seat`` of the deal, exposing ``exposure`` (own score − others' mean)."""
    players: list[Any] = [make_player(opponents, dseed, s) for s in range(4)]
    players[seat] = ForcedExposure(dseed, seat, exposure)
    _state, log = play_hand(new_match(dseed), players)
    return hand_margin(log["scores"], seat, 1.0)


def credited_pick(evaluation: Evaluation, credit: float) -> list[str]:
    """The best exposure once ``credit`` is added to every exposure's value (ties: fewer, lower cards)."""
    values = {c: v + credit if c else v for c, v in evaluation.values.items()}
    return to_codes(max(values, key=lambda c: (values[c], -c)))


def picks(evaluation: Evaluation, credits: Sequence[float]) -> list[list[str]]:
    """The exposure each credit picks from Hard's ``evaluation``."""
    return [credited_pick(evaluation, credit) for credit in credits]


def play_deal(task: tuple[int, int, list[float], str]) -> dict[str, Any]:
    """One deal's four seats: per credit, the summed margin gain over the baseline and the changes."""
    seed, deal, credits, opponents = task
    dseed = tournament_deal_seed(seed, deal)
    state = new_match(dseed)
    gains = [0.0] * len(credits)
    changed = [0] * len(credits)
    for seat in range(4):
        view = view_for(state, seat)
        if not view["exposable"]:
            continue
        _cards, evaluation = choose_expose(view, dseed, HARD)
        chosen = picks(evaluation, credits)
        if all(p == chosen[0] for p in chosen):
            continue
        margins = {
            cards: margin_with(dseed, seat, list(cards), opponents) for cards in set(map(tuple, chosen))
        }
        for i, exposure in enumerate(chosen):
            gains[i] += margins[tuple(exposure)] - margins[tuple(chosen[0])]
            changed[i] += exposure != chosen[0]
    return {"deal": deal, "credits": credits, "gains": gains, "changed": changed}


def run(seed: int, deals: int, credits: list[float], opponents: str, jobs: int) -> Iterator[dict[str, Any]]:
    tasks = [(seed, deal, credits, opponents) for deal in range(deals)]
    if jobs == 1:
        yield from map(play_deal, tasks)
        return
    with multiprocessing.Pool(jobs) as pool:
        yield from pool.imap_unordered(play_deal, tasks)


def table(rows: list[dict[str, Any]]) -> str:
    """Per credit: exposures changed, and the gain per hand over the baseline with its 95% interval."""
    credits: list[float] = rows[0]["credits"]
    n = len(rows)
    lines = [
        f"{n} deals x 4 seatings; baseline: credit {credits[0]:g}",
        "",
        "| credit | exposures changed | gain per hand | 95% CI |",
        "|---:|---:|---:|---|",
    ]
    for i, credit in enumerate(credits):
        gain = mean_interval95([r["gains"][i] / 4 for r in rows])
        changed = sum(r["changed"][i] for r in rows)
        lines.append(f"| {credit:g} | {changed} | {gain.mean:+.2f} | [{gain.low:+.2f}, {gain.high:+.2f}] |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1, help="tournament seed (default 1, the benchmark's)")
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument(
        "--credits", default="-5,25,50,100", help="comma-separated; the first is the baseline"
    )
    parser.add_argument("--opponents", default="normal", help="the other three seats' level (default normal)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--log", help="append one JSON line per deal to this file")
    parser.add_argument("--from-log", help="print the table of a saved run and stop")
    args = parser.parse_args(argv)
    if args.from_log:
        with open(args.from_log) as saved:
            print(table([json.loads(line) for line in saved]))
        return 0
    credits = [float(c) for c in args.credits.split(",")]
    rows = []
    with contextlib.ExitStack() as stack:
        log = stack.enter_context(open(args.log, "a")) if args.log else None
        for row in run(args.seed, args.deals, credits, args.opponents, args.jobs):
            rows.append(row)
            if log:
                log.write(json.dumps(row) + "\n")
                log.flush()
    print(table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
