"""The able panel: styles about as strong as Normal that play differently from it (benchmarks only).

The opponent panel (``bench/panel.py``) holds styles weaker than Normal: Hard's margin against them
measures how it punishes weak play.  These styles are each within 15 points a hand of Normal's
strength and disagree with Normal on at least 30% of fixed positions (``bench/results/ABLE.md``), so
Hard's edge over Normal at their tables measures how it does among able players with other habits.
None is a level of the game: :func:`register_able` makes them player specs of the running process
(``bench/strength.py --panel --styles ...`` calls it).

Every style is a small search over the hidden cards (:mod:`gongzhu.ai.search`) with worlds drawn
alike (it reads nothing into the others' plays), two or three worlds a decision (its strength's knob,
set so that each is within 15 of Normal), and its own way of valuing a world or of playing the others
in its playouts:

- ``selfish``: values a world by its own hand score alone (never by what the others take);
- ``spiteful``: values a world by its own score minus 1.5 times the others' mean, so it loads
  points onto the others rather than keep its own hand clean;
- ``duckers``: plays out every world with everyone ducking as the cautious style does (keeping
  high cards, shedding low), so it expects the table to duck;
- ``exposer``: values the hand margin, and exposes whenever exposing is not clearly worse than
  not (more often than Normal).

Each reads only its own seat's view, like every player.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass, replace

from panel import POSITION_SEEDS, cautious_play, disagreement, fixed_positions

from gongzhu.ai.config import HARD, HardConfig
from gongzhu.ai.hard import HardPlayer
from gongzhu.ai.knowledge import Knowledge
from gongzhu.ai.sampling import sample_world
from gongzhu.ai.sim import Policy, Table
from gongzhu.ai.worlds import Afford, Uniform, Worlds
from gongzhu.players import added_players, register_player


def _ducking(policy: Policy, rng: random.Random) -> Policy:
    """Every seat plays the cautious style's card (the playouts of ``duckers``)."""

    def choose(table: Table, seat: int, legal: int) -> int:
        return cautious_play(table, seat, legal, rng)

    return choose


@dataclass(frozen=True)
class DuckingWorlds:
    """Worlds drawn alike, played out with every seat ducking."""

    def draw(self, k: Knowledge, rng: random.Random, afford: Afford) -> Worlds:
        count, _chains = afford(None)
        return ((sample_world(k, rng), _ducking) for _ in range(count))


#: What every able style shares: worlds drawn alike and exposures played out by Normal (the others' plays
#: weigh nothing), two worlds per decision, no exact endgame, the hand alone (no match plan).  With more worlds a style is stronger
#: than Normal (three worlds or more with the exact endgame: Normal loses 50-110 a hand to each).
ABLE = replace(
    HARD,
    worlds=Uniform(),
    budget=0,
    min_worlds=2,
    max_worlds=2,
    exact_cards=0,
    match_aware=False,
    lookahead=False,
    expose_judging=None,
)

STYLES: dict[str, HardConfig] = {
    "selfish": replace(ABLE, opponent_weight=0.0),
    "spiteful": replace(ABLE, opponent_weight=1.5),
    "duckers": replace(ABLE, worlds=DuckingWorlds(), min_worlds=3, max_worlds=3),
    "exposer": replace(ABLE, expose_margin=-3.0),
}
#: The able panel, in the order of its table.
ABLE_PANEL: tuple[str, ...] = tuple(STYLES)


def register_able() -> None:
    """Make the able styles player specs in this process (benchmarks only, never in the game)."""
    registered = added_players(ABLE_PANEL)
    for name, config in STYLES.items():
        if name not in registered:
            register_player(name, functools.partial(HardPlayer, config=config))


def main() -> None:
    """Print how often each able style plays another card than Normal (and than each other) on the
    panel's fixed positions."""
    register_able()
    views = fixed_positions()
    names = ["normal", *ABLE_PANEL]
    print(
        f"Disagreement on {len(views)} fixed positions (Normal's self-play, seeds {POSITION_SEEDS[0]}–"
        f"{POSITION_SEEDS[-1]}):\n"
    )
    print("| | " + " | ".join(names[1:]) + " |")
    print("|---|" + "---:|" * (len(names) - 1))
    for i, first in enumerate(names[:-1]):
        cells = [
            f"{disagreement(first, second, views):.2f}" if j > i else ""
            for j, second in enumerate(names[1:], 1)
        ]
        print(f"| {first} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
