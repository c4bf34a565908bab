"""Hard plays for the match near its end: constructed last tricks where the match objective and the
hand margin disagree, and the match objective's pieces."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from gongzhu import view_for
from gongzhu.ai import EasyPlayer, HardPlayer, NormalPlayer
from gongzhu.ai.config import HARD
from gongzhu.ai.match import match_in_reach, win_chance
from gongzhu.game import match_winner

from .ai_helpers import crafted_state

SMALL = 3000  # Hard's budget in tests


def last_tricks(totals: list[int], hands: list[list[str]], plays: list[str]) -> dict[str, Any]:
    """Seat 1 is last to play to a trick led by seat 2; the three unknown cards decide nothing.
    Seat 2 has taken 2H 3H 4H (0 points, but nobody can take all hearts); the other cards gone are
    seat 3's (9 hearts, pig, goat and transformer: −380, far from −1000)."""
    state = crafted_state(hands, leader=2, plays=plays, captured=[[], [], ["2H", "3H", "4H"], []], dump=3)
    state["totals"] = list(totals)
    view = view_for(state, 1)
    assert view["turn"] == 1
    return view


def behind_do_not_end_it() -> dict[str, Any]:
    """Seat 0 (−995) wins the trick with 9S and a 5H in it unless seat 1 overtakes with TS.

    Ducking (2S) hands seat 0 the 5H: −1005, the match ends and seat 2 (150) beats seat 1 (100).
    Overtaking costs seat 1 10 points (the hand margin prefers ducking: +3.3 against −10) but
    keeps the match alive."""
    return last_tricks(
        [-995, 100, 150, 0],
        [["5D"], ["TS", "2S"], ["3D"], ["4D"]],
        ["7S", "5H", "9S"],
    )


def ahead_push_it_over() -> dict[str, Any]:
    """Seat 0 (−995) wins the club trick; seat 1, void in clubs, can discard 5H there (seat 0 −1005:
    the match ends, seat 1 wins) or 3S, and then the 5H goes to whoever wins the last (spade) trick;
    the hand margin is the same either way (an opponent takes the 5H), only the match tells them
    apart."""
    return last_tricks(
        [-995, 200, 150, 0],
        [["4S"], ["5H", "3S"], ["5S"], ["6S"]],
        ["7C", "8C", "9C"],
    )


def test_the_match_objective_pieces() -> None:
    assert match_winner([-1005, 100, 150, 0]) == 2 and match_winner([-1005, 150, 150, 0]) is None
    assert win_chance([-1005, 100, 150, 0], 2) == 1.0 and win_chance([-1005, 100, 150, 0], 1) == 0.0
    # a tie at the top plays on: neither leader has won yet, and both have the same chance
    tied = [-1005, 150, 150, 0]
    assert 0 < win_chance(tied, 1) == win_chance(tied, 2) < 1
    # a lead counts for more when the end is near
    assert win_chance([-900, 200, 100, 0], 1) > win_chance([0, 200, 100, 0], 1) > 0.25
    assert match_in_reach([-600, 0, 0, 0]) and not match_in_reach([-400, 0, 0, 0])


@pytest.mark.parametrize("seed", [1, 2])
def test_hard_behind_does_not_end_the_match(seed: int) -> None:
    view = behind_do_not_end_it()
    assert (
        HardPlayer(seed, 1, replace(HARD, budget=SMALL, match_aware=False)).play(view) == "2S"
    )  # the hand margin
    assert HardPlayer(seed, 1, replace(HARD, budget=SMALL)).play(view) == "TS"


@pytest.mark.parametrize("seed", [1, 2])
def test_hard_ahead_pushes_the_last_player_over_the_line(seed: int) -> None:
    view = ahead_push_it_over()
    assert (
        HardPlayer(seed, 1, replace(HARD, budget=SMALL, match_aware=False)).play(view) == "3S"
    )  # margin tie: lowest
    assert HardPlayer(seed, 1, replace(HARD, budget=SMALL)).play(view) == "5H"


def test_far_from_the_end_hard_plays_the_hand_margin() -> None:
    view = behind_do_not_end_it()
    view["totals"] = [-300, 100, 150, 0]  # the match cannot end with this hand
    assert HardPlayer(1, 1, replace(HARD, budget=SMALL)).play(view) == "2S"


@pytest.mark.parametrize("view", [behind_do_not_end_it(), ahead_push_it_over()])
def test_easy_and_normal_ignore_the_totals(view: dict[str, Any]) -> None:
    early = dict(view, totals=[0, 0, 0, 0])
    for player in (EasyPlayer(1, 1), NormalPlayer(1, 1)):
        assert player.play(view) == player.play(early)
