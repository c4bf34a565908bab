"""The moments of a finished hand that a player's record counts, as data (codes per seat).

The browser's statistics only count what this module says happened; every fact is a rule of the
game, so it lives in the engine:

- ``pig_taken``: the seat captured the pig (QS); ``goat_won``: it captured the goat (JD);
- ``transformer_alone``: it captured the transformer (TC) and no other point card;
- ``all_hearts``: it collected all thirteen hearts; ``all_16``: all sixteen point cards;
- ``hearts_blocked``: it ended an all-hearts run: it took a heart from a trick while another seat
  held every heart taken so far, at least :data:`BLOCK_MIN_HEARTS` of them.

With them, per seat, ``place``: 1 + how many seats scored more this hand; ``exposed``: how many cards it exposed, and ``exposure_effect``: what its own
exposures changed in its hand score (its score minus the score it would have made had it exposed
nothing; the other seats' exposures stay).  ``match_id`` names a match without revealing its seed
(a reload or a second tab counts the same hand under the same key).
"""

from __future__ import annotations

from typing import Any, TypedDict

from .cards import GOAT, HEARTS_MASK, PIG, to_mask
from .house_rules import rules_from_json
from .rng import mix64
from .scoring import hearts_flip, score_breakdown

#: The hearts another seat must hold (all those taken so far) for taking one from it to count as
#: blocking an all-hearts run.
BLOCK_MIN_HEARTS = 7

#: Every moment code, in display order.
MOMENT_CODES = ("pig_taken", "goat_won", "transformer_alone", "all_hearts", "all_16", "hearts_blocked")


class SeatMoments(TypedDict):
    codes: list[str]  # MOMENT_CODES that happened to this seat this hand
    exposed: int  # how many cards this seat exposed
    exposure_effect: int  # this seat's hand score minus its score without its own exposures
    place: int  # 1 + how many seats scored more this hand (ties share a place)


def match_id(seed: object) -> str:
    """A token naming the match of ``seed`` (16 hex digits; the seed is not readable from it). A
    seed that is not an integer (a tampered state, which the engine's check refuses) names none: ""."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        return ""
    return f"{mix64(mix64(seed) ^ 0x6A09E667F3BCC908):016x}"


def _blockers(tricks: list[dict[str, Any]]) -> set[int]:
    hearts = [0, 0, 0, 0]
    out: set[int] = set()
    for trick in tricks:
        winner = trick["winner"]
        taken = sum(1 for p in trick["plays"] if to_mask([p["card"]]) & HEARTS_MASK)
        if taken:
            holders = [s for s in range(4) if hearts[s]]
            if len(holders) == 1 and holders[0] != winner and hearts[holders[0]] >= BLOCK_MIN_HEARTS:
                out.add(winner)
            hearts[winner] += taken
    return out


def hand_moments(
    captured: list[list[str]], exposed: list[list[str]], tricks: list[dict[str, Any]], flipped: bool = False
) -> list[SeatMoments]:
    """Per seat, the moments of a finished hand (its captured cards, the exposures, its 13 tricks;
    ``flipped``: the pig and the goat are flipped, :func:`gongzhu.scoring.hearts_flip`)."""
    all_exposed = to_mask(c for cards in exposed for c in cards)
    blockers = _blockers(tricks)
    scores = [score_breakdown(to_mask(captured[seat]), all_exposed, flipped)["score"] for seat in range(4)]
    out: list[SeatMoments] = []
    for seat in range(4):
        mask = to_mask(captured[seat])
        breakdown = score_breakdown(mask, all_exposed, flipped)
        without = score_breakdown(mask, all_exposed & ~to_mask(exposed[seat]), flipped)
        codes = {
            "pig_taken": PIG in captured[seat],
            "goat_won": GOAT in captured[seat],
            "transformer_alone": breakdown["transformer"] == "alone",
            "all_hearts": breakdown["all_hearts"],
            "all_16": breakdown["all_16"],
            "hearts_blocked": seat in blockers,
        }
        out.append(
            SeatMoments(
                codes=[code for code in MOMENT_CODES if codes[code]],
                exposed=len(exposed[seat]),
                exposure_effect=breakdown["score"] - without["score"],
                place=1 + sum(1 for other in scores if other > scores[seat]),
            )
        )
    return out


def finished_hand_moments(state: dict[str, Any]) -> list[SeatMoments] | None:
    """:func:`hand_moments` of the hand just finished in ``state``, or None while a hand is on."""
    if state.get("phase") not in ("hand_over", "match_over"):
        return None
    try:
        flipped = hearts_flip(rules_from_json(state.get("rules")), [to_mask(c) for c in state["captured"]])
        return hand_moments(state["captured"], state["exposed"], state["tricks"], flipped)
    except (KeyError, TypeError, ValueError, IndexError):  # (a tampered state: the engine's check refuses it)
        return None


__all__ = [
    "BLOCK_MIN_HEARTS",
    "MOMENT_CODES",
    "SeatMoments",
    "finished_hand_moments",
    "hand_moments",
    "match_id",
]
