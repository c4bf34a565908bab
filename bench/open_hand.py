"""The open-hand reference player: benchmarks only, never a level of the game.

It runs Hard's search (:mod:`gongzhu.ai.search`, match objective included) in the one true world
instead of sampled ones: it reads every hand from the full game state.  That breaks the rule that
players see only ``view_for(seat)``, so it lives with the benchmarks, outside the engine package:
:func:`register_open_hand` makes it the player spec ``open-hand`` in a benchmark's process, and
:func:`gongzhu.simulate.play_hand` hands it the state (:class:`gongzhu.simulate.OpenPlayer`).  Its
margin over three Normals is the limit of sampling-based play that Hard is measured against (Hard's
margin / the open-hand player's margin).
"""

from __future__ import annotations

import random

from gongzhu.ai.config import HARD, HARD_MARGIN, HardConfig
from gongzhu.ai.hard import choose_expose, choose_play, pick_exposure
from gongzhu.ai.knowledge import read_view
from gongzhu.ai.search import Evaluation, evaluate_exposes, evaluate_plays
from gongzhu.cards import DECK, to_mask
from gongzhu.game import State, View, view_for
from gongzhu.players import added_players, register_player

OPEN_HAND = "open-hand"  # its player spec in a benchmark's process, and its name in summaries


def register_open_hand() -> None:
    """Make ``open-hand`` a player spec in this process (benchmarks only)."""
    if not added_players([OPEN_HAND]):
        register_player(OPEN_HAND, OpenHandPlayer)


class OpenHandPlayer:
    """Hard's search in the true deal (reads ``state["hands"]``; see the module doc)."""

    def __init__(self, seed: int, seat: int, config: HardConfig = HARD) -> None:
        self.seed = seed  # the player's seed
        self.seat = seat  # the seat it plays
        self.config = config  # Hard's settings it searches with (the game's Hard's by default)

    def expose(self, view: View) -> list[str]:
        raise TypeError("the open-hand player decides from the state (expose_open), not a view")

    def play(self, view: View) -> str:
        raise TypeError("the open-hand player decides from the state (play_open), not a view")

    def _world(self, state: State) -> list[int]:
        return [to_mask(hand) for hand in state["hands"]]

    def expose_open(self, state: State) -> list[str]:
        view = view_for(state, self.seat)
        evaluation = evaluate_exposes(
            read_view(view),
            to_mask(view["exposable"]),
            random.Random(0),
            self.config,
            world=self._world(state),
        )
        return pick_exposure(evaluation, self.config.expose_margin)

    def play_open(self, state: State) -> str:
        view = view_for(state, self.seat)
        legal = to_mask(view["legal"])
        if legal & (legal - 1) == 0:
            return DECK[legal.bit_length() - 1]
        evaluation = evaluate_plays(read_view(view), legal, random.Random(0), self.config, self._world(state))
        return DECK[evaluation.best()]


class JudgedHard(OpenHandPlayer):
    """Hard's choices (made from its view only), each judged by the open-hand search in the true
    deal: the benchmarks' audits of Hard subclass it and receive every judgement."""

    def expose_open(self, state: State) -> list[str]:
        view = view_for(state, self.seat)
        cards, _ = choose_expose(view, self.seed)
        true = evaluate_exposes(
            read_view(view), to_mask(view["exposable"]), random.Random(0), HARD_MARGIN,
            extra=to_mask(cards), world=self._world(state),
        )  # fmt: skip
        self.judge_expose(view, cards, true)
        return cards

    def play_open(self, state: State) -> str:
        view = view_for(state, self.seat)
        card, evaluation = choose_play(view, self.seed)
        if evaluation is not None:
            true = evaluate_plays(
                read_view(view), to_mask(view["legal"]), random.Random(0), HARD_MARGIN, self._world(state)
            )
            self.judge_play(view, card, true)
        return card

    def judge_expose(self, view: View, cards: list[str], true: Evaluation) -> None:
        """Hard exposed ``cards``; ``true``: every exposure's value in the true deal."""

    def judge_play(self, view: View, card: str, true: Evaluation) -> None:
        """Hard played ``card``, a choice it had; ``true``: every legal card's value in the true deal."""
