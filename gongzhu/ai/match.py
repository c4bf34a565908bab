"""Hard's match objective: near the end of a match, value a hand by the chance of winning the match.

The match ends after the hand in which some total reaches −1000 (``ELIMINATION``) with one player
leading alone (docs/rules.md).  When the lowest public total is within ``END_REACH`` of −1000 the
match can end this hand or the next, and Hard values each simulated world by its match outcome:

* the world's totals (public totals + the world's hand scores) end the match: 1 if this seat is the
  single leader, else 0;
* otherwise an estimate of this seat's chance to win from those totals: a softmax of the totals
  whose temperature grows with the hands likely left (``SPREAD`` · √hands, a player losing about
  ``LOSS_PER_HAND`` a hand), so a big lead counts for more when the end is near.

The value is ``MATCH_POINTS`` times that probability plus ``TIE_BREAK`` times the hand margin, so
worlds of equal match chances are still told apart by points.  Far from the end the hand margin is
used as before (:func:`gongzhu.ai.search.hand_margin`).

Easy and Normal do not search: near the end they follow a :class:`MatchPlan` (:func:`match_plan`,
from the same public totals and the same ``match_in_reach``), which their rules of thumb read.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..game import ELIMINATION, match_winner
from ..house_rules import DEFAULT_RULES, Rules

END_REACH = 500  # the match counts as ending soon when some total is this close to −1000
LOSS_PER_HAND = 110.0  # how fast the trailing player loses, per hand (Normal self-play: ~9 hands a match)
SPREAD = 100.0  # temperature of the win-chance softmax for one hand left
MATCH_POINTS = 1000.0  # the value of winning the match, in hand points
TIE_BREAK = 0.05  # weight of the hand margin beside the match value
CHASE_GAP = 100  # a seat this far behind the leader near the end chases (an ordinary hand rarely closes it)
PROTECT, CHASE = "protect", "chase"  # the MatchPlan modes

Valuer = Callable[[list[int]], float]


def match_in_reach(totals: Sequence[int], rules: Rules = DEFAULT_RULES, hand_number: int = 1) -> bool:
    """Whether the match can end this hand (number ``hand_number``) or the next: the lowest total is
    near the rules' ending total (``END_REACH`` scaled to it), or the last two hands of a fixed length."""
    limit = rules.elimination
    if limit is None:
        return hand_number >= (rules.hands or 0) - 1
    return min(totals) <= limit + END_REACH * limit / ELIMINATION


def win_chance(
    totals: Sequence[int], seat: int, rules: Rules = DEFAULT_RULES, hands_played: int = 0
) -> float:
    """This seat's chance to win the match from ``totals`` after ``hands_played`` hands: 1 or 0 when
    they end it, else an estimate."""
    winner = match_winner(totals, rules, hands_played)
    if winner is not None:
        return 1.0 if winner == seat else 0.0
    limit = rules.elimination
    if limit is None:
        hands_left = max(1.0, float((rules.hands or 0) - hands_played))
    else:
        hands_left = max(1.0, (min(totals) - limit) / LOSS_PER_HAND)
    temperature = SPREAD * math.sqrt(hands_left)
    top = max(totals)
    weights = [math.exp((t - top) / temperature) for t in totals]
    return weights[seat] / math.fsum(weights)


def match_valuer(
    totals: Sequence[int], seat: int, margin: Valuer, rules: Rules = DEFAULT_RULES, hand_number: int = 1
) -> Valuer:
    """The value of a world's four hand scores for ``seat`` when the match may end soon (this hand
    being number ``hand_number`` of a match under ``rules``)."""
    before = list(totals)

    def value(scores: list[int]) -> float:
        after = [t + s for t, s in zip(before, scores, strict=True)]
        return MATCH_POINTS * win_chance(after, seat, rules, hand_number) + TIE_BREAK * margin(scores)

    return value


@dataclass(frozen=True)
class MatchPlan:
    """How Easy and Normal play a hand near the end of a match (no plan: for the hand's points)."""

    mode: str  # PROTECT: it leads the match alone; CHASE: it trails the leader by more than CHASE_GAP
    target: int  # the seat leading the match (CHASE: the one to load with points; PROTECT: this seat)
    # per seat, the hand points it may lose before its total reaches the rules' ending total (a total
    # there ends the match); None in a match of a fixed number of hands
    room: tuple[int, ...] | None = None


def match_plan(
    totals: Sequence[int], seat: int, rules: Rules = DEFAULT_RULES, hand_number: int = 1
) -> MatchPlan | None:
    """The plan for ``seat`` in hand ``hand_number`` from the public ``totals`` before it: None while the
    match cannot end this hand or the next (:func:`match_in_reach`), or when the seat is close behind."""
    if not match_in_reach(totals, rules, hand_number):
        return None
    top = max(totals)
    limit = rules.elimination
    room = None if limit is None else tuple(t - limit for t in totals)
    if totals[seat] == top:
        return MatchPlan(PROTECT, seat, room) if list(totals).count(top) == 1 else None
    if top - totals[seat] <= CHASE_GAP:
        return None
    return MatchPlan(CHASE, list(totals).index(top), room)
