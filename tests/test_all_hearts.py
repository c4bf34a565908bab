"""All-hearts defence: one legal card stops an opponent's all-hearts run at small cost.

In every position the runner has captured every heart played so far (the gone cards are dumped into
its captures) and the seat on turn has exactly one kind of card that takes a heart away from it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from gongzhu.ai import HardPlayer, NormalPlayer
from gongzhu.ai.config import HARD

from .ai_helpers import crafted_view

SMALL = 3000  # Hard's budget in tests (the search logic is the same as in the game)


def follow_with_the_boss_heart() -> dict[str, Any]:
    """Seat 0 runs and leads 5H; seat 1's JH is the highest heart out and wins (−30), 2H feeds the run."""
    return crafted_view(
        [["4H", "3C", "4C"], ["JH", "2H", "5C", "6C"], ["7C", "8C", "9C", "2D"], ["3D", "4D", "5D", "6D"]],
        leader=0,
        plays=["5H"],
        dump=0,
    )


def overtake_to_catch_the_last_heart() -> dict[str, Any]:
    """Seat 0 runs, leads 9C; seat 1 discards 3H, the last heart out; seat 3 last can overtake with QC (0)."""
    return crafted_view(
        [["2S", "3S", "4S"], ["5D", "6D", "7D"], ["2C", "8D", "9D"], ["QC", "3C", "5S", "6S"]],
        leader=0,
        plays=["9C", "3H", "4C"],
        dump=0,
    )


def lead_the_boss_heart() -> dict[str, Any]:
    """Seat 0 runs and holds the top cards; seat 1 leads: a heart it holds wins the trick (−10), others
    let seat 0 win every trick and take the last hearts."""
    return crafted_view(
        [
            ["AC", "AD", "KC", "KD"],
            ["8H", "5H", "3C", "3D"],
            ["4H", "5C", "5D", "6C"],
            ["2H", "6D", "7C", "7D"],
        ],
        leader=1,
        dump=0,
    )


def discard_onto_a_rival_trick() -> dict[str, Any]:
    """Seat 2 runs; seat 1's KS wins the trick and seat 0, void in spades and last to play, holds the
    last heart out: discarding 2H there (0 points) stops the run; keeping it, seat 2 takes it at the end."""
    return crafted_view(
        [["2H", "AC", "2D", "3D"], ["6D", "7D", "8D"], ["AD", "KD", "QD"], ["9D", "TD", "5C"]],
        leader=1,
        plays=["KS", "3S", "5S"],
        dump=2,
    )


POSITIONS = {
    "follow_with_the_boss_heart": (follow_with_the_boss_heart, {"JH"}),
    "overtake_to_catch_the_last_heart": (overtake_to_catch_the_last_heart, {"QC"}),
    "lead_the_boss_heart": (lead_the_boss_heart, {"8H", "5H"}),
    "discard_onto_a_rival_trick": (discard_onto_a_rival_trick, {"2H"}),
}


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_the_positions_are_all_hearts_threats(name: str) -> None:
    make, stoppers = POSITIONS[name]
    view = make()
    assert stoppers <= set(view["legal"]) and len(view["legal"]) > len(stoppers)
    hearts_taken = [sum(1 for c in captured if c.endswith("H")) for captured in view["captured"]]
    assert sorted(hearts_taken)[:3] == [0, 0, 0] and max(hearts_taken) >= 9


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_normal_stops_the_run(name: str) -> None:
    make, stoppers = POSITIONS[name]
    view = make()
    assert NormalPlayer(1, view["seat"]).play(view) in stoppers


@pytest.mark.parametrize("name", sorted(POSITIONS))
@pytest.mark.parametrize("seed", [1, 2])
def test_hard_stops_the_run(name: str, seed: int) -> None:
    make, stoppers = POSITIONS[name]
    view = make()
    assert HardPlayer(seed, view["seat"], replace(HARD, budget=SMALL)).play(view) in stoppers
