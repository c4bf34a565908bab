"""Hard as data: one frozen configuration, and the game's Hard as one named value, :data:`HARD`.

A variant of Hard (the benchmarks') is :data:`HARD` with fields replaced::

    from dataclasses import replace
    from gongzhu.ai.config import HARD
    from gongzhu.ai.worlds import Uniform
    unweighted = replace(HARD, worlds=Uniform())

The world model carries the chains' settings (:class:`gongzhu.ai.sampling.Chains`), how an
opponent's decisions are judged (:class:`gongzhu.ai.habits.Judging`: its fit and its habit) and, for
the models that check Normal within the hand, the check's (:class:`gongzhu.ai.inhand.InHandCheck`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .habits import JUDGING, Judging
from .worlds import CheckedHabits, WorldModel


@dataclass(frozen=True)
class HardConfig:
    """Everything that sets how Hard decides (see :mod:`gongzhu.ai.search`)."""

    budget: int = 40_000  # simulated plays per decision, drawing the worlds included (never a clock)
    #: how the opponents' plays weigh the worlds and who plays them in the playouts
    worlds: WorldModel = field(default_factory=CheckedHabits)
    #: the match plan: value a world by the match outcome when the match can end soon (else the hand margin)
    match_aware: bool = True
    lookahead: bool = True  # the seat's own playouts look ahead to the end of each trick it follows
    lookahead_cost: float = 1.5  # a playout with the lookahead costs this many without, paid from the budget
    opponent_weight: float = 1.0  # a world's value: own hand score minus this times the opponents' mean
    exact_cards: int = 8  # solve exactly when this many cards (or fewer) remain after the candidate
    min_worlds: int = 8  # worlds a decision values at least, whatever the budget
    max_worlds: int = 120  # ... and at most
    expose_margin: float = 5.0  # an exposure must beat exposing nothing by this many expected points
    #: how an exposure's playouts judge the opponents by their habits in the previous hand, as a play's
    #: worlds do (None: Normal plays every seat there)
    expose_judging: Judging | None = JUDGING


#: The game's Hard: the opponent in the game and the daily deal.
HARD = HardConfig()
#: The game's Hard valuing the hand margin alone: what the hint and the coach explain in points.
HARD_MARGIN = replace(HARD, match_aware=False)
