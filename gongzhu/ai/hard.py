"""Hard: a player that searches over the hidden cards (see :mod:`gongzhu.ai.search`)."""

from __future__ import annotations

import random

from ..cards import DECK, to_codes, to_mask
from ..game import View
from .knowledge import read_view
from .levels import view_seed
from .search import DEFAULT_BUDGET, OPPONENT_WEIGHT, Evaluation, evaluate_exposes, evaluate_plays

EXPOSE_MARGIN = 5.0  # an exposure must beat exposing nothing by this many expected points


def choose_play(
    view: View, seed: int = 0, budget: int = DEFAULT_BUDGET, opponent_weight: float = OPPONENT_WEIGHT
) -> tuple[str, Evaluation | None]:
    """Hard's card for a play-phase view, with the evaluation behind it (None when forced)."""
    legal = to_mask(view["legal"])
    if legal & (legal - 1) == 0:
        return DECK[legal.bit_length() - 1], None
    rng = random.Random(view_seed(seed, view, "hard-play"))
    evaluation = evaluate_plays(read_view(view), legal, rng, budget, opponent_weight)
    return DECK[evaluation.best()], evaluation


def choose_expose(
    view: View, seed: int = 0, budget: int = DEFAULT_BUDGET, opponent_weight: float = OPPONENT_WEIGHT
) -> tuple[list[str], Evaluation]:
    """Hard's exposure for an expose-phase view, with the evaluation behind it."""
    exposable = to_mask(view["exposable"])
    rng = random.Random(view_seed(seed, view, "hard-expose"))
    evaluation = evaluate_exposes(read_view(view), exposable, rng, budget, opponent_weight)
    best = evaluation.best()
    if evaluation.values[best] < evaluation.values[0] + EXPOSE_MARGIN:
        best = 0
    return to_codes(best), evaluation


class HardPlayer:
    def __init__(
        self, seed: int, seat: int, budget: int = DEFAULT_BUDGET, opponent_weight: float = OPPONENT_WEIGHT
    ) -> None:
        self.seed = seed
        self.seat = seat
        self.budget = budget
        self.opponent_weight = opponent_weight

    def expose(self, view: View) -> list[str]:
        return choose_expose(view, self.seed, self.budget, self.opponent_weight)[0]

    def play(self, view: View) -> str:
        return choose_play(view, self.seed, self.budget, self.opponent_weight)[0]
