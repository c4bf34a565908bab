"""Hard's search: expected hand score of each choice over sampled deals of the hidden cards.

Every candidate (a legal card, or a set of cards to expose) is played in the same sampled worlds
(common random numbers; a play decision's worlds are drawn from what the opponents' plays so far
say about their hands, :func:`gongzhu.ai.sampling.posterior_worlds`), then the rest of the hand is
simulated with Normal's strategy for all four seats, or solved exactly once few cards remain.  The
value of a world is the seat's own hand score minus ``OPPONENT_WEIGHT`` times the opponents' mean,
or, with ``match_aware`` when the match can end soon, the match outcome (:mod:`gongzhu.ai.match`).
The work done is a fixed number of simulated card plays per decision (``budget``, drawing the
worlds included), never a clock, so decisions are reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from ..cards import EXPOSABLE_MASK, indices
from .exact import solve
from .heuristic import normal_expose, normal_play
from .knowledge import Knowledge
from .match import Valuer, match_in_reach, match_valuer
from .sampling import affordable, posterior_worlds, sample_world
from .sim import Table, run

DEFAULT_BUDGET = 40_000  # simulated plays per decision (bench/decision_regret.py: 60,000 no better)
EXACT_CARDS = 8  # solve exactly when this many cards (or fewer) remain after the candidate
MIN_WORLDS, MAX_WORLDS = 8, 120
OPPONENT_WEIGHT = 1.0  # measured: +91 vs +70 margin over Normal (60 deals) for own score alone


@dataclass
class Evaluation:
    values: dict[int, float]  # candidate → expected value
    worlds: int

    def best(self) -> int:
        return max(self.values, key=lambda c: (self.values[c], -c))


def hand_margin(scores: list[int], seat: int, opponent_weight: float) -> float:
    own = scores[seat]
    if not opponent_weight:
        return float(own)
    return own - opponent_weight * (sum(scores) - own) / 3


def valuer(k: Knowledge, opponent_weight: float, match_aware: bool) -> Valuer:
    """How a world's four hand scores are valued for this seat (see the module doc)."""

    def margin(scores: list[int]) -> float:
        return hand_margin(scores, k.seat, opponent_weight)

    if match_aware and match_in_reach(k.totals):
        return match_valuer(k.totals, k.seat, margin)
    return margin


def evaluate_plays(
    k: Knowledge,
    legal: int,
    rng: random.Random,
    budget: int = DEFAULT_BUDGET,
    opponent_weight: float = OPPONENT_WEIGHT,
    match_aware: bool = False,
    world: list[int] | None = None,
) -> Evaluation:
    """Expected value of each legal card.  ``world``: the true hands, when known (the open-hand
    reference player of the benchmarks; then one world is played, as every sample would be it)."""
    cards = indices(legal)
    left = k.hand.bit_count() + sum(k.hand_sizes) - k.hand_sizes[k.seat]
    exact = left - 1 <= EXACT_CARDS
    cost = len(cards) * (left * 4 if exact else left)  # simulated plays per world
    if world is not None:
        worlds: Iterable[list[int]] = [list(world)]
    else:
        count, chains = affordable(k, budget, cost)
        worlds = posterior_worlds(k, rng, max(MIN_WORLDS, min(MAX_WORLDS, count)), chains)
    value = valuer(k, opponent_weight, match_aware)
    totals = dict.fromkeys(cards, 0.0)
    count = 0
    for hands in worlds:
        count += 1
        base = Table(hands, list(k.captured), k.exposed, k.led, k.leader, list(k.trick), k.gone)
        for card in cards:
            table = base.copy()
            table.play(card)
            if exact:
                scores = solve(table)
            else:
                run(table, normal_play)
                scores = table.scores()
            totals[card] += value(scores)
    return Evaluation({c: v / count for c, v in totals.items()}, count)


def expose_candidates(exposable: int) -> list[int]:
    """Every subset when there are at most three exposable cards, else none, singles and Normal's."""
    cards = indices(exposable & EXPOSABLE_MASK)
    if len(cards) <= 3:
        out = [0]
        for c in cards:
            out += [m | (1 << c) for m in out]
        return out
    return sorted({0, *(1 << c for c in cards), normal_expose(exposable)})


def evaluate_exposes(
    k: Knowledge,
    exposable: int,
    rng: random.Random,
    budget: int = DEFAULT_BUDGET,
    opponent_weight: float = OPPONENT_WEIGHT,
    extra: int | None = None,
    match_aware: bool = False,
    world: list[int] | None = None,
) -> Evaluation:
    """Value of each exposure; the other seats expose as Normal would with their sampled hands.
    ``extra``: one more exposure to value (the coach's: the one the player chose); ``world``: the
    true hands (open-hand reference player only)."""
    candidates = expose_candidates(exposable)
    if extra is not None and extra not in candidates:
        candidates = sorted([*candidates, extra])
    worlds = (
        1 if world is not None else max(MIN_WORLDS, min(MAX_WORLDS, 2 * budget // (len(candidates) * 52)))
    )
    value = valuer(k, opponent_weight, match_aware)
    totals = dict.fromkeys(candidates, 0.0)
    for _ in range(worlds):
        hands = list(world) if world is not None else sample_world(k, rng)
        others = [normal_expose(h) for h in hands]
        for chosen in candidates:
            exposed = list(others)
            exposed[k.seat] = chosen
            table = Table(list(hands), [0, 0, 0, 0], exposed, 0, k.leader, [], 0)
            run(table, normal_play)
            totals[chosen] += value(table.scores())
    return Evaluation({c: v / worlds for c, v in totals.items()}, worlds)
