"""How Hard judges the players it meets: each opponent's fit and habit after one hand (``gongzhu/ai/opponents.py``).

Hand 1 of a match is played by a table of one Normal (seat 0, whose view is read) and three players
of a style (a mixed style ``a+b``: ``a`` in seat 2, ``b`` in seats 1 and 3);
then, at the start of hand 2, seat 0's fits of seats 1–3 are read from its view.  A fit of 1 weighs
that opponent's plays by Normal's posterior, 0 not at all.  An opponent with a fit below 1 also gets
a habit (``gongzhu/ai/habits.py``): how often it played each simple way; the second table gives their
means over those opponents.

    python bench/opponent_fits.py --deals 60 --styles normal,cautious,aggressive,noisy,easy,hard
"""

from __future__ import annotations

import argparse
import statistics

from panel import PANEL, register_panel

from gongzhu.ai.habits import WAYS, Situated
from gongzhu.ai.knowledge import read_view
from gongzhu.ai.opponents import seat_habits
from gongzhu.ai.sim import SITUATIONS
from gongzhu.game import apply_legal, new_match, view_for
from gongzhu.players import make_player
from gongzhu.simulate import play_hand


def seating(style: str) -> list[str]:
    """Seat 0 plays Normal; a mixed style ``a+b`` puts ``a`` in seat 2 and ``b`` in seats 1 and 3."""
    first, _, second = style.partition("+")
    return ["normal", second or first, first, second or first]


def judged_after_one_hand(style: str, deals: int, seed: int) -> tuple[list[float], list[Situated]]:
    """Seat 0's fits of its three opponents at the start of hand 2, over ``deals`` matches, and the
    habits of those that did not fit."""
    fits: list[float] = []
    habits: list[Situated] = []
    for deal in range(deals):
        match = seed * 100_000 + deal
        players = [make_player(spec, match, seat) for seat, spec in enumerate(seating(style))]
        state, _log = play_hand(new_match(match), players)
        if state["phase"] != "hand_over":
            continue  # the first hand ended the match
        state = apply_legal(state, {"type": "next_hand"})
        seat_fits, seat_ways = seat_habits(read_view(view_for(state, 0)))
        fits += seat_fits[1:]
        habits += [habit for habit in seat_ways[1:] if habit is not None]
    return fits, habits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--styles", default=",".join(("normal", *PANEL)))
    args = parser.parse_args()
    register_panel()
    print("| style | opponents judged | mean fit | fit 0 | fit 1 | between |")
    print("|---|---:|---:|---:|---:|---:|")
    judged = {style: judged_after_one_hand(style, args.deals, args.seed) for style in args.styles.split(",")}
    for style, (fits, _habits) in judged.items():
        zero = sum(f == 0.0 for f in fits) / len(fits)
        one = sum(f == 1.0 for f in fits) / len(fits)
        print(
            f"| {style} | {len(fits)} | {statistics.mean(fits):.2f} | {zero:.0%} | {one:.0%} "
            f"| {1 - zero - one:.0%} |"
        )
    print()
    print("| style | situation | opponents with a habit | " + " | ".join(WAYS) + " |")
    print("|---|---|---:|" + "---:|" * len(WAYS))
    for style, (_fits, habits) in judged.items():
        for where, name in enumerate(SITUATIONS):
            means = [
                statistics.mean(h[where][w] for h in habits) if habits else 0.0 for w in range(len(WAYS))
            ]
            print(f"| {style} | {name} | {len(habits)} | " + " | ".join(f"{m:.2f}" for m in means) + " |")


if __name__ == "__main__":
    main()
