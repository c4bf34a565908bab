"""How Hard judges the players it meets: each opponent's fit after one hand (``gongzhu/ai/opponents.py``).

Hand 1 of a match is played by a table of one Normal (seat 0, whose view is read) and three players
of a style (a mixed style ``a+b``: ``a`` in seat 2, ``b`` in seats 1 and 3);
then, at the start of hand 2, seat 0's fits of seats 1–3 are read from its view.  A fit of 1 weighs
that opponent's plays by Normal's posterior, 0 not at all.

    python bench/opponent_fits.py --deals 60 --styles normal,cautious,aggressive,noisy,easy,hard
"""

from __future__ import annotations

import argparse
import statistics

from panel import PANEL, register_panel

from gongzhu.ai.knowledge import read_view
from gongzhu.ai.opponents import normal_fits
from gongzhu.game import apply_legal, new_match, view_for
from gongzhu.players import make_player
from gongzhu.simulate import play_hand


def seating(style: str) -> list[str]:
    """Seat 0 plays Normal; a mixed style ``a+b`` puts ``a`` in seat 2 and ``b`` in seats 1 and 3."""
    first, _, second = style.partition("+")
    return ["normal", second or first, first, second or first]


def fits_after_one_hand(style: str, deals: int, seed: int) -> list[float]:
    """Seat 0's fits of its three opponents at the start of hand 2, over ``deals`` matches."""
    fits: list[float] = []
    for deal in range(deals):
        match = seed * 100_000 + deal
        players = [make_player(spec, match, seat) for seat, spec in enumerate(seating(style))]
        state, _log = play_hand(new_match(match), players)
        if state["phase"] != "hand_over":
            continue  # the first hand ended the match
        state = apply_legal(state, {"type": "next_hand"})
        fits += normal_fits(read_view(view_for(state, 0)))[1:]
    return fits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--styles", default=",".join(("normal", *PANEL)))
    args = parser.parse_args()
    register_panel()
    print("| style | opponents judged | mean fit | fit 0 | fit 1 | between |")
    print("|---|---:|---:|---:|---:|---:|")
    for style in args.styles.split(","):
        fits = fits_after_one_hand(style, args.deals, args.seed)
        zero = sum(f == 0.0 for f in fits) / len(fits)
        one = sum(f == 1.0 for f in fits) / len(fits)
        print(
            f"| {style} | {len(fits)} | {statistics.mean(fits):.2f} | {zero:.0%} | {one:.0%} "
            f"| {1 - zero - one:.0%} |"
        )


if __name__ == "__main__":
    main()
