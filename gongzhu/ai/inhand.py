"""Whether each opponent plays like Normal, judged within the hand, for the opponents nothing else judges.

Hard judges each opponent on the match's previous hand (:mod:`gongzhu.ai.opponents`); in a match's
first hand there is none.  Within the hand the opponents' cards are hidden, so their plays cannot be
replayed as after the hand, but the chains that draw Normal's posterior say something all the same:
in the worlds they visit (the ones that suit Normal best), Normal explains nearly every play of a
Normal and misses a large share of another style's plays.  So the chains burn in over Normal's
posterior as always, count each opponent's misses and plays over the second half of their burn-in,
and give each opponent the chance that it plays like Normal (misses a share ``fits`` of its plays)
rather than not (``misfits``), from a prior ``prior`` far on Normal's side (:class:`InHandCheck`):
its *fit*.  Only an opponent whose fit falls below ½ is set aside.  The game's Hard judges a
set-aside opponent by the habits its plays show in the chains' worlds (:func:`checked_habit_worlds`),
which weigh the worlds and play it in the playouts; :func:`checked_worlds` weighs its misses by
``mismatch`` to the power of its fit instead.  Either way the chains walk ``adapt_steps`` more swaps
under the new weights before their first world.  While every opponent fits, nothing changes: the
chains are Normal's posterior's, step for step.

>>> inhand_fit(misses=0.5, choices=6), round(inhand_fit(misses=3.0, choices=6), 2), inhand_fit(misses=6.0, choices=8)
(1.0, 0.3, 0.0)
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .habits import JUDGING, Habit, HabitChain, Judging, Situated, situated_habit
from .knowledge import Knowledge
from .learned import CardChances
from .opponents import decisions
from .sampling import (
    CHAINS,
    Chains,
    SwapWalk,
    hand_start,
    has_evidence,
    sample_world,
    seat_misses,
    thinned,
)


@dataclass(frozen=True)
class InHandCheck:
    """How the chains judge, within the hand, whether an opponent plays Normal (part of Hard's
    configuration)."""

    prior: float = 0.9  # the chance that an opponent plays Normal's strategy, before its plays this hand
    #: the share of an opponent's plays Normal misses in the chains' worlds when it models the opponent
    fits: float = 0.1
    misfits: float = 0.45  # ... and when it does not
    adapt_steps: int = 25  # swaps each chain proposes under the adapted weights before its first world


INHAND = InHandCheck()  # the game's


def inhand_fit(
    misses: float, choices: float, check: InHandCheck = INHAND, clear: float = JUDGING.clear
) -> float:
    """The chance that an opponent plays Normal's strategy, given that Normal misses ``misses`` of its
    ``choices`` plays (with a choice) this hand on average in the chains' worlds: 1 from ½ up (not set
    aside), 0 below ``clear``."""
    log_odds = (
        math.log(check.prior / (1.0 - check.prior))
        + misses * math.log(check.fits / check.misfits)
        + (choices - misses) * math.log((1.0 - check.fits) / (1.0 - check.misfits))
    )
    odds = 1.0 / (1.0 + math.exp(min(700.0, -log_odds)))
    return 1.0 if odds >= 0.5 else 0.0 if odds < clear else odds


class CheckedChain(SwapWalk):
    """A Metropolis chain over the worlds of one view that keeps each opponent's misses and plays: a
    miss of Normal's on seat ``s``'s plays costs the world ``mismatch ** weights[s]`` (all 1:
    Normal's posterior, step for step as :class:`gongzhu.ai.sampling.WorldChain` walks it)."""

    def __init__(self, k: Knowledge, rng: random.Random, mismatch: float = CHAINS.mismatch) -> None:
        super().__init__(k, rng)
        self.mismatch = mismatch  # the likelihood factor of one miss at weight 1
        self.weights = [1.0, 1.0, 1.0, 1.0]  # per seat, the power of ``mismatch`` a miss costs
        # the misses' cost in ``world`` (in powers of ``mismatch``), the misses per seat, the plays
        # with a choice per seat
        self.cost, self.misses, self.choices = seat_misses(k, self.world, self.weights)

    def reweigh(self, weights: list[float]) -> None:
        """Weigh each seat's misses from now on by ``weights``."""
        self.weights = list(weights)
        self.cost = math.fsum(m * w for m, w in zip(self.misses, self.weights, strict=True))

    def bound(self, u: float) -> float:
        # accept with probability mismatch ** (new - old), i.e. when new <= old + log(u) / log(mismatch)
        return self.cost + math.log(u) / math.log(self.mismatch) if u > 0.0 else math.inf

    def take(self, world: list[int], bound: float) -> bool:
        cost, misses, choices = seat_misses(self.k, world, self.weights, bound)
        if cost > bound:
            return False
        self.cost, self.misses, self.choices = cost, misses, choices
        return True


def burnt_in(
    k: Knowledge,
    rng: random.Random,
    chains: int | None = None,
    tune: Chains = CHAINS,
    check: InHandCheck = INHAND,
    judging: Judging = JUDGING,
) -> tuple[list[CheckedChain], list[float]]:
    """``chains`` chains (``tune.chains`` when None) burnt in over Normal's posterior, and each seat's
    in-hand fit (:func:`inhand_fit`) on the misses in the second half of their burn-in (1 for this seat)."""
    walkers = [CheckedChain(k, rng, tune.mismatch) for _ in range(tune.chains if chains is None else chains)]
    misses = [0.0, 0.0, 0.0, 0.0]
    choices = [0.0, 0.0, 0.0, 0.0]
    seen = 0
    for walker in walkers:
        for step in range(tune.burn_in):
            walker.step()
            if 2 * step >= tune.burn_in:
                seen += 1
                for s in range(4):
                    misses[s] += walker.misses[s]
                    choices[s] += walker.choices[s]
    fits = [inhand_fit(misses[s] / seen, choices[s] / seen, check, judging.clear) for s in range(4)]
    fits[k.seat] = 1.0
    return walkers, fits


def checked_worlds(
    k: Knowledge,
    rng: random.Random,
    count: int,
    chains: int | None = None,
    tune: Chains = CHAINS,
    check: InHandCheck = INHAND,
    judging: Judging = JUDGING,
) -> Iterator[list[int]]:
    """``count`` worlds of Normal's posterior, but for each opponent the chains find Normal does not
    explain (:func:`burnt_in`), whose misses weigh by its fit; taken in turn from ``chains`` chains."""
    if not has_evidence(k):
        for _ in range(count):
            yield sample_world(k, rng)
        return
    walkers, fits = burnt_in(k, rng, chains, tune, check, judging)
    if any(f < 1.0 for f in fits):
        for walker in walkers:
            walker.reweigh(fits)
            for _ in range(check.adapt_steps):
                walker.step()
    yield from thinned(walkers, count, tune.thin)


def _mean(habits: list[Habit]) -> Habit:
    return tuple(math.fsum(h[w] for h in habits) / len(habits) for w in range(len(habits[0])))


def world_habits(
    k: Knowledge,
    worlds: list[list[int]],
    fits: list[float],
    judging: Judging = JUDGING,
    model: CardChances | None = None,
) -> list[Situated | None]:
    """Per seat set aside (fit below 1), the mean over ``worlds`` of the habit its plays this hand show
    in each, situation by situation (:func:`gongzhu.ai.habits.situated_habit`; ``model``: the learned
    play model when the habits mix its way); None for the others."""
    habits: list[Situated | None] = [None, None, None, None]
    seen = [decisions(hand_start(k, world), list(k.history), [None] * 4, model) for world in worlds]
    for s in range(4):
        if fits[s] < 1.0:
            each = [situated_habit(plays[s], judging) for plays in seen]
            lead, follow, discard = (_mean([h[where] for h in each]) for where in range(3))
            habits[s] = (lead, follow, discard)
    return habits


def checked_habit_worlds(
    k: Knowledge,
    rng: random.Random,
    count: int,
    chains: int | None = None,
    tune: Chains = CHAINS,
    check: InHandCheck = INHAND,
    judging: Judging = JUDGING,
) -> tuple[list[Situated | None], Iterator[list[int]]]:
    """The habits of the opponents the chains set aside (:func:`burnt_in`, :func:`world_habits`), and
    ``count`` worlds weighed by them (the others by Normal's misses), taken in turn from ``chains``
    chains; Normal's posterior, step for step, while no opponent is set aside."""
    if not has_evidence(k):
        return [None, None, None, None], (sample_world(k, rng) for _ in range(count))
    walkers, fits = burnt_in(k, rng, chains, tune, check, judging)
    model = judging.play_model()
    habits = world_habits(k, [w.world for w in walkers], fits, judging, model)
    chosen: Sequence[SwapWalk] = walkers
    if any(h is not None for h in habits):
        chosen = [
            HabitChain(k, rng, habits, w.world, tune.mismatch, judging.way_slip, model) for w in walkers
        ]
        for walker in chosen:
            for _ in range(check.adapt_steps):
                walker.step()
    return habits, thinned(chosen, count, tune.thin)
