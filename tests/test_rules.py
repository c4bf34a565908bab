"""Scripted scenarios: following, the exposed-card restriction, refusals that change nothing."""

from __future__ import annotations

import copy

import pytest

from gongzhu import (
    IllegalAction,
    Reason,
    Refusal,
    State,
    apply,
    apply_legal,
    card_refusals,
    legal_plays,
    view_for,
)

from .helpers import crafted_state


def play(state: State, seat: int, card: str) -> State:
    return apply_legal(state, {"type": "play", "seat": seat, "card": card})


def refusal(state: State, seat: int, card: str) -> Refusal:
    before = copy.deepcopy(state)
    result = apply(state, {"type": "play", "seat": seat, "card": card})
    assert isinstance(result, Refusal)
    assert state == before, "a refused action must leave the state untouched"
    return result


# Seat 0 exposed QS and holds other spades; seat 1 exposed AH with other hearts.
HANDS = [
    ["QS", "3S", "4S", "2C", "JD"],
    ["AH", "5H", "KS", "3C", "2D"],
    ["9S", "TH", "4C", "5C", "3D"],
    ["8S", "6H", "6C", "7C", "4D"],
]


def test_exposed_card_may_not_lead_its_suit_first() -> None:
    state = crafted_state(HANDS, [["QS"], ["AH"], [], []], leader=0)
    assert "QS" not in legal_plays(state, 0)
    assert {"3S", "4S", "2C", "JD"} <= set(legal_plays(state, 0))
    assert refusal(state, 0, "QS") == Refusal(Reason.EXPOSED_FIRST_TRICK, "QS", "S")


def test_exposed_card_may_not_follow_in_first_trick_of_its_suit() -> None:
    state = crafted_state([["2H", "3C"], HANDS[1], HANDS[2], HANDS[3]], [[], ["AH"], [], []], leader=0)
    state = play(state, 0, "2H")
    assert legal_plays(state, 1) == ["5H"]
    assert refusal(state, 1, "AH").reason is Reason.EXPOSED_FIRST_TRICK


def test_singleton_exposed_card_is_exempt() -> None:
    state = crafted_state(
        [["2H", "3C"], ["AH", "KS", "3D"], HANDS[2], HANDS[3]], [[], ["AH"], [], []], leader=0
    )
    state = play(state, 0, "2H")
    assert legal_plays(state, 1) == ["AH"]
    lead = crafted_state([["QS", "2C"], HANDS[1], HANDS[2], HANDS[3]], [["QS"], [], [], []], leader=0)
    assert "QS" in legal_plays(lead, 0)


def test_exposed_card_may_be_discarded_on_another_suit() -> None:
    state = crafted_state(
        [["2D", "3C"], ["AH", "5H", "KS"], HANDS[2], HANDS[3]], [[], ["AH"], [], []], leader=0
    )
    state = play(state, 0, "2D")
    assert set(legal_plays(state, 1)) == {"AH", "5H", "KS"}
    play(state, 1, "AH")


def test_restriction_ends_once_its_suit_has_been_led() -> None:
    hands = [["2S", "AC"], ["QS", "3S", "2D"], ["5S", "4D"], ["6S", "5D"]]
    state = crafted_state(hands, [[], ["QS"], [], []], leader=0)
    state = play(state, 0, "2S")
    assert legal_plays(state, 1) == ["3S"]
    for seat, card in ((1, "3S"), (2, "5S"), (3, "6S")):
        state = play(state, seat, card)
    # seat 3 won the spade trick and leads diamonds; seat 1 may now play QS on a spade trick.
    state = crafted_state([["AC"], ["QS", "2D"], ["4D"], ["7S", "5D"]], [[], ["QS"], [], []], leader=3)
    state["tricks"] = [{"leader": 0, "plays": [{"seat": 0, "card": "2S"}, {"seat": 1, "card": "3S"},
                                               {"seat": 2, "card": "5S"}, {"seat": 3, "card": "6S"}], "winner": 3}]  # fmt: skip
    state = play(state, 3, "7S")
    state = play(state, 0, "AC")
    assert legal_plays(state, 1) == ["QS"]


def test_restriction_applies_to_leading_a_suit_someone_else_has_not_opened() -> None:
    # Another player led clubs earlier; that lifts nothing for the exposed QS (a spade).
    state = crafted_state([["QS", "3S", "2H"], ["2C"], ["3C"], ["4C"]], [["QS"], [], [], []], leader=0)
    state["tricks"] = [{"leader": 1, "plays": [{"seat": 1, "card": "5C"}, {"seat": 2, "card": "6C"},
                                               {"seat": 3, "card": "7C"}, {"seat": 0, "card": "8C"}], "winner": 0}]  # fmt: skip
    assert set(legal_plays(state, 0)) == {"3S", "2H"}


def test_must_follow_suit_refusal_names_the_suit() -> None:
    state = crafted_state(HANDS, [[], [], [], []], leader=0)
    state = play(state, 0, "2C")
    assert refusal(state, 1, "KS") == Refusal(Reason.MUST_FOLLOW_SUIT, "KS", "C")
    assert legal_plays(state, 1) == ["3C"]


def test_void_player_may_play_anything() -> None:
    state = crafted_state([["2C", "3S"], ["QS", "KH", "2D"], HANDS[2], HANDS[3]], [[], [], [], []], leader=0)
    state = play(state, 0, "2C")
    assert set(legal_plays(state, 1)) == {"QS", "KH", "2D"}


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        ({"type": "play", "seat": 1, "card": "AH"}, Reason.NOT_YOUR_TURN),
        ({"type": "play", "seat": 0, "card": "AH"}, Reason.NOT_IN_HAND),
        ({"type": "play", "seat": 0, "card": "XX"}, Reason.UNKNOWN_CARD),
        ({"type": "expose", "seat": 0, "cards": []}, Reason.WRONG_PHASE),
        ({"type": "next_hand"}, Reason.WRONG_PHASE),
        ({"type": "dance", "seat": 0}, Reason.BAD_ACTION),
        ({"type": "play", "seat": 7, "card": "2C"}, Reason.BAD_ACTION),
    ],
)
def test_refusals_leave_state_untouched(action: dict[str, object], reason: Reason) -> None:
    state = crafted_state(HANDS, [["QS"], ["AH"], [], []], leader=0)
    before = copy.deepcopy(state)
    result = apply(state, action)
    assert isinstance(result, Refusal) and result.reason is reason
    assert state == before


def test_card_refusals_from_the_view_agree_with_the_engine() -> None:
    state = crafted_state(HANDS, [["QS"], ["AH"], [], []], leader=0)
    state = play(state, 0, "2C")
    answers = card_refusals(view_for(state, 1))
    assert answers["3C"] is None
    for card in ("AH", "5H", "KS", "2D"):
        answer = answers[card]
        assert answer is not None and answer.reason is Reason.MUST_FOLLOW_SUIT and answer.suit == "C"
    waiting = card_refusals(view_for(state, 2))
    assert all(r is not None and r.reason is Reason.NOT_YOUR_TURN for r in waiting.values())


def test_apply_legal_raises_with_the_refusal() -> None:
    state = crafted_state(HANDS, [[], [], [], []], leader=0)
    with pytest.raises(IllegalAction) as caught:
        apply_legal(state, {"type": "play", "seat": 1, "card": "AH"})
    assert caught.value.refusal.reason is Reason.NOT_YOUR_TURN
