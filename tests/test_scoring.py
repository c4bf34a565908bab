"""Hand scoring: every check value of docs/rules.md, the breakdown, and exposure combinations."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gongzhu import DECK, EXPOSABLE, score_breakdown
from gongzhu.cards import to_mask

from .referee import score as referee_score

ALL_HEARTS = [r + "H" for r in "23456789TJQKA"]

RULES_CHECKS = [
    (["QS", "AH", "5H"], [], -160),
    (["TC"], [], 50),
    (["TC", "2H"], [], 0),
    (["TC", "JD"], [], 200),
    (["TC", "JD", "QS"], [], 0),
    (ALL_HEARTS, [], 200),
    ([*ALL_HEARTS, "QS"], [], 300),
    ([*ALL_HEARTS, "QS", "JD", "TC"], [], 800),
    (["TC", "QS", "7H"], [], -220),
    (["AH", "KH"], ["AH"], -180),
    (["TC", "QS"], ["TC"], -400),
    (["TC", "QS", "7H"], ["TC", "QS"], -840),
]


@pytest.mark.parametrize(("captured", "exposed", "expected"), RULES_CHECKS)
def test_rules_check_values(captured: list[str], exposed: list[str], expected: int) -> None:
    assert score_breakdown(to_mask(captured), to_mask(exposed))["score"] == expected


@pytest.mark.parametrize(("captured", "exposed", "expected"), RULES_CHECKS)
def test_score_command_matches_rules(captured: list[str], exposed: list[str], expected: int) -> None:
    args = [sys.executable, "-m", "gongzhu", "score", "--captured", ",".join(captured)]
    if exposed:
        args += ["--exposed", ",".join(exposed)]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    result = json.loads(out)
    assert result["score"] == expected
    assert {"hearts", "pig", "goat", "transformer", "subtotal", "all_hearts", "all_16"} <= set(result)


def test_breakdown_parts() -> None:
    b = score_breakdown(to_mask(["TC", "QS", "7H"]), to_mask(["TC", "QS"]))
    assert (b["hearts"], b["pig"], b["goat"], b["subtotal"]) == (-10, -200, 0, -210)
    assert (b["transformer"], b["transformer_multiplier"], b["pig_multiplier"]) == ("multiplier", 4, 2)
    alone = score_breakdown(to_mask(["TC", "5S"]), to_mask(["TC"]))
    assert (alone["transformer"], alone["transformer_bonus"], alone["score"]) == ("alone", 100, 100)
    all16 = score_breakdown(to_mask([*ALL_HEARTS, "QS", "JD", "TC"]), to_mask(["AH"]))
    assert all16["all_16"] and all16["all_hearts"]
    assert all16["hearts"] == 400 and all16["score"] == (400 + 100 + 100) * 2
    nothing = score_breakdown(0, to_mask(list(EXPOSABLE)))
    assert nothing["score"] == 0 and nothing["transformer"] == "none"


@pytest.mark.parametrize("exposed", [list(c) for n in range(5) for c in itertools.combinations(EXPOSABLE, n)])
def test_all_exposure_combinations_on_mixed_captures(exposed: list[str]) -> None:
    for captured in (["QS", "AH", "5H"], ["TC"], ["TC", "JD", "QS", "KH"], [*ALL_HEARTS, "QS"], ["JD", "2H"]):
        got = score_breakdown(to_mask(captured), to_mask(exposed))["score"]
        assert got == referee_score(captured, exposed), (captured, exposed)


@settings(max_examples=400, deadline=None)
@given(
    captured=st.sets(st.sampled_from(DECK), max_size=52),
    exposed=st.sets(st.sampled_from(EXPOSABLE)),
    flipped=st.booleans(),  # all_hearts=flip after somebody took all 13 hearts
)
def test_scores_equal_an_independent_recount(captured: set[str], exposed: set[str], flipped: bool) -> None:
    assert score_breakdown(to_mask(captured), to_mask(exposed), flipped=flipped)["score"] == referee_score(
        list(captured), list(exposed), flipped
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--captured", "QS,ZZ"], "unknown card"),
        (["--captured", "QS,QS"], "duplicate card"),
        (["--captured", "QS", "--exposed", "5H"], "cannot be exposed"),
    ],
)
def test_score_command_rejects_bad_cards(args: list[str], message: str) -> None:
    run = subprocess.run([sys.executable, "-m", "gongzhu", "score", *args], capture_output=True, text=True)
    assert run.returncode != 0
    assert message in run.stderr
    assert run.stdout == ""
