"""Hand scoring (docs/rules.md "Scoring a hand"), as one number and as a breakdown the UI can show."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict

from .cards import (
    ACE_OF_HEARTS_BIT,
    GOAT_BIT,
    HEARTS_MASK,
    INDEX,
    PIG_BIT,
    POINT_MASK,
    TRANSFORMER_BIT,
    indices,
)
from .house_rules import Rules

HEART_VALUES: dict[str, int] = {
    "AH": -50, "KH": -40, "QH": -30, "JH": -20,
    "TH": -10, "9H": -10, "8H": -10, "7H": -10, "6H": -10, "5H": -10,
    "4H": 0, "3H": 0, "2H": 0,
}  # fmt: skip
_HEART_VALUE_BY_INDEX: dict[int, int] = {INDEX[c]: v for c, v in HEART_VALUES.items()}

#: What exposing each card does (docs/rules.md "Expose phase"), as codes the UI puts into words.
EXPOSURE_EFFECTS: dict[str, str] = {
    "AH": "hearts_x2",  # every heart counts double
    "QS": "pig_x2",  # the pig counts double
    "JD": "goat_x2",  # the goat counts double
    "TC": "transformer_x4",  # the transformer multiplies by 4 (and alone scores +100)
}
#: The effect code of an exposed TC on a player who captured it alone (+100 instead of +50).
TRANSFORMER_BONUS_X2 = "transformer_bonus_x2"


class Breakdown(TypedDict):
    """One player's hand score and how it was made (all values already include exposure doubling)."""

    hearts: int  # rule 1 (or rule 2's bonus when all_hearts)
    hearts_multiplier: int  # 2 when AH was exposed
    all_hearts: bool
    pig: int
    pig_multiplier: int  # 2 when QS was exposed
    goat: int
    goat_multiplier: int  # 2 when JD was exposed
    transformer: str  # "none" | "alone" | "multiplier"
    transformer_bonus: int  # +50/+100 when alone
    transformer_multiplier: int  # 1, or 2/4 when TC came with other point cards
    all_16: bool
    exposure_effects: list[str]  # codes of the exposures that changed this score (EXPOSURE_EFFECTS…)
    subtotal: int  # rules 1–3 before the transformer
    score: int


def score_breakdown(captured: int, exposed: int, flipped: bool = False) -> Breakdown:
    """Score of one player who captured ``captured``; ``exposed`` is every card exposed by anyone.

    ``flipped``: the house rule ``all_hearts=flip`` is in play and some player took all thirteen
    hearts this hand, so the pig counts +100 and the goat −100 for every player (docs/rules.md).
    """
    hearts_multiplier = 2 if exposed & ACE_OF_HEARTS_BIT else 1
    pig_multiplier = 2 if exposed & PIG_BIT else 1
    goat_multiplier = 2 if exposed & GOAT_BIT else 1
    all_hearts = captured & HEARTS_MASK == HEARTS_MASK
    if all_hearts:
        hearts = 200 * hearts_multiplier
    else:
        hearts = hearts_multiplier * sum(_HEART_VALUE_BY_INDEX[i] for i in indices(captured & HEARTS_MASK))
    pig = 0
    if captured & PIG_BIT:
        pig = (100 if all_hearts or flipped else -100) * pig_multiplier
    goat = (-100 if flipped else 100) * goat_multiplier if captured & GOAT_BIT else 0
    subtotal = hearts + pig + goat
    transformer, bonus, multiplier = "none", 0, 1
    tc_factor = 2 if exposed & TRANSFORMER_BIT else 1
    if captured & TRANSFORMER_BIT:
        if captured & POINT_MASK == TRANSFORMER_BIT:
            transformer, bonus = "alone", 50 * tc_factor
        else:
            transformer, multiplier = "multiplier", 2 * tc_factor
    score = bonus + subtotal * multiplier
    return Breakdown(
        hearts=hearts,
        hearts_multiplier=hearts_multiplier,
        all_hearts=all_hearts,
        pig=pig,
        pig_multiplier=pig_multiplier,
        goat=goat,
        goat_multiplier=goat_multiplier,
        transformer=transformer,
        transformer_bonus=bonus,
        transformer_multiplier=multiplier,
        all_16=captured & POINT_MASK == POINT_MASK,
        exposure_effects=exposure_effects(exposed, hearts, pig, goat, transformer),
        subtotal=subtotal,
        score=score,
    )


def exposure_effects(exposed: int, hearts: int, pig: int, goat: int, transformer: str) -> list[str]:
    """The effect codes of the exposures (``exposed``: every card exposed) that changed a score made
    of these ``hearts``, ``pig``, ``goat`` points and this ``transformer`` case."""
    return [
        code
        for code, applies in (
            ("hearts_x2", exposed & ACE_OF_HEARTS_BIT and hearts != 0),
            ("pig_x2", exposed & PIG_BIT and pig != 0),
            ("goat_x2", exposed & GOAT_BIT and goat != 0),
            ("transformer_x4", exposed & TRANSFORMER_BIT and transformer == "multiplier"),
            (TRANSFORMER_BONUS_X2, exposed & TRANSFORMER_BIT and transformer == "alone"),
        )
        if applies
    ]


def hand_score(captured: int, exposed: int, flipped: bool = False) -> int:
    """Just the number of :func:`score_breakdown` (the AI's hot path calls this)."""
    if not captured & POINT_MASK:
        return 0
    return score_breakdown(captured, exposed, flipped)["score"]


def hearts_flip(rules: Rules, captured: Sequence[int]) -> bool:
    """Whether the pig and the goat are flipped this hand: the ``flip`` rule and one player holding
    all thirteen hearts among ``captured`` (each seat's captured cards as a mask)."""
    return rules.flip and any(c & HEARTS_MASK == HEARTS_MASK for c in captured)
