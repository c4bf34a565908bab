"""Hard: a player that searches over the hidden cards (see :mod:`gongzhu.ai.search`), set by one
frozen configuration (:mod:`gongzhu.ai.config`: the game's is :data:`~gongzhu.ai.config.HARD`).

The player plays for the match (:mod:`gongzhu.ai.match`: when the match can end soon it values a
world by the match outcome); :func:`choose_play` and :func:`choose_expose` default to the hand
margin alone (:data:`~gongzhu.ai.config.HARD_MARGIN`), which is what the hint and the coach explain
in points.
"""

from __future__ import annotations

import random

from ..cards import DECK, to_codes, to_mask
from ..game import View
from .config import HARD, HARD_MARGIN, HardConfig
from .knowledge import read_view
from .levels import view_seed
from .search import Evaluation, evaluate_exposes, evaluate_plays


def choose_play(view: View, seed: int = 0, config: HardConfig = HARD_MARGIN) -> tuple[str, Evaluation | None]:
    """Hard's card for a play-phase view, with the evaluation behind it (None when forced)."""
    legal = to_mask(view["legal"])
    if legal & (legal - 1) == 0:
        return DECK[legal.bit_length() - 1], None
    rng = random.Random(view_seed(seed, view, "hard-play"))
    evaluation = evaluate_plays(read_view(view), legal, rng, config)
    return DECK[evaluation.best()], evaluation


def choose_expose(
    view: View, seed: int = 0, config: HardConfig = HARD_MARGIN
) -> tuple[list[str], Evaluation]:
    """Hard's exposure for an expose-phase view, with the evaluation behind it."""
    exposable = to_mask(view["exposable"])
    rng = random.Random(view_seed(seed, view, "hard-expose"))
    evaluation = evaluate_exposes(read_view(view), exposable, rng, config)
    return pick_exposure(evaluation, config.expose_margin), evaluation


def pick_exposure(evaluation: Evaluation, margin: float = HARD.expose_margin) -> list[str]:
    """The best exposure, unless it beats exposing nothing by less than ``margin``."""
    best = evaluation.best()
    if evaluation.values[best] < evaluation.values[0] + margin:
        best = 0
    return to_codes(best)


class HardPlayer:
    """Hard in one seat, deciding by ``config`` (the game's Hard by default)."""

    def __init__(self, seed: int, seat: int, config: HardConfig = HARD) -> None:
        self.seed = seed  # the player's seed (with the view, it seeds each decision)
        self.seat = seat  # the seat it plays
        self.config = config  # how it decides

    def expose(self, view: View) -> list[str]:
        return choose_expose(view, self.seed, self.config)[0]

    def play(self, view: View) -> str:
        return choose_play(view, self.seed, self.config)[0]
