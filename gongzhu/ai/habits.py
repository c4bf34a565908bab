"""Each opponent's habits, judged on the match's previous hand: a mixture of simple ways to play.

:mod:`gongzhu.ai.opponents` tells whether an opponent plays Normal's strategy.  For one that does not,
the previous hand says more than "not Normal": every seat's cards are known once it is over,
so at each of the opponent's decisions the card it chose can be set against a few simple ways to
play (:data:`WAYS`): Normal's card, its lowest card, its highest card, any legal card, with
``low_in_suit`` the lowest card of a suit taken at random (a player who leads low but not always from
the suit Normal would), and with ``learned`` a card by the chances of the play model learned from
Hard's games (:mod:`gongzhu.ai.learned`: a strong player's choices, which depend on its hand).  How often it
played each way (its *habit*, a weight per way) is fitted by expectation-maximisation, each way
taken to slip to another card ``way_slip`` of the time, with ``habit_prior`` plays of each way counted in
advance (a dozen decisions a hand is little).  With ``by_situation`` the habit is fitted again for each
situation (:data:`SITUATIONS`: leading, following suit, discarding), the whole hand's habit counted as
``situation_prior`` plays of each: a player may duck low when it follows and lead anything but low.

The habit then serves twice (:class:`gongzhu.ai.worlds.Habits`, and the game's Hard):

* the worlds: a world's likelihood for the opponent is, over its plays this hand, the product of the
  habit's mixture of the ways (:class:`HabitChain`), so a player who always ducks low says where its
  low cards are not, and no way alone can veto a world;
* the playouts: at each decision the opponent plays one of the ways drawn by the habit's weights
  (:func:`habit_policy`), so a player who keeps its high cards keeps them in the playouts too; the
  share of "any legal card" (and of the learned model) plays Normal's card there (:func:`playout_habit`).  In the fit, "any"
  stands for the plays the simple ways do not explain; an able player makes such plays by choice (a
  search's, say), not at random, so the playouts give them the competent default
  (``bench/results/ABLE.md``).

An opponent that fits Normal (every opponent at a table of Normals, and every one in a match's first
hand) keeps Normal's weighting and Normal's playouts unless the chains find, within the hand, that
Normal clearly fails to explain it (:mod:`gongzhu.ai.inhand`); then its habits are read from its plays
in the chains' worlds.

>>> from gongzhu.cards import to_mask, DECK
>>> from gongzhu.ai.sim import FOLLOW
>>> DECK[lowest_card(to_mask(["9S", "3H", "QC"]))], DECK[highest_card(to_mask(["9S", "3H", "QC"]))]
('3H', 'QC')
>>> [round(w, 2) for w in fit_habit([Decision(4, False, True, False, FOLLOW, True, 1)] * 12)]
[0.04, 0.88, 0.04, 0.05, 0.0, 0.0]
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

from ..cards import SUIT_MASKS
from .heuristic import normal_play
from .knowledge import Knowledge
from .learned import CardChances, Remembered, play_model
from .match import MatchPlan
from .sampling import CHAINS, Chains, SwapWalk, chain_worlds, hand_start
from .sim import (
    Policy,
    Table,
    highest_card,
    low_bit,
    lowest_card,
    random_policy,
    situation,
)

#: the ways a habit mixes, in this order
WAYS = ("normal", "lowest", "highest", "any", "low in a suit", "learned")
NORMAL_WAY, LOWEST, HIGHEST, ANY, LOW_IN_SUIT, LEARNED = range(len(WAYS))


@dataclass(frozen=True)
class Judging:
    """How an opponent's decisions are judged (part of Hard's configuration): its *fit*, the chance
    that it plays Normal's strategy (:mod:`gongzhu.ai.opponents`, :mod:`gongzhu.ai.inhand`), and its
    *habit* (here)."""

    normal_prior: float = (
        0.5  # the chance that an opponent plays Normal's strategy, before its plays are seen
    )
    seen_slip: float = 0.01  # how often Normal's strategy is taken to slip when judged on a finished hand
    clear: float = 0.01  # a fit this close to 0 or 1 counts as 0 or 1
    way_slip: float = 0.02  # a way's card is taken to slip to another legal card this often
    habit_prior: float = 0.5  # plays of each way counted before the ones seen (the habit's Dirichlet prior)
    em_rounds: int = 30  # rounds of expectation-maximisation fitting a habit
    random_in_playouts: bool = False  # the playouts play the "any" way at random (else as Normal's card)
    by_situation: bool = False  # a habit per situation (lead, follow, discard), else one for every decision
    situation_prior: float = 2.0  # plays of the whole hand's habit counted before a situation's own
    low_in_suit: bool = (
        False  # the way "lowest card of a suit taken at random" is in the mixture (else weight 0)
    )
    learned: bool = False  # the way "the learned play model's card" is in the mixture (else weight 0)
    learned_cost: float = 1.0  # with ``learned``, a play the habit chains replay costs this many times
    # what it costs without, paid from the budget (the model's chances are worked out there)

    def ways(self) -> tuple[bool, ...]:
        """Which of :data:`WAYS` a habit mixes."""
        return (True, True, True, True, self.low_in_suit, self.learned)

    def paid(self, chains: Chains) -> Chains:
        """``chains`` as the budget pays for them when they judge by these habits."""
        if not self.learned:
            return chains
        return replace(chains, replay_cost=chains.replay_cost * self.learned_cost)

    def play_model(self) -> Remembered | None:
        """The learned play model when a habit mixes its way, else None: a fresh one for each view
        (it remembers the chances it gives there)."""
        return Remembered(play_model()) if self.learned else None


JUDGING = Judging()  # the game's

Habit = tuple[float, ...]  # the weight of each of ``WAYS`` (they sum to 1)
#: A seat's habit in each of ``SITUATIONS`` (the same one thrice when habits are not by situation).
Situated = tuple[Habit, Habit, Habit]


class Decision(NamedTuple):
    """One decision of a seat, as a habit is fitted from it."""

    choices: int  # how many legal cards it had
    normal: bool  # its card was Normal's
    lowest: bool  # ... its lowest
    highest: bool  # ... its highest
    where: int  # its situation (``SITUATIONS``)
    low_in_suit: bool  # its card was the lowest of its suit among the legal cards
    suits: int  # how many suits the legal cards hold
    learned: float = 0.0  # the learned play model's chance of its card (0 when not judged by it)


def everywhere(habit: Habit) -> Situated:
    """``habit`` in every situation."""
    return (habit, habit, habit)


def decision(legal: int, card: int, normal: int, where: int, learned: float = 0.0) -> Decision:
    """The :class:`Decision` of playing ``card`` from ``legal`` in situation ``where``, where Normal plays
    ``normal`` and the learned play model gives ``card`` the chance ``learned``."""
    return Decision(
        legal.bit_count(),
        normal == card,
        lowest_card(legal) == card,
        highest_card(legal) == card,
        where,
        low_bit(legal & SUIT_MASKS[card // 13]) == card,
        sum(1 for mask in SUIT_MASKS if legal & mask),
        learned,
    )


def seen_decision(
    table: Table, seat: int, legal: int, card: int, plan: MatchPlan | None, model: CardChances | None
) -> Decision:
    """The :class:`Decision` of ``seat`` playing ``card`` from ``legal`` at ``table``, Normal playing by
    ``plan`` and the learned way judged by ``model`` (None: not judged)."""
    normal = normal_play(table, seat, legal, plan)
    learned = 0.0 if model is None else model.chance(table, seat, legal, card, normal)
    return decision(legal, card, normal, situation(table, legal), learned)


def way_likelihoods(seen: Decision, slip: float = JUDGING.way_slip) -> tuple[float, ...]:
    """The chance of the play ``seen`` under each of :data:`WAYS`, a way's card slipping to another
    ``slip`` of the time (the way "low in a suit" takes each suit alike)."""
    miss = slip / (seen.choices - 1)
    keep = 1.0 - slip
    return (
        keep if seen.normal else miss,
        keep if seen.lowest else miss,
        keep if seen.highest else miss,
        1.0 / seen.choices,
        keep / seen.suits if seen.low_in_suit else miss,
        seen.learned,
    )


def fit_habit(decisions: Sequence[Decision], judging: Judging = JUDGING, base: Habit | None = None) -> Habit:
    """The weights of the ways that best explain ``decisions`` (expectation-maximisation), the prior
    counted in: ``habit_prior`` plays of each way, or with a ``base`` habit ``situation_prior`` plays of it."""
    rows = [way_likelihoods(seen, judging.way_slip) for seen in decisions]
    ways = judging.ways()
    if base is None:
        prior = [judging.habit_prior if on else 0.0 for on in ways]
        weights = [1.0 / sum(ways) if on else 0.0 for on in ways]
    else:
        prior = [judging.situation_prior * w for w in base]
        weights = list(base)
    for _ in range(judging.em_rounds):
        counts = list(prior)
        for row in rows:
            parts = [w * p for w, p in zip(weights, row, strict=True)]
            total = math.fsum(parts)
            for i, part in enumerate(parts):
                counts[i] += part / total
        whole = math.fsum(counts)
        weights = [c / whole for c in counts]
    return tuple(weights)


def situated_habit(decisions: Sequence[Decision], judging: Judging = JUDGING) -> Situated:
    """The habit of ``decisions`` in each situation: the whole's (:func:`fit_habit`), or with
    ``by_situation`` each situation's decisions fitted with the whole's as their prior."""
    whole = fit_habit(decisions, judging)
    if not judging.by_situation:
        return everywhere(whole)
    lead, follow, discard = (
        fit_habit([d for d in decisions if d.where == s], judging, whole) for s in range(3)
    )
    return (lead, follow, discard)


def playout_habit(habit: Habit, judging: Judging = JUDGING) -> Habit:
    """The habit the playouts play: ``habit`` with the share of the learned model given to Normal's
    way (it costs too much to play in a playout), and the share of "any legal card" too unless
    ``judging.random_in_playouts``.

    >>> playout_habit((0.1, 0.3, 0.0, 0.5, 0.0, 0.1))
    (0.7, 0.3, 0.0, 0.0, 0.0, 0.0)
    """
    weights = list(habit)
    weights[NORMAL_WAY] += weights[LEARNED]
    weights[LEARNED] = 0.0
    if not judging.random_in_playouts:
        weights[NORMAL_WAY] += weights[ANY]
        weights[ANY] = 0.0
    return tuple(weights)


def playout_habits(situated: Situated, judging: Judging = JUDGING) -> Situated:
    """:func:`playout_habit` in each situation."""
    lead, follow, discard = (playout_habit(habit, judging) for habit in situated)
    return (lead, follow, discard)


def habit_policy(habits: list[Situated | None], policy: Policy, rng: random.Random) -> Policy:
    """``policy``, except that a seat with a habit plays, at each decision, one of the ways drawn by
    its weights in the decision's situation (Normal's way is ``policy``)."""
    anything = random_policy(rng)

    def choose(table: Table, seat: int, legal: int) -> int:
        situated = habits[seat]
        if situated is None or not legal & (legal - 1):
            return policy(table, seat, legal)
        habit = situated[situation(table, legal)]
        u = rng.random()
        if u < habit[NORMAL_WAY]:
            return policy(table, seat, legal)
        u -= habit[NORMAL_WAY]
        if u < habit[LOWEST]:
            return lowest_card(legal)
        u -= habit[LOWEST]
        if u < habit[HIGHEST]:
            return highest_card(legal)
        u -= habit[HIGHEST]
        if u < habit[ANY] or not habit[LOW_IN_SUIT]:
            return anything(table, seat, legal)
        suits = [mask for mask in SUIT_MASKS if legal & mask]
        return low_bit(legal & suits[rng.randrange(len(suits))])

    return choose


def habit_cost(
    k: Knowledge,
    world: list[int],
    habits: list[Situated | None],
    limit: float = math.inf,
    mismatch: float = CHAINS.mismatch,
    way_slip: float = JUDGING.way_slip,
    model: CardChances | None = None,
) -> float:
    """How unlikely ``world`` makes the opponents' plays this hand: the sum over their plays (with a
    choice) of minus the log of the habit's chance of the play, or, for a seat without a habit,
    ``-log(mismatch)`` for each play Normal would not have made (Normal's posterior, as
    :func:`gongzhu.ai.sampling.mismatches` counts it); ``model`` judges the learned way.  Counting stops
    once it passes ``limit``."""
    table = hand_start(k, world)
    miss_cost = -math.log(mismatch)
    cost = 0.0
    for seat, card in k.history:
        if seat != k.seat:
            legal = table.legal(seat)
            if legal & (legal - 1):
                situated = habits[seat]
                seen = seen_decision(table, seat, legal, card, None, None if situated is None else model)
                if situated is None:
                    cost += 0.0 if seen.normal else miss_cost
                else:
                    row = way_likelihoods(seen, way_slip)
                    cost -= math.log(math.fsum(w * p for w, p in zip(situated[seen.where], row, strict=True)))
                if cost > limit:
                    return cost
        table.play(card)
    return cost


class HabitChain(SwapWalk):
    """A Metropolis chain over the worlds of one view, a world weighing ``exp(-habit_cost)``."""

    def __init__(
        self,
        k: Knowledge,
        rng: random.Random,
        habits: list[Situated | None],
        world: list[int] | None = None,
        mismatch: float = CHAINS.mismatch,
        way_slip: float = JUDGING.way_slip,
        model: CardChances | None = None,
    ) -> None:
        super().__init__(k, rng, world)
        self.habits = habits  # per seat, its habit (None: Normal's posterior)
        self.mismatch = mismatch  # the likelihood factor of a miss of Normal's, for a seat without a habit
        self.way_slip = way_slip  # how often a way's card slips to another
        self.model = model  # the learned play model judging the learned way (None: not in the habits)
        self.cost = habit_cost(
            k, self.world, habits, mismatch=mismatch, way_slip=way_slip, model=model
        )  # of ``world``

    def bound(self, u: float) -> float:
        # accept with probability exp(old - new), i.e. when new <= old - log(u)
        return self.cost - math.log(u) if u > 0.0 else math.inf

    def take(self, world: list[int], bound: float) -> bool:
        cost = habit_cost(self.k, world, self.habits, bound, self.mismatch, self.way_slip, self.model)
        if cost > bound:
            return False
        self.cost = cost
        return True


def habit_worlds(
    k: Knowledge,
    rng: random.Random,
    count: int,
    habits: list[Situated | None],
    chains: int | None = None,
    tune: Chains = CHAINS,
    judging: Judging = JUDGING,
) -> Iterator[list[int]]:
    """``count`` worlds drawn in proportion to how likely they make the opponents' plays this hand
    (:func:`habit_cost`), taken in turn from ``chains`` chains."""

    model = judging.play_model()

    def chain() -> HabitChain:
        return HabitChain(k, rng, habits, None, tune.mismatch, judging.way_slip, model)

    return chain_worlds(k, rng, count, chain, chains, tune)
