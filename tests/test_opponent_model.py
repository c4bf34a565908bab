"""Hard's ways of weighing the worlds by the opponents' plays this hand (gongzhu/ai/sampling.py): the
misses of Normal's strategy, counted seat by seat, and who plays the opponents in the playouts."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from gongzhu import new_match, view_for
from gongzhu.ai import NormalPlayer
from gongzhu.ai.config import HARD, HARD_MARGIN
from gongzhu.ai.knowledge import read_view
from gongzhu.ai.sampling import mismatches, sample_world, seat_misses
from gongzhu.ai.search import sampled_worlds
from gongzhu.ai.worlds import Checked, CheckedHabits, Fitted, Habits, NormalPosterior, Uniform
from gongzhu.players import RandomPlayer

from .ai_helpers import nobody_exposes, played_until


def _position(seed: int, tricks_done: int, normals: set[int]) -> dict[str, Any]:
    """Hand 1 of match ``seed`` until ``tricks_done`` tricks and seat 0's turn: the seats in
    ``normals`` play Normal, the others random legal cards."""
    players = [NormalPlayer(seed, s) if s in normals else RandomPlayer(seed, s) for s in range(4)]
    return played_until(nobody_exposes(new_match(seed)), players, tricks_done)


def test_seat_misses_split_normals_misses_by_seat_and_stop_past_the_limit() -> None:
    costs = [1.0, 2.0, 3.0, 5.0]
    for seed in range(3):
        k = read_view(view_for(_position(seed, 6, {0, 2}), 0))
        rng = random.Random(seed)
        for _ in range(10):
            world = sample_world(k, rng)
            cost, misses, choices = seat_misses(k, world, costs)
            assert sum(misses) == mismatches(k, world)
            assert misses[0] == choices[0] == 0  # the seat's own plays are not evidence
            assert all(m <= c for m, c in zip(misses, choices, strict=True))
            assert cost == sum(m * c for m, c in zip(misses, costs, strict=True))
            if cost:
                stopped, _, _ = seat_misses(k, world, costs, cost - 0.5)
                assert cost - 0.5 < stopped <= cost
                assert seat_misses(k, world, costs, cost)[0] == cost


def test_in_a_first_hand_only_the_in_hand_check_plays_opponents_by_their_habits() -> None:
    """Against random players' plays in a match's first hand there are no habits of a previous hand
    (tests/test_habits.py): every model plays the opponents by the playout policy but the game's, which
    judges an opponent Normal clearly fails to explain within the hand by its habits there
    (tests/test_inhand.py)."""
    k = read_view(view_for(_position(2, 4, set()), 0))
    for model in (NormalPosterior(), Uniform(), Fitted(), Habits(), Checked(), CheckedHabits()):
        worlds = list(
            sampled_worlds(k, random.Random(0), replace(HARD_MARGIN, budget=3000, worlds=model), 40)
        )
        assert worlds
        assert {playouts is not None for _world, playouts in worlds} == {model == HARD.worlds}
