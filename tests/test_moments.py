"""The moments of a finished hand (gongzhu/moments.py): the facts the player's statistics count."""

from __future__ import annotations

from typing import Any

from gongzhu import apply_legal, new_match
from gongzhu.moments import BLOCK_MIN_HEARTS, finished_hand_moments, hand_moments, match_id
from gongzhu.service import bot_action
from gongzhu.table_view import table_view

HEARTS = ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "2H"]


def trick(winner: int, *cards: str) -> dict[str, Any]:
    return {"leader": 0, "winner": winner, "plays": [{"seat": s, "card": c} for s, c in enumerate(cards)]}


def test_pig_goat_and_transformer_alone() -> None:
    captured = [["QS", "2S"], ["JD", "3S"], ["TC", "4S"], ["AH"]]
    moments = hand_moments(captured, [[], [], [], []], [])
    assert moments[0]["codes"] == ["pig_taken"]
    assert moments[1]["codes"] == ["goat_won"]
    assert moments[2]["codes"] == ["transformer_alone"]
    assert moments[3]["codes"] == []


def test_transformer_with_other_points_is_not_alone() -> None:
    moments = hand_moments([["TC", "2H"], [], [], []], [[], [], [], []], [])
    assert "transformer_alone" not in moments[0]["codes"]


def test_all_hearts_and_all_16() -> None:
    moments = hand_moments([[*HEARTS, "QS", "JD", "TC"], [], [], []], [[], [], [], []], [])
    assert moments[0]["codes"] == ["pig_taken", "goat_won", "all_hearts", "all_16"]
    only_hearts = hand_moments([list(HEARTS), [], [], []], [[], [], [], []], [])
    assert only_hearts[0]["codes"] == ["all_hearts"]


def test_exposure_effect_counts_only_the_seats_own_exposure() -> None:
    # Seat 0 exposed QS and took it: -200 instead of -100.  Seat 1 took JD exposed by seat 2.
    captured = [["QS"], ["JD"], [], []]
    exposed = [["QS"], [], ["JD"], []]
    moments = hand_moments(captured, exposed, [])
    assert moments[0]["exposed"] == 1 and moments[0]["exposure_effect"] == -100
    assert moments[1]["exposed"] == 0 and moments[1]["exposure_effect"] == 0
    assert moments[2]["exposed"] == 1 and moments[2]["exposure_effect"] == 0


def test_blocking_an_all_hearts_run_needs_a_real_run() -> None:
    run = [
        trick(1, "2C", h1, h2, h3)
        for h1, h2, h3 in [("AH", "KH", "QH"), ("JH", "TH", "9H"), ("8H", "7H", "6H")]
    ]
    assert sum(3 for _ in run) >= BLOCK_MIN_HEARTS
    blocked = [*run, trick(0, "5H", "3C", "4C", "6C")]
    moments = hand_moments([["5H"], HEARTS[:9], [], []], [[], [], [], []], blocked)
    assert "hearts_blocked" in moments[0]["codes"]
    # Two hearts held are no run: taking one from that seat blocks nothing.
    short = [trick(1, "2C", "AH", "KH", "3C"), trick(0, "5H", "4C", "6C", "7C")]
    moments = hand_moments([["5H"], ["AH", "KH"], [], []], [[], [], [], []], short)
    assert "hearts_blocked" not in moments[0]["codes"]
    # The holder itself taking more hearts blocks nothing either.
    moments = hand_moments(
        [[], HEARTS[:10], [], []], [[], [], [], []], [*run, trick(1, "5H", "3C", "4C", "6C")]
    )
    assert all("hearts_blocked" not in m["codes"] for m in moments)


def test_match_id_is_a_stable_token_that_hides_the_seed() -> None:
    assert match_id(7) == match_id(7)
    assert match_id(7) != match_id(8)
    assert len(match_id(-5)) == 16
    assert all(c in "0123456789abcdef" for c in match_id(-5))


def test_the_table_view_carries_moments_once_the_hand_is_over() -> None:
    state = new_match(11)
    assert table_view(state, 0)["moments"] is None
    assert table_view(state, 0)["match_id"] == match_id(11)
    while state["phase"] in ("expose", "play"):
        for seat in range(4):
            action = bot_action(state, seat, "easy")
            if action is not None:
                state = apply_legal(state, action)
                break
    view = table_view(state, 0)
    moments = view["moments"]
    assert moments == finished_hand_moments(state)
    assert moments is not None and len(moments) == 4
    pig_seat = next(s for s in range(4) if "QS" in state["captured"][s])
    assert [("pig_taken" in m["codes"]) for m in moments] == [s == pig_seat for s in range(4)]


def test_place_counts_the_seats_that_scored_more() -> None:
    moments = hand_moments([["QS"], ["JD"], ["5H"], []], [[], [], [], []], [])
    assert [m["place"] for m in moments] == [4, 1, 3, 2]
    tied = hand_moments([[], [], [], []], [[], [], [], []], [])
    assert [m["place"] for m in tied] == [1, 1, 1, 1]


def test_a_tampered_state_names_no_match_and_has_no_moments() -> None:
    assert match_id("7") == "" and match_id(True) == ""
    state = new_match(11)
    state["phase"] = "hand_over"
    state["captured"] = [["??"], [], [], []]
    assert finished_hand_moments(state) is None
