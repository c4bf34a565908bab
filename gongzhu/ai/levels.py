"""Easy and Normal: players that decide from the view with rules of thumb (no search).

Easy is a beginner: it dumps the pig and big hearts when it obviously can, but it plays its lowest
card when ducking (keeping the dangerous high ones), leads without counting cards, and now and then
plays any legal card.  Normal plays :mod:`gongzhu.ai.heuristic`.

Both read the match from the view's public totals and rules (:func:`gongzhu.ai.match.match_plan`):
in the last two hands of a match of a fixed number of hands the seat leading it alone exposes
nothing (an exposure doubles what a hand can cost it), and Normal also follows the plan in play
(``protect`` / ``chase``, see :mod:`gongzhu.ai.heuristic`).  ``match_aware=False`` is the player
without it (benchmarks).
"""

from __future__ import annotations

import hashlib
import json
import random

from ..cards import (
    DECK,
    EXPOSABLE_MASK,
    GOAT_BIT,
    HEARTS_MASK,
    INDEX,
    PIG_BIT,
    SUIT_MASKS,
    indices,
    to_codes,
    to_mask,
)
from ..game import View
from ..house_rules import rules_from_json
from ..rules import winning_position
from .heuristic import normal_expose, normal_play
from .knowledge import Knowledge, read_view
from .match import PROTECT, MatchPlan, match_plan
from .sim import Table, high_bit, low_bit


def view_seed(seed: int, view: View, salt: str) -> int:
    """A seed from the player's seed and what the view shows (so decisions are reproducible)."""
    key = json.dumps(
        [salt, seed, view["seat"], view["hand_number"], view["hand"], view["tricks"], view["trick"],
         view["exposed"], view.get("exposable", [])],
        separators=(",", ":"),
    )  # fmt: skip
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big")


def easy_play(table: Table, seat: int, legal: int, rng: random.Random) -> int:
    cards = indices(legal)
    if len(cards) == 1:
        return cards[0]
    if rng.random() < 0.2:
        safe = [c for c in cards if c != INDEX["QS"]] or cards
        return rng.choice(safe)
    trick = table.trick
    if not trick:
        suits = [s for s in range(4) if legal & SUIT_MASKS[s]]
        return low_bit(legal & SUIT_MASKS[rng.choice(suits)])
    suit_mask = SUIT_MASKS[trick[0] // 13]
    if legal & suit_mask:
        win_card = trick[winning_position(trick)]
        under = legal & ((1 << win_card) - 1)
        if under & PIG_BIT:
            return INDEX["QS"]
        if under:
            return low_bit(under)
        return high_bit(legal) if len(trick) == 3 else low_bit(legal)
    if legal & PIG_BIT:
        return INDEX["QS"]
    if legal & HEARTS_MASK:
        return high_bit(legal & HEARTS_MASK)
    return max(cards, key=lambda c: (c % 13, c))


def easy_expose(hand: int) -> int:
    high_diamonds = to_mask(["AD", "KD"])
    return GOAT_BIT if hand & GOAT_BIT and hand & high_diamonds else 0


def plan_of(k: Knowledge) -> MatchPlan | None:
    """The seat's plan for this hand of its match, from the view's public totals and rules."""
    return match_plan(k.totals, k.seat, k.rules, k.hand_number)


def _guards_lead(view: View) -> bool:
    """This seat leads alone a match of a fixed number of hands that can end this hand or the next.
    (Under an ending total the leader keeps exposing: a doubled card pushes the others toward the
    total, which ends the match with it ahead.)"""
    if "totals" not in view:  # a partial view (no match around it): no plan
        return False
    rules = rules_from_json(view.get("rules"))
    plan = match_plan(view["totals"], view["seat"], rules, view["hand_number"])
    return plan is not None and plan.mode == PROTECT and plan.room is None


class EasyPlayer:
    def __init__(self, seed: int, seat: int, match_aware: bool = True) -> None:
        self.seed = seed
        self.seat = seat
        self.match_aware = match_aware  # leading a fixed-length match near its end: expose nothing

    def expose(self, view: View) -> list[str]:
        if self.match_aware and _guards_lead(view):
            return []
        return _exposure(view, easy_expose(to_mask(view["hand"])))

    def play(self, view: View) -> str:
        k = read_view(view)
        rng = random.Random(view_seed(self.seed, view, "easy"))
        return DECK[easy_play(k.table(), k.seat, to_mask(view["legal"]), rng)]


class NormalPlayer:
    def __init__(self, seed: int, seat: int, match_aware: bool = True) -> None:
        self.seed = seed
        self.seat = seat
        self.match_aware = match_aware  # follow a MatchPlan near the end of a match

    def expose(self, view: View) -> list[str]:
        if self.match_aware and _guards_lead(view):
            return []
        return _exposure(view, normal_expose(to_mask(view["hand"])))

    def play(self, view: View) -> str:
        k = read_view(view)
        plan = plan_of(k) if self.match_aware else None
        return DECK[normal_play(k.table(), k.seat, to_mask(view["legal"]), plan)]


def _exposure(view: View, chosen: int) -> list[str]:
    return to_codes(chosen & EXPOSABLE_MASK & to_mask(view["exposable"]))
