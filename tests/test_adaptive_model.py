"""Hard's adaptive model of the opponents (gongzhu/ai/sampling.py, ``ADAPTIVE``): Normal's weighting
of the worlds for each opponent as far as Normal explains that opponent's plays this hand."""

from __future__ import annotations

import itertools
import random
from typing import Any

from gongzhu import new_match, view_for
from gongzhu.ai import NormalPlayer
from gongzhu.ai.knowledge import read_view
from gongzhu.ai.sampling import (
    MISMATCH,
    adaptive_worlds,
    fitted_chains,
    mismatches,
    normal_fit,
    sample_world,
    seat_misses,
)
from gongzhu.players import RandomPlayer

from .ai_helpers import nobody_exposes, played_until
from .test_ai import _every_world, _holding_odds


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


def test_normal_fit_falls_with_the_share_of_plays_normal_misses() -> None:
    assert normal_fit(0.0, 0.0) == 0.5  # no plays: the prior
    assert normal_fit(0.3, 6.0) > 0.9
    assert normal_fit(3.0, 6.0) < 0.1
    fits = [normal_fit(m / 2, 8.0) for m in range(17)]
    assert all(a > b for a, b in itertools.pairwise(fits))


def test_the_fit_tells_normals_from_random_players_seat_by_seat() -> None:
    """Seats 1 and 3 play Normal, seat 2 random cards: measured after trick 6 over eight deals."""
    fits: list[list[float]] = []
    for seed in range(8):
        k = read_view(view_for(_position(seed, 6, {0, 1, 3}), 0))
        fits.append(fitted_chains(k, random.Random(seed))[1])
    mean = [sum(f[s] for f in fits) / len(fits) for s in range(4)]
    assert mean[1] > 0.5 and mean[3] > 0.5  # measured 0.62 and 0.71
    assert mean[2] < 0.1  # measured 0.01


def test_adaptive_worlds_follow_normal_for_normals_and_ignore_random_players() -> None:
    """Three cards left each (every world listed): with Normals the worlds come out as Normal's
    posterior, with random players as if the plays said nothing."""
    for normals, seed in (({0, 1, 2, 3}, 0), (set(), 1)):
        state = _position(seed, 10, normals)
        k = read_view(view_for(state, 0))
        worlds = _every_world(k, [len(h) for h in state["hands"]])
        posterior = _holding_odds(worlds, [MISMATCH ** mismatches(k, w) for w in worlds])
        uniform = _holding_odds(worlds, [1.0] * len(worlds))
        drawn = list(adaptive_worlds(k, random.Random(seed), 2000))
        chain = _holding_odds(drawn, [1.0] * len(drawn))
        target, other = (posterior, uniform) if normals else (uniform, posterior)
        assert max(abs(other[x] - target[x]) for x in target) > 0.3  # the plays say a lot here
        assert max(abs(chain[x] - target[x]) for x in target) < 0.1
