"""Hard: a player that searches over the hidden cards (see :mod:`gongzhu.ai.search`).

The player plays for the match (:mod:`gongzhu.ai.match`: when the match can end soon it values a
world by the match outcome); :func:`choose_play` and :func:`choose_expose` default to the hand
margin alone, which is what the hint and the coach explain in points.
"""

from __future__ import annotations

import random

from ..cards import DECK, to_codes, to_mask
from ..game import View
from .knowledge import read_view
from .levels import view_seed
from .search import DEFAULT_BUDGET, OPPONENT_WEIGHT, OPPONENTS, Evaluation, evaluate_exposes, evaluate_plays

EXPOSE_MARGIN = 5.0  # an exposure must beat exposing nothing by this many expected points


def choose_play(
    view: View,
    seed: int = 0,
    budget: int = DEFAULT_BUDGET,
    opponent_weight: float = OPPONENT_WEIGHT,
    match_aware: bool = False,
    lookahead: bool = True,
    opponents: str = OPPONENTS,
) -> tuple[str, Evaluation | None]:
    """Hard's card for a play-phase view, with the evaluation behind it (None when forced)."""
    legal = to_mask(view["legal"])
    if legal & (legal - 1) == 0:
        return DECK[legal.bit_length() - 1], None
    rng = random.Random(view_seed(seed, view, "hard-play"))
    k = read_view(view)
    evaluation = evaluate_plays(
        k, legal, rng, budget, opponent_weight, match_aware, lookahead=lookahead, opponents=opponents
    )
    return DECK[evaluation.best()], evaluation


def choose_expose(
    view: View,
    seed: int = 0,
    budget: int = DEFAULT_BUDGET,
    opponent_weight: float = OPPONENT_WEIGHT,
    match_aware: bool = False,
) -> tuple[list[str], Evaluation]:
    """Hard's exposure for an expose-phase view, with the evaluation behind it."""
    exposable = to_mask(view["exposable"])
    rng = random.Random(view_seed(seed, view, "hard-expose"))
    k = read_view(view)
    evaluation = evaluate_exposes(k, exposable, rng, budget, opponent_weight, match_aware=match_aware)
    return pick_exposure(evaluation), evaluation


def pick_exposure(evaluation: Evaluation) -> list[str]:
    """The best exposure, unless it beats exposing nothing by less than ``EXPOSE_MARGIN``."""
    best = evaluation.best()
    if evaluation.values[best] < evaluation.values[0] + EXPOSE_MARGIN:
        best = 0
    return to_codes(best)


class HardPlayer:
    def __init__(
        self,
        seed: int,
        seat: int,
        budget: int = DEFAULT_BUDGET,
        opponent_weight: float = OPPONENT_WEIGHT,
        match_aware: bool = True,
        lookahead: bool = True,
        opponents: str = OPPONENTS,
    ) -> None:
        self.seed = seed
        self.seat = seat
        self.budget = budget
        self.opponent_weight = opponent_weight
        self.match_aware = match_aware  # value worlds by the match outcome near the end of a match
        self.lookahead = lookahead  # own seat looks ahead in the playouts (off: Hard until 2026-12-01 22:00)
        self.opponents = opponents  # how the opponents' plays weigh the worlds (gongzhu.ai.sampling)

    def expose(self, view: View) -> list[str]:
        return choose_expose(view, self.seed, self.budget, self.opponent_weight, self.match_aware)[0]

    def play(self, view: View) -> str:
        return choose_play(
            view,
            self.seed,
            self.budget,
            self.opponent_weight,
            self.match_aware,
            self.lookahead,
            self.opponents,
        )[0]
