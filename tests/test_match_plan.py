"""Easy and Normal near the end of a match (gongzhu.ai.match.match_plan, the heuristic's ``plan``).

Each position is played by the match-aware player and by the same level without its plan
(``match_aware=False``, the level before it read the match): they must differ where the plan acts and
agree where the match is far from its end. Hard's playouts and opponent model never see a plan."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gongzhu import new_match, view_for
from gongzhu.ai import EasyPlayer, HardPlayer, NormalPlayer
from gongzhu.ai.config import HARD
from gongzhu.ai.match import CHASE, PROTECT, MatchPlan, match_plan
from gongzhu.cards import to_codes
from gongzhu.house_rules import DEFAULT_RULES, Rules

from .ai_helpers import crafted_state
from .helpers import EVERY_RULES

PLANS = st.one_of(
    st.none(),
    st.builds(
        MatchPlan,
        st.sampled_from([PROTECT, CHASE]),
        st.integers(0, 3),
        st.one_of(st.none(), st.tuples(*[st.integers(-200, 1500)] * 4)),
    ),
)

QUICK, FOUR, EIGHT = Rules(match_end="-500"), Rules(match_end="hands:4"), Rules(match_end="hands:8")


def test_the_plan_reads_the_totals_and_the_rules_end() -> None:
    # the last hand of a four-hand match: the single leader protects, a seat far behind chases it
    assert match_plan([-100, 200, 50, 120], 1, FOUR, 4) == MatchPlan(PROTECT, 1, None)
    assert match_plan([-100, 200, 50, 120], 0, FOUR, 4) == MatchPlan(CHASE, 1, None)
    assert match_plan([-100, 200, 50, 120], 3, FOUR, 4) is None  # 80 behind: plays for points
    assert match_plan([-100, 200, 50, 120], 0, FOUR, 2) is None  # two hands before the end
    assert match_plan([-100, 200, 50, 120], 0, EIGHT, 4) is None
    # a quick match with someone near −500: the plan knows each seat's room before the line
    assert match_plan([-300, 150, 0, 20], 2, QUICK) == MatchPlan(CHASE, 1, (200, 650, 500, 520))
    assert match_plan([-300, 150, 0, 20], 2, DEFAULT_RULES) is None  # far from −1000
    assert match_plan([-300, 150, 150, 20], 1, QUICK) is None  # a tie at the top: nobody protects
    # the first hand of a match never has a plan under any rules (so a duplicate deal, which is
    # hand 1 of a new match, plays as before)
    for rules in EVERY_RULES:
        assert all(match_plan([0, 0, 0, 0], seat, rules, 1) is None for seat in range(4))


def _view(state: dict[str, Any], totals: list[int], rules: Rules, hand_number: int) -> dict[str, Any]:
    state = {**state, "totals": totals, "rules": rules.to_json(), "hand_number": hand_number}
    return view_for(state, state["turn"])


def _both(view: dict[str, Any]) -> tuple[str, str]:
    seat = view["seat"]
    return NormalPlayer(1, seat).play(view), NormalPlayer(1, seat, match_aware=False).play(view)


def test_a_chasing_seat_loads_the_transformer_on_the_match_leader() -> None:
    """Seat 0, 300 behind in the last hand, discards last on a diamond trick seat 1 (the leader)
    wins holding a heart, with AH and KH already in its captures: the transformer doubles the
    leader's −105. Playing for its own points, Normal keeps TC (it wants to take it) and sheds 6H."""
    hands = [["TC", "4C", "6H", "2S"], ["3C", "5C", "7C"], ["8C", "9C", "JC"], ["QC", "KC", "AC"]]
    state = crafted_state(hands, 1, ["9D", "5H", "3D"], captured=[[], ["AH", "KH"], [], []], dump=3)
    view = _view(state, [-100, 200, 50, 0], FOUR, 4)
    assert view["seat"] == 0 and view["hand_scores"][1] == -90
    assert _both(view) == ("TC", "6H")
    assert NormalPlayer(1, 0).play(_view(state, [-100, 200, 50, 0], EIGHT, 2)) == "6H"  # far from the end


def test_a_chasing_seat_does_not_end_the_match_for_the_leader() -> None:
    """Quick match: seat 2 is at −450 and wins the trick so far; the pig would take it past −500 and
    end the match with seat 1 ahead. Seat 0 (−300, chasing seat 1, which plays after it) keeps the
    pig and discards the club. Without the plan, or with seat 2 far from the line, it dumps the pig."""
    hands = [["QS", "2S", "3S", "4C"], ["5D", "6C", "7C", "8C"], ["9C", "TC", "JC"], ["QC", "KC", "AC"]]
    state = crafted_state(hands, 2, ["KD", "6D"], dump=3)
    assert _both(_view(state, [-300, 150, -450, 20], QUICK, 6)) == ("4C", "QS")
    assert NormalPlayer(1, 0).play(_view(state, [-300, 150, -50, 20], QUICK, 6)) == "QS"


def test_a_chasing_seat_keeps_the_pig_for_the_match_leader() -> None:
    """Seat 1 leads the match and has lost this trick (seat 2's KD wins it): seat 0, chasing it in a
    quick match, keeps its guarded pig for a trick seat 1 takes and discards the club. Without the
    plan, or far from the match's end, it dumps the pig on seat 2."""
    hands = [["QS", "2S", "3S", "4C"], ["5C", "6C", "7C"], ["8C", "9C", "TC"], ["JC", "KC", "AC"]]
    state = crafted_state(hands, 1, ["5D", "KD", "6D"], dump=3)
    assert _both(_view(state, [-300, 150, -50, 20], QUICK, 6)) == ("4C", "QS")
    assert NormalPlayer(1, 0).play(_view(state, [-300, 150, -50, 20], DEFAULT_RULES, 6)) == "QS"


def test_a_chasing_seat_runs_the_hearts_on_a_weaker_hand() -> None:
    """Seven hearts from the ace down, six still out: Normal runs all hearts only with eight, so it
    leads a low card; 300 behind in the last hand it leads the ace."""
    mine = ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "2C", "3C", "4D", "5D", "6S", "7S"]
    rest = [c for c in to_codes((1 << 52) - 1) if c not in mine]
    state = crafted_state([mine, rest[:13], rest[13:26], rest[26:39]], 0)
    assert _both(_view(state, [-100, 200, 50, 0], FOUR, 4)) == ("AH", "2C")
    assert NormalPlayer(1, 0).play(_view(state, [-100, 200, 50, 0], FOUR, 2)) == "2C"


def test_the_match_leader_starts_no_run_it_can_lose() -> None:
    """Eight hearts with the ace: Normal runs them (leads AH); leading the match alone in its last
    hand it plays for a safe hand instead."""
    mine = ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "2C", "3C", "4D", "5D", "6S"]
    rest = [c for c in to_codes((1 << 52) - 1) if c not in mine]
    state = crafted_state([mine, rest[:13], rest[13:26], rest[26:39]], 0)
    new, old = _both(_view(state, [300, 200, 50, 0], FOUR, 4))
    assert old == "AH" and new != "AH"


@pytest.mark.parametrize("level", [NormalPlayer, EasyPlayer])
def test_the_match_leader_exposes_nothing_near_the_end(level: type[NormalPlayer] | type[EasyPlayer]) -> None:
    """A hand the level exposes from at the start of a match: leading alone in the last hand of a
    four-hand match it exposes nothing (an exposure doubles what the hand can cost it)."""
    for seed in range(300):
        state = new_match(seed, FOUR)
        seat = next((s for s in range(4) if level(1, s).expose(view_for(state, s))), None)
        if seat is not None:
            break
    else:
        raise AssertionError("no exposing hand in 300 deals")
    totals = [0, 0, 0, 0]
    totals[seat] = 150
    leading = {**state, "totals": totals, "hand_number": 4}
    assert level(1, seat).expose(view_for(leading, seat)) == []
    assert level(1, seat, match_aware=False).expose(view_for(leading, seat))
    behind = {**leading, "totals": [-t for t in totals]}
    assert level(1, seat).expose(view_for(behind, seat))  # trailing: exposes as before
    # leading a quick match near −500, it exposes as before: a doubled card pushes the others
    # toward the line, which ends the match with it ahead
    quick = {**leading, "rules": QUICK.to_json(), "totals": [t if t else -400 for t in totals]}
    assert level(1, seat).expose(view_for(quick, seat))


def test_hards_playouts_and_opponent_model_never_use_a_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hard near the end of a match: every call of Normal's policy it makes has no plan, so its play
    is the same as before Normal read the match."""
    from gongzhu.ai import heuristic, sampling, search

    plans: list[object] = []
    real = heuristic.normal_play

    def spy(table: Any, seat: int, legal: int, plan: MatchPlan | None = None) -> int:
        plans.append(plan)
        return real(table, seat, legal, plan)

    monkeypatch.setattr(search, "normal_play", spy)
    monkeypatch.setattr(sampling, "normal_play", spy)
    hands = [["TC", "4C", "6H", "2S", "3S"], ["3C", "5C", "7C", "4S"], ["8C", "9C", "JC", "5S"],
             ["QC", "KC", "AC", "6S"]]  # fmt: skip
    state = crafted_state(hands, 1, ["9D", "5H", "3D"], captured=[[], ["AH", "KH"], [], []], dump=3)
    view = _view(state, [-100, 200, 50, 0], FOUR, 4)
    HardPlayer(1, 0, replace(HARD, budget=200)).play(view)
    assert plans and all(p is None for p in plans)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 51), plan=PLANS, flip=st.booleans())
def test_normal_plays_a_legal_card_under_any_plan(
    seed: int, steps: int, plan: MatchPlan | None, flip: bool
) -> None:
    from gongzhu.ai.heuristic import normal_play
    from gongzhu.ai.sim import deal_table, random_hands

    rng = random.Random(seed)
    table = deal_table(random_hands(rng))
    table.flip = flip
    for _ in range(steps):
        seat = table.turn()
        table.play(normal_play(table, seat, table.legal(seat), plan))
    seat = table.turn()
    legal = table.legal(seat)
    if legal:
        assert legal >> normal_play(table, seat, legal, plan) & 1
