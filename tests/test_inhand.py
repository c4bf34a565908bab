"""Normal's weighting checked within the hand (gongzhu/ai/inhand.py): while every opponent fits Normal,
the chains set aside only an opponent they find Normal does not explain; otherwise they are Normal's
posterior's, step for step."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from typing import Any

import pytest

from gongzhu import view_for
from gongzhu.ai import NormalPlayer, search
from gongzhu.ai.config import HARD_MARGIN
from gongzhu.ai.habits import LOWEST, WAYS
from gongzhu.ai.inhand import CheckedChain, burnt_in, checked_habit_worlds, checked_worlds, inhand_fit
from gongzhu.ai.knowledge import read_view
from gongzhu.ai.sampling import CHAINS, has_evidence, posterior_worlds, seat_misses
from gongzhu.ai.search import evaluate_plays, sampled_worlds
from gongzhu.ai.worlds import Checked, CheckedHabits, Habits
from gongzhu.cards import to_mask
from gongzhu.game import new_match
from gongzhu.players import Player

from .ai_helpers import nobody_exposes, played_until
from .test_ai import _every_world, assert_drawn_as_weighed
from .test_habits import LowestPlayer


def _first_hand(seed: int, lowest_seats: tuple[int, ...], tricks: int) -> dict[str, Any]:
    """Hand 1 of match ``seed``, Normals but for players of their lowest card in ``lowest_seats``,
    until ``tricks`` tricks are done and it is seat 0's turn."""
    players: list[Player] = [
        LowestPlayer(seed, s) if s in lowest_seats else NormalPlayer(seed, s) for s in range(4)
    ]
    return played_until(nobody_exposes(new_match(seed)), players, tricks)


def test_the_fit_needs_clear_evidence_before_it_leaves_normal() -> None:
    assert inhand_fit(0.0, 0.0) == 1.0  # nothing seen: the prior, far on Normal's side
    assert inhand_fit(1.0, 3.0) == 1.0  # one miss in three plays is not enough
    assert inhand_fit(0.5, 10.0) == 1.0
    assert inhand_fit(3.0, 8.0) == 1.0  # 3 of 8: not yet
    fits = [inhand_fit(m, 8.0) for m in (4.0, 5.0, 6.0)]
    assert 0.5 > fits[0] > fits[1] > fits[2] == 0.0  # more misses, less trust


def test_among_normals_the_checked_chains_are_normals_posterior_step_for_step() -> None:
    compared = 0
    for seed in range(4):
        for tricks in (2, 5, 8):
            k = read_view(view_for(_first_hand(seed, (), tricks), 0))
            if not has_evidence(k) or any(f < 1.0 for f in burnt_in(k, random.Random(seed))[1]):
                continue
            compared += 1
            checked = list(checked_worlds(k, random.Random(seed), 12))
            assert checked == list(posterior_worlds(k, random.Random(seed), 12))
    assert compared >= 10


def test_normals_are_kept_and_a_player_of_its_lowest_card_is_set_aside() -> None:
    """Seat 0 judges at trick 8 of ten first hands: seats 1 and 3 are Normals, seat 2 plays low."""
    normal_kept = lowest_set_aside = 0
    for seed in range(10):
        k = read_view(view_for(_first_hand(seed, (2,), 7), 0))
        fits = burnt_in(k, random.Random(seed))[1]
        normal_kept += (fits[1] == 1.0) + (fits[3] == 1.0)
        lowest_set_aside += fits[2] < 0.5
    assert normal_kept >= 18  # of 20
    assert lowest_set_aside >= 8  # of 10


def test_set_aside_chains_weigh_each_seats_misses_by_its_fit() -> None:
    """Three cards left each (every world listed): reweighed, a chain draws the worlds in proportion
    to the chains' mismatch to the power of each seat's misses times its weight."""
    state = _first_hand(0, (1, 2), 10)
    k = read_view(view_for(state, 0))
    weights = [1.0, 0.2, 0.0, 1.0]
    worlds = _every_world(k, [len(h) for h in state["hands"]])
    chance = [
        CHAINS.mismatch ** sum(m * w for m, w in zip(seat_misses(k, x, [1.0] * 4)[1], weights, strict=True))
        for x in worlds
    ]
    rng = random.Random(0)
    chain = CheckedChain(k, rng)
    chain.reweigh(weights)
    drawn = []
    for i in range(6000):
        chain.step()
        if i >= 100 and i % 3 == 0:
            drawn.append(list(chain.world))
    assert_drawn_as_weighed(worlds, chance, drawn, 0.05)
    assert math.isclose(chain.cost, sum(m * w for m, w in zip(chain.misses, weights, strict=True)))


def test_hard_checked_decides_as_hard_by_habits_among_normals() -> None:
    view = view_for(_first_hand(2, (), 4), 0)
    k, legal = read_view(view), to_mask(view["legal"])
    assert not any(f < 1.0 for f in burnt_in(k, random.Random(5))[1])
    checked = evaluate_plays(k, legal, random.Random(5), replace(HARD_MARGIN, budget=6000, worlds=Checked()))
    habits = evaluate_plays(k, legal, random.Random(5), replace(HARD_MARGIN, budget=6000, worlds=Habits()))
    assert checked.values == habits.values and checked.worlds == habits.worlds


def test_a_set_aside_player_of_its_lowest_card_is_judged_to_play_low_in_the_worlds_and_playouts() -> None:
    judged = 0
    for seed in range(1, 5):
        k = read_view(view_for(_first_hand(seed, (2,), 7), 0))
        habits, worlds = checked_habit_worlds(k, random.Random(seed), 6)
        assert len(list(worlds)) == 6
        assert habits[0] is None and habits[1] is None  # this seat; a Normal
        habit = habits[2]
        if habit is not None:
            judged += 1
            for situation in habit:
                assert max(range(len(WAYS)), key=lambda w: situation[w]) == LOWEST
        drawn = list(
            sampled_worlds(
                k, random.Random(seed), replace(HARD_MARGIN, budget=6000, worlds=CheckedHabits()), 40
            )
        )
        assert all((playouts is not None) == (habit is not None) for _world, playouts in drawn)
    assert judged >= 3


def test_among_normals_hard_checked_by_habits_draws_normals_posterior() -> None:
    k = read_view(view_for(_first_hand(2, (), 4), 0))
    habits, worlds = checked_habit_worlds(k, random.Random(5), 12)
    assert habits == [None] * 4
    assert list(worlds) == list(posterior_worlds(k, random.Random(5), 12))


def test_the_habits_playouts_draw_from_sources_seeded_by_integers(monkeypatch: pytest.MonkeyPatch) -> None:
    """A float seed is hashed, and the browser's 32-bit Python hashes floats unlike CPython's: seeded
    by one, Hard's playouts would play other cards in the page than in the CPython that predicts it
    (tests/e2e/test_same_decisions.py)."""
    seeds: list[object] = []

    class SeedSpy(random.Random):
        def __init__(self, x: int | float | str | bytes | bytearray | None = None) -> None:
            seeds.append(x)
            super().__init__(x)

    view = next(
        v
        for v in (view_for(_first_hand(seed, (2,), 7), 0) for seed in range(1, 5))
        if checked_habit_worlds(read_view(v), random.Random(0), 1)[0][2] is not None
    )
    monkeypatch.setattr(search.random, "Random", SeedSpy)
    evaluate_plays(
        read_view(view), to_mask(view["legal"]), random.Random(0), replace(HARD_MARGIN, budget=6000)
    )
    assert seeds and all(type(seed) is int for seed in seeds)
